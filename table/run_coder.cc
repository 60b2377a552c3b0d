#include "table/run_coder.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <functional>
#include <queue>
#include <utility>

#include "absl/base/config.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "table/file_io.h"

namespace mnk {
namespace {

constexpr size_t kHeaderBytes = 16;
// Length codes (drawn in run_coder.h): lengths 1-16 directly, then
// classes of floor(log2(length)) with that many raw bits.
constexpr int kDirectLengths = 16;

int LengthCode(uint64_t length) {
  if (length <= kDirectLengths) return static_cast<int>(length) - 1;
  return 12 + absl::bit_width(length) - 1;  // floor(log2) >= 4: codes 16..
}
// Raw bits after length code l.
constexpr int ExtraBits(int l) { return l < kDirectLengths ? 0 : l - 12; }
static_assert(12 + 16 == kLengthCodes - 1, "runs up to 2^17 - 1 entries");

using run_coder_internal::Run;

// The first entry from i on (before end) that is neither a don't-care nor
// `current` (-1: none), else end. Most entries of a solver's layers are
// don't-cares (unreachable indices): they are skipped eight at a time.
uint64_t SkipSame(const uint8_t* symbols, uint64_t i, uint64_t end,
                  int current) {
  constexpr uint64_t kOnes = 0x0101010101010101, kHighs = kOnes << 7;
  // The high bit of each byte of v that is zero (exact: no carries).
  const auto zero_bytes = [](uint64_t v) {
    return ~(((v & ~kHighs) + ~kHighs) | v) & kHighs;
  };
  const uint64_t same = kOnes * static_cast<uint8_t>(current);
  for (; i + 8 <= end; i += 8) {
    uint64_t w;
    std::memcpy(&w, symbols + i, 8);
    uint64_t skipped = zero_bytes(~w);  // don't-cares
    if (current >= 0) skipped |= zero_bytes(w ^ same);
    if (skipped != kHighs) {
#ifndef ABSL_IS_LITTLE_ENDIAN
#error "entry i + k is byte k of w only on little-endian machines"
#endif
      return i + absl::countr_zero(~skipped & kHighs) / 8;
    }
  }
  for (; i < end; ++i) {
    if (symbols[i] != kDontCare && symbols[i] != current) break;
  }
  return i;
}

// The runs of entries [begin, end): each takes the symbol of its first
// entry that matters and goes on through don't-cares and equal symbols.
// Leading don't-cares join the first run; a block of don't-cares only is
// one run of symbol 0.
void BlockRuns(const uint8_t* symbols, uint64_t begin, uint64_t end,
               std::vector<Run>& runs) {
  runs.clear();
  uint64_t start = begin;
  int current = -1;
  for (uint64_t i = begin; (i = SkipSame(symbols, i, end, current)) < end;
       ++i) {
    const uint8_t s = symbols[i];
    if (current < 0) {
      current = s;  // the first symbol that matters: the run from `begin`
      continue;
    }
    runs.push_back(
        {static_cast<uint8_t>(current), static_cast<uint32_t>(i - start)});
    start = i;
    current = s;
  }
  runs.push_back({static_cast<uint8_t>(std::max(current, 0)),
                  static_cast<uint32_t>(end - start)});
}

// Huffman code lengths for `freq`, none longer than kMaxCodeBits (counts are
// flattened until they fit). Ties go to the lower pair: deterministic.
std::vector<uint8_t> CodeLengths(const std::vector<uint64_t>& freq) {
  std::vector<uint64_t> f = freq;
  while (true) {
    std::vector<uint8_t> lengths(f.size(), 0);
    using Node = std::pair<uint64_t, int>;  // weight, node id
    std::priority_queue<Node, std::vector<Node>, std::greater<Node>> queue;
    std::vector<int> parent;
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i] == 0) continue;
      queue.push({f[i], static_cast<int>(parent.size())});
      parent.push_back(-1);
    }
    std::vector<int> leaf_of_node;  // node id -> pair, for leaves
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i] != 0) leaf_of_node.push_back(static_cast<int>(i));
    }
    const size_t leaves = leaf_of_node.size();
    if (leaves == 1) {
      lengths[leaf_of_node[0]] = 1;
      return lengths;
    }
    while (queue.size() > 1) {
      const Node a = queue.top();
      queue.pop();
      const Node b = queue.top();
      queue.pop();
      const int id = static_cast<int>(parent.size());
      parent.push_back(-1);
      parent[a.second] = id;
      parent[b.second] = id;
      queue.push({a.first + b.first, id});
    }
    int longest = 0;
    for (size_t leaf = 0; leaf < leaves; ++leaf) {
      int depth = 0;
      for (int n = static_cast<int>(leaf); parent[n] >= 0; n = parent[n]) {
        ++depth;
      }
      lengths[leaf_of_node[leaf]] = static_cast<uint8_t>(depth);
      longest = std::max(longest, depth);
    }
    if (longest <= kMaxCodeBits) return lengths;
    for (uint64_t& x : f) {
      if (x != 0) x = x / 2 + 1;
    }
  }
}

