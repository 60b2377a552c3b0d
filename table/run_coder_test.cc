#include "table/run_coder.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mnk {
namespace {

// Every entry that matters reads back, for several alphabets, block sizes
// and shares of don't-cares; don't-cares read as the run before them.
TEST(RunCoderTest, RoundTrips) {
  std::mt19937 rng(7);
  for (int alphabet : {1, 3, 64}) {
    for (int block : {1, 7, 512, 65536}) {
      for (double care : {1.0, 0.3, 0.01}) {
        std::vector<uint8_t> symbols(20000);
        int current = 0;
        for (uint8_t& s : symbols) {
          if (rng() % 8 == 0) current = rng() % alphabet;  // runs
          s = rng() < care * 4294967295.0 ? current : kDontCare;
        }
        const std::string bytes = EncodeRuns(symbols, alphabet, block);
        absl::StatusOr<RunReader> r = RunReader::Open(bytes);
        ASSERT_TRUE(r.ok()) << r.status();
        ASSERT_EQ(r->size(), symbols.size());
        int last = -1;
        for (uint64_t i = 0; i < symbols.size(); ++i) {
          const int got = r->Get(i);
          ASSERT_GE(got, 0);
          ASSERT_LT(got, alphabet);
          if (symbols[i] != kDontCare) {
            ASSERT_EQ(got, symbols[i]) << i;
          } else if (i % block != 0 && last >= 0) {
            ASSERT_EQ(got, last) << "a don't-care extends the run before it";
          }
          last = got;
        }
        // Decode gives what Get gives, over any range.
        for (uint64_t begin : {0, 1, 511, 777, 19999}) {
          for (uint64_t end : {begin, begin + 1, uint64_t{20000}}) {
            if (end > symbols.size()) continue;
            std::vector<uint8_t> out(end - begin, 0xee);
            ASSERT_TRUE(r->Decode(begin, end, out.data()));
            for (uint64_t i = begin; i < end; ++i) {
              ASSERT_EQ(out[i - begin], r->Get(i)) << begin << " " << i;
            }
          }
        }
        EXPECT_EQ(EncodeRuns(symbols, alphabet, block), bytes);  // determinism
      }
    }
  }
}

// Long runs of don't-cares cost next to nothing: 1,000,000 entries of
// which 1,000 matter, in 4,096-entry blocks: 245 offsets (980 bytes) and
// 1,000 runs of about 11 bits (a 2-bit code, 9 length bits) plus block
// padding: under 3,000 bytes, 0.024 bits an entry.
// Pieces of any size, crossing blocks or not, give EncodeRuns's bytes.
TEST(RunCoderTest, EncodesInPiecesAsWhole) {
  std::mt19937 rng(11);
  for (int block : {1, 7, 128, 512}) {
    for (uint64_t n : {0, 1, 127, 128, 129, 5000}) {
      std::vector<uint8_t> symbols(n);
      for (uint8_t& s : symbols) {
        s = rng() % 4 == 0 ? kDontCare : static_cast<uint8_t>(rng() % 3);
      }
      std::vector<size_t> cuts = {0};
      while (cuts.back() < n) {
        cuts.push_back(std::min<size_t>(n, cuts.back() + rng() % 300));
      }
      RunEncoder encoder(3, block);
      for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        encoder.Count(symbols.data() + cuts[i], cuts[i + 1] - cuts[i]);
      }
      for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        encoder.Write(symbols.data() + cuts[i], cuts[i + 1] - cuts[i]);
      }
      encoder.Write(symbols.data(), 0);  // an empty piece changes nothing
      EXPECT_EQ(encoder.Finish(), EncodeRuns(symbols, 3, block))
          << "block " << block << ", " << n << " entries";
    }
  }
}

TEST(RunCoderTest, DontCaresAreNearlyFree) {
  std::vector<uint8_t> symbols(1000000, kDontCare);
  for (int i = 0; i < 1000; ++i) symbols[i * 1000] = i % 3;
  const std::string bytes = EncodeRuns(symbols, 3, 4096);
  EXPECT_LT(bytes.size(), 3000u);
  absl::StatusOr<RunReader> r = RunReader::Open(bytes);
  ASSERT_TRUE(r.ok());
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(r->Get(i * 1000), i % 3);
}

