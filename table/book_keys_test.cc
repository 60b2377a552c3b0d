#include "table/book_keys.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mnk {
namespace {

std::vector<uint8_t> Bytes(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

// The header's example, byte for byte.
TEST(BookKeysTest, PacksTheExample) {
  const BookKeySections s = PackBookKeys({3, 4, 9, 300});
  EXPECT_EQ(Bytes(s.directory),
            (std::vector<uint8_t>{3, 0, 0, 0, 0, 0, 0, 0,  //
                                  0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(Bytes(s.gaps), (std::vector<uint8_t>{0, 4, 0xa2, 0x02}));
}

// A block's first key is whole in the directory, with where its gaps begin.
TEST(BookKeysTest, StartsABlockEvery64Keys) {
  std::vector<uint64_t> keys;
  for (uint64_t k = 0; k < 130; ++k) keys.push_back(10 * k);
  const BookKeySections s = PackBookKeys(keys);
  ASSERT_EQ(s.directory.size(), 3 * kBookDirectoryEntryBytes);
  EXPECT_EQ(BookBlocks(130), 3u);
  EXPECT_EQ(BookBlocks(128), 2u);
  EXPECT_EQ(BookBlocks(0), 0u);
  EXPECT_EQ(static_cast<uint8_t>(s.directory[16]), 640 % 256);
  EXPECT_EQ(static_cast<uint8_t>(s.directory[17]), 640 / 256);
  EXPECT_EQ(static_cast<uint8_t>(s.directory[24]), 63);  // gaps of block 0
  EXPECT_EQ(static_cast<uint8_t>(s.directory[40]), 126);
  EXPECT_EQ(s.gaps, std::string(63 + 63 + 1, '\x09'));
}

TEST(BookKeysTest, ReadsEveryGapBackUpTo64Bits) {
  const std::vector<uint64_t> keys = {0, 129, 16514, ~uint64_t{0}};
  const BookKeySections s = PackBookKeys(keys);
  EXPECT_EQ(s.gaps.size(), 2 + 3 + 10u);
  EXPECT_EQ(PackedBookKeyBytes(keys), 16 + 15u);
  const std::vector<uint8_t> gaps = Bytes(s.gaps);
  const uint8_t* p = gaps.data();
  const uint8_t* end = p + gaps.size();
  for (size_t i = 1; i < keys.size(); ++i) {
    uint64_t gap = 0;
    ASSERT_TRUE(ReadGap(&p, end, &gap));
    EXPECT_EQ(gap, keys[i] - keys[i - 1] - 1);
  }
  EXPECT_EQ(p, end);
}

// A varint cut short, or longer than a 64-bit one, is refused, and the
// reader stays where it was.
TEST(BookKeysTest, RefusesATruncatedOrOverlongGap) {
  const std::vector<uint8_t> cut = {0x80, 0x80};
  const uint8_t* p = cut.data();
  uint64_t gap = 7;
  EXPECT_FALSE(ReadGap(&p, p + cut.size(), &gap));
  EXPECT_EQ(p, cut.data());
  EXPECT_EQ(gap, 7u);
  const std::vector<uint8_t> overlong(11, 0x80);
  p = overlong.data();
  EXPECT_FALSE(ReadGap(&p, p + overlong.size(), &gap));
  EXPECT_FALSE(ReadGap(&p, p, &gap));  // nothing left
}

}  // namespace
}  // namespace mnk