// Canonical codes: by length, then by pair.
std::vector<uint32_t> CanonicalCodes(const std::vector<uint8_t>& lengths) {
  std::vector<uint32_t> codes(lengths.size(), 0);
  uint32_t code = 0;
  for (int bits = 1; bits <= kMaxCodeBits; ++bits) {
    for (size_t pair = 0; pair < lengths.size(); ++pair) {
      if (lengths[pair] == bits) codes[pair] = code++;
    }
    code <<= 1;
  }
  return codes;
}

// Appends bits most significant first, through a 64-bit accumulator.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  ~BitWriter() { AlignToByte(); }
  void Put(uint64_t value, int bits) {  // the low `bits` bits, bits <= 32
    assert(bits <= 32);
    if (bits == 0) return;
    acc_ = acc_ << bits | (value & ((uint64_t{1} << bits) - 1));
    used_ += bits;
    while (used_ >= 8) {
      used_ -= 8;
      out_.push_back(static_cast<char>(acc_ >> used_));
    }
  }
  // Pads the last byte with zeros.
  void AlignToByte() {
    if (used_ > 0) out_.push_back(static_cast<char>(acc_ << (8 - used_)));
    used_ = 0;
    acc_ = 0;
  }
  size_t bytes() const { return out_.size(); }

 private:
  std::string& out_;
  uint64_t acc_ = 0;  // the low used_ bits are pending
  int used_ = 0;
};

void PutLittle(std::string& out, uint64_t value, int bytes) {
  char le[8];
  PutLittleEndian(le, value, bytes);
  out.append(le, bytes);
}

uint64_t LoadBigEndian64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

// The pair of a run: symbol change and length code.
int PairOf(const Run& r, int previous, int alphabet) {
  return (r.symbol - previous + alphabet) % alphabet * kLengthCodes +
         LengthCode(r.length);
}

}  // namespace

RunEncoder::RunEncoder(int alphabet, int block_entries)
    : alphabet_(alphabet),
      block_entries_(block_entries),
      freq_(alphabet * kLengthCodes, 0) {
  assert(alphabet >= 1 && alphabet <= kMaxAlphabet);
  assert(block_entries >= 1 && block_entries <= kMaxBlockEntries);
}

void RunEncoder::Count(const uint8_t* symbols, size_t n) {
  assert(!writing_);
  counted_ += n;
  Feed(symbols, n);
}

void RunEncoder::Write(const uint8_t* symbols, size_t n) {
  if (!writing_) StartWriting();
  written_ += n;
  assert(written_ <= counted_);
  Feed(symbols, n);
}

void RunEncoder::StartWriting() {
  if (!pending_.empty()) Block(pending_.data(), pending_.size());
  pending_.clear();
  if (counted_ == 0) freq_[0] = 1;  // a code all the same
  lengths_ = CodeLengths(freq_);
  codes_ = CanonicalCodes(lengths_);
  writing_ = true;
}

void RunEncoder::Feed(const uint8_t* symbols, size_t n) {
  const size_t b = static_cast<size_t>(block_entries_);
  if (!pending_.empty()) {
    const size_t take = std::min(n, b - pending_.size());
    pending_.insert(pending_.end(), symbols, symbols + take);
    symbols += take;
    n -= take;
    if (pending_.size() < b) return;
    Block(pending_.data(), b);
    pending_.clear();
  }
  for (; n >= b; symbols += b, n -= b) Block(symbols, b);
  pending_.assign(symbols, symbols + n);
}

void RunEncoder::Block(const uint8_t* symbols, size_t n) {
  BlockRuns(symbols, 0, n, runs_);
  int previous = 0;
  if (!writing_) {
    for (const Run& r : runs_) {
      assert(r.symbol < alphabet_);
      ++freq_[PairOf(r, previous, alphabet_)];
      previous = r.symbol;
    }
    return;
  }
  // Every block starts on a byte, at a 32-bit offset.
  if (stream_.size() > UINT32_MAX) too_long_ = true;
  offsets_.push_back(static_cast<uint32_t>(stream_.size()));
  BitWriter writer(stream_);
  for (const Run& r : runs_) {
    const int pair = PairOf(r, previous, alphabet_);
    writer.Put(codes_[pair], lengths_[pair]);
    writer.Put(r.length, ExtraBits(pair % kLengthCodes));  // low bits
    previous = r.symbol;
  }
  writer.AlignToByte();
}