// Don't-cares and repeats are skipped a word at a time: a change of symbol
// at any byte of a word, or in the tail past the last whole word, is found.
TEST(RunCoderTest, FindsEveryChangeWhateverItsByte) {
  for (size_t n : {8, 13, 24, 31}) {
    for (size_t at = 0; at < n; ++at) {
      for (size_t next = at + 1; next < n; ++next) {
        std::vector<uint8_t> symbols(n, kDontCare);
        symbols[at] = 1;
        symbols[next] = 2;
        const std::string two = EncodeRuns(symbols, 3, 16);  // the reader's
        absl::StatusOr<RunReader> r = RunReader::Open(two);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(r->Get(at), 1) << n << " " << at << " " << next;
        EXPECT_EQ(r->Get(next), 2) << n << " " << at << " " << next;
        symbols.assign(n, 1);  // a run of 1s, one 0
        symbols[next] = 0;
        const std::string ones = EncodeRuns(symbols, 3, 64);
        r = RunReader::Open(ones);
        ASSERT_TRUE(r.ok());
        for (size_t i = 0; i < n; ++i) EXPECT_EQ(r->Get(i), i == next ? 0 : 1);
      }
    }
  }
}

TEST(RunCoderTest, EmptyAndAllDontCare) {
  absl::StatusOr<RunReader> empty = RunReader::Open(EncodeRuns({}, 3, 16));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->size(), 0u);
  const std::string bytes =
      EncodeRuns(std::vector<uint8_t>(100, kDontCare), 3, 16);
  absl::StatusOr<RunReader> r = RunReader::Open(bytes);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->Get(99), 0);
}

// Damaged sections are refused, or decode to -1, never read outside.
TEST(RunCoderTest, RefusesDamage) {
  std::vector<uint8_t> symbols(5000);
  for (size_t i = 0; i < symbols.size(); ++i) symbols[i] = (i / 3) % 3;
  const std::string good = EncodeRuns(symbols, 3, 256);
  EXPECT_EQ(RunReader::Open(good.substr(0, 10)).status().code(),
            absl::StatusCode::kDataLoss);
  // Cut in half, the offsets still fit, so it opens (Open reads no offsets,
  // to stay quick on big sections), but blocks past the end read as -1.
  const std::string half = good.substr(0, good.size() / 2);
  absl::StatusOr<RunReader> cut = RunReader::Open(half);
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_EQ(cut->Get(4999), -1);
  std::vector<uint8_t> out(5000);
  EXPECT_FALSE(cut->Decode(0, 5000, out.data()));
  std::string bad = good;
  bad[0] = 65;  // alphabet 65
  EXPECT_EQ(RunReader::Open(bad).status().code(), absl::StatusCode::kDataLoss);
  bad = good;
  for (int pair = 0; pair < 3 * kLengthCodes; ++pair) bad[16 + pair] = 1;
  EXPECT_EQ(RunReader::Open(bad).status().code(), absl::StatusCode::kDataLoss)
      << "51 codes of one bit";
  // Every byte of the offsets and the stream flipped in turn: each read
  // stays in bounds.
  const size_t offsets = 16 + 3 * kLengthCodes;
  for (size_t at = offsets; at + 8 < good.size(); ++at) {
    bad = good;
    bad[at] = static_cast<char>(~bad[at]);
    absl::StatusOr<RunReader> r = RunReader::Open(bad);
    ASSERT_TRUE(r.ok());
    for (uint64_t i = 0; i < symbols.size(); i += 97) {
      const int got = r->Get(i);
      EXPECT_GE(got, -1);
      EXPECT_LT(got, 3);
    }
  }
}

// With page checksums, a damaged page reads as -1 in every block that
// touches it, and every other entry still decodes.
TEST(RunCoderTest, ChecksPagesAsItReads) {
  std::vector<uint8_t> symbols(200000);
  for (size_t i = 0; i < symbols.size(); ++i) symbols[i] = (i * i / 7) % 5;
  std::string file = EncodeRuns(symbols, 5, 256);
  const uint64_t data_bytes = file.size();
  ASSERT_GT(data_bytes, 4 * kPageBytes);
  PageChecksumWriter w;
  w.Add(file.data(), data_bytes);
  file += w.Finish();
  file[2 * kPageBytes + 100] ^= 0x20;
  const uint8_t* data = reinterpret_cast<const uint8_t*>(file.data());
  PageChecks checks(data, data_bytes);
  absl::StatusOr<RunReader> r =
      RunReader::Open(absl::string_view(file.data(), data_bytes), &checks);
  ASSERT_TRUE(r.ok()) << r.status();
  int damaged = 0;
  for (uint64_t i = 0; i < symbols.size(); ++i) {
    const int got = r->Get(i);
    if (got == -1) {
      ++damaged;
    } else {
      ASSERT_EQ(got, symbols[i]) << i;
    }
  }
  EXPECT_GT(damaged, 0);
  EXPECT_LT(damaged, 200000 / 4);  // a page of a stream of over 4
  EXPECT_EQ(checks.damaged_page(), 2);
}

}  // namespace
}  // namespace mnk