std::string RunEncoder::Finish() {
  if (!writing_) StartWriting();
  assert(written_ == counted_);
  if (!pending_.empty()) Block(pending_.data(), pending_.size());
  pending_.clear();
  std::string out;
  out.reserve(16 + lengths_.size() + 4 * offsets_.size() + stream_.size() + 8);
  PutLittle(out, alphabet_, 4);
  PutLittle(out, block_entries_, 4);
  PutLittle(out, counted_, 8);
  for (uint8_t l : lengths_) out.push_back(static_cast<char>(l));
  for (uint32_t offset : offsets_) PutLittle(out, offset, 4);
  out += stream_;
  out.append(8, '\0');
  // Everything is in `out` now: the stream and offsets go at once (a large
  // layer's are gigabytes, and the caller holds the finished sections of
  // the other kinds meanwhile).
  std::string().swap(stream_);
  std::vector<uint32_t>().swap(offsets_);
  return out;
}

std::string EncodeRuns(const std::vector<uint8_t>& symbols, int alphabet,
                       int block_entries) {
  RunEncoder encoder(alphabet, block_entries);
  encoder.Count(symbols.data(), symbols.size());
  encoder.Write(symbols.data(), symbols.size());
  return encoder.Finish();
}

absl::Status RunReader::BuildCodes(const uint8_t* lengths, uint64_t pairs) {
  // Canonical code tables, and the check that no code is over-full.
  uint64_t kraft = 0;  // in units of 2^-kMaxCodeBits
  for (uint64_t pair = 0; pair < pairs; ++pair) {
    if (lengths[pair] > kMaxCodeBits) {
      return absl::DataLossError(absl::StrCat("code of ", int{lengths[pair]},
                                              " bits, expected at most ",
                                              kMaxCodeBits));
    }
    if (lengths[pair] == 0) continue;
    ++count_[lengths[pair]];
    kraft += uint64_t{1} << (kMaxCodeBits - lengths[pair]);
  }
  if (kraft > uint64_t{1} << kMaxCodeBits) {
    return absl::DataLossError("over-full code");
  }
  uint32_t code = 0, index = 0;
  for (int bits = 1; bits <= kMaxCodeBits; ++bits) {
    first_[bits] = code;
    index_[bits] = index;
    code = (code + count_[bits]) << 1;
    index += count_[bits];
  }
  for (int bits = 1; bits <= kMaxCodeBits; ++bits) {
    for (uint64_t pair = 0; pair < pairs; ++pair) {
      if (lengths[pair] == bits) pairs_.push_back(static_cast<uint16_t>(pair));
    }
  }
  // Codes of up to kFastBits bits decode in one lookup.
  fast_.assign(1 << kFastBits, 0);
  for (int bits = 1; bits <= kFastBits; ++bits) {
    for (uint32_t j = 0; j < count_[bits]; ++j) {
      const uint32_t pair = pairs_[index_[bits] + j];
      const uint32_t first = (first_[bits] + j) << (kFastBits - bits);
      for (uint32_t k = 0; k < (1u << (kFastBits - bits)); ++k) {
        fast_[first + k] = pair << 5 | bits;
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RunReader> RunReader::Open(absl::string_view bytes,
                                          const PageChecks* checks) {
  auto bad = [&](absl::string_view what) {
    return absl::DataLossError(absl::StrCat("run-coded section: ", what));
  };
  if (bytes.size() < kHeaderBytes) return bad("shorter than its header");
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint64_t alphabet = GetLittleEndian(data, 4);
  const uint64_t block_entries = GetLittleEndian(data + 4, 4);
  const uint64_t entries = GetLittleEndian(data + 8, 8);
  if (alphabet < 1 || alphabet > kMaxAlphabet) {
    return bad(
        absl::StrCat("alphabet ", alphabet, ", expected 1 to ", kMaxAlphabet));
  }
  if (block_entries < 1 || block_entries > kMaxBlockEntries) {
    return bad(absl::StrCat("block of ", block_entries,
                            " entries, expected 1 to ", kMaxBlockEntries));
  }
  const uint64_t pairs = alphabet * kLengthCodes;
  const uint64_t used_blocks =
      entries / block_entries + (entries % block_entries != 0);
  if (bytes.size() < kHeaderBytes + pairs + 8 ||
      (bytes.size() - kHeaderBytes - pairs - 8) / 4 < used_blocks) {
    return bad(absl::StrCat("too short for ", entries, " entries"));
  }
  if (checks != nullptr && !checks->Check(data, kHeaderBytes + pairs)) {
    return bad("its header fails its page's checksum");
  }
  RunReader r;
  r.checks_ = checks;
  r.entries_ = entries;
  r.alphabet_ = static_cast<uint32_t>(alphabet);
  r.block_entries_ = static_cast<uint32_t>(block_entries);
  if (absl::Status s = r.BuildCodes(data + kHeaderBytes, pairs); !s.ok()) {
    return bad(s.message());
  }
  r.offsets_ = data + kHeaderBytes + pairs;
  r.stream_ = r.offsets_ + 4 * used_blocks;
  r.stream_bytes_ = bytes.size() - (r.stream_ - data) - 8;  // no padding
  return r;
}

template <typename OnRun>
bool RunReader::ForEachRun(uint64_t block, OnRun on_run) const {
  const bool last_block = block + 1 == (entries_ - 1) / block_entries_ + 1;
  if (checks_ != nullptr &&
      !checks_->Check(offsets_ + 4 * block, last_block ? 4 : 8)) {
    return false;
  }
  const uint64_t offset = GetLittleEndian(offsets_ + 4 * block, 4);
  const uint64_t end =
      last_block ? stream_bytes_ : GetLittleEndian(offsets_ + 4 * block + 4, 4);
  // Corrupt offsets or a corrupt stream must not lead the decoder outside
  // its block (and the 8 bytes a load reads past it).
  if (offset > end || end > stream_bytes_ ||
      (checks_ != nullptr &&
       !checks_->Check(stream_ + offset, end - offset + 8))) {
    return false;
  }
  const uint64_t limit_bits = 8 * (end - offset);
  const uint8_t* p = stream_ + offset;
  uint64_t at = 0;  // bits read from p
  uint32_t symbol = 0;
  while (at <= limit_bits) {
    const uint64_t word = LoadBigEndian64(p + (at >> 3)) << (at & 7);
    uint32_t pair, bits;
    const uint32_t fast = fast_[word >> (64 - kFastBits)];
    if (fast != 0) {
      pair = fast >> 5;
      bits = fast & 31;
    } else {
      for (bits = kFastBits + 1;; ++bits) {
        if (bits > kMaxCodeBits) return false;  // no such code: corrupt
        const uint64_t code = word >> (64 - bits);
        if (code - first_[bits] < count_[bits]) {
          pair = pairs_[index_[bits] + (code - first_[bits])];
          break;
        }
      }
    }
    const int l = pair % kLengthCodes;
    uint64_t length;
    int extra = 0;
    if (l < kDirectLengths) {
      length = l + 1;
    } else {
      extra = ExtraBits(l);
      length = uint64_t{1} << extra | (word << bits) >> (64 - extra);
    }
    symbol += pair / kLengthCodes;
    if (symbol >= alphabet_) symbol -= alphabet_;
    if (!on_run(symbol, length)) return true;
    at += bits + extra;
  }
  return false;  // past the block: corrupt
}

void RunReader::PrefetchStream(uint64_t i) const {
  const uint64_t offset =
      GetLittleEndian(offsets_ + 4 * (i / block_entries_), 4);
  if (offset < stream_bytes_) __builtin_prefetch(stream_ + offset);
}

int RunReader::Get(uint64_t i) const {
  assert(i < entries_);
  const uint64_t block = i / block_entries_;
  uint64_t left = i - block * block_entries_;
  int found = -1;
  ForEachRun(block, [&](uint32_t symbol, uint64_t length) {
    if (left < length) {
      found = static_cast<int>(symbol);
      return false;
    }
    left -= length;
    return true;
  });
  return found;
}

bool RunReader::Decode(uint64_t begin, uint64_t end, uint8_t* out) const {
  assert(begin <= end && end <= entries_);
  for (uint64_t block = begin / block_entries_; block * block_entries_ < end;
       ++block) {
    uint64_t at = block * block_entries_;  // the entry the next run starts
    const uint64_t block_end = std::min(at + block_entries_, end);
    const bool ok = ForEachRun(block, [&](uint32_t symbol, uint64_t length) {
      const uint64_t from = std::max(at, begin);
      at += length;
      const uint64_t to = std::min(at, block_end);
      if (from < to) std::memset(out + (from - begin), symbol, to - from);
      return at < block_end;
    });
    if (!ok || at < block_end) return false;
  }
  return true;
}

}  // namespace mnk
