#include "table/page_checks.h"

#include <string>

#include "gtest/gtest.h"

namespace mnk {
namespace {

// D bytes of data (pages 0, 1 and a short page 2), then the trailer.
std::string File(uint64_t data_bytes) {
  std::string file;
  for (uint64_t i = 0; i < data_bytes; ++i) file.push_back(char(i * 7 + 3));
  PageChecksumWriter w;
  // In uneven pieces: the trailer does not depend on how bytes arrive.
  w.Add(file.data(), 5);
  w.Add(file.data() + 5, 5000);
  w.Add(file.data() + 5005, data_bytes - 5005);
  file += w.Finish();
  return file;
}

TEST(PageChecksTest, NoBytesLeaveTheChecksum) {
  const uint32_t abc = Crc32(0, "abc", 3);
  EXPECT_EQ(abc, 0x352441c2u);             // CRC-32 of "abc"
  EXPECT_EQ(Crc32(abc, nullptr, 0), abc);  // as an empty vector's data()
  EXPECT_EQ(Crc32(abc, "", 0), abc);
}

TEST(PageChecksTest, TrailerHasFourBytesAPage) {
  EXPECT_EQ(PageChecksumBytes(0), 0u);
  EXPECT_EQ(PageChecksumBytes(1), 4u);
  EXPECT_EQ(PageChecksumBytes(4096), 4u);
  EXPECT_EQ(PageChecksumBytes(4097), 8u);
  EXPECT_EQ(File(9000).size(), 9000u + 12u);
}

TEST(PageChecksTest, SoundPagesPass) {
  const std::string file = File(9000);
  const uint8_t* data = reinterpret_cast<const uint8_t*>(file.data());
  PageChecks checks(data, 9000);
  EXPECT_EQ(checks.pages(), 3u);
  EXPECT_TRUE(checks.Check(data + 4000, 200));  // pages 0 and 1
  EXPECT_TRUE(checks.Check(data + 8999, 1));
  EXPECT_TRUE(checks.CheckAll());
  EXPECT_EQ(checks.damaged_page(), -1);
}

TEST(PageChecksTest, ADamagedPageIsFoundWhenRead) {
  std::string file = File(9000);
  file[5000] ^= 1;  // page 1
  const uint8_t* data = reinterpret_cast<const uint8_t*>(file.data());
  PageChecks checks(data, 9000);
  EXPECT_TRUE(checks.Check(data, 4096));
  EXPECT_TRUE(checks.Check(data + 8192, 808));
  EXPECT_EQ(checks.damaged_page(), -1);
  EXPECT_FALSE(checks.Check(data + 4095, 2));
  EXPECT_EQ(checks.damaged_page(), 1);
  // Never trusted later either.
  EXPECT_FALSE(checks.Check(data + 6000, 1));
  EXPECT_FALSE(checks.CheckAll());
}

TEST(PageChecksTest, ADamagedChecksumIsFound) {
  std::string file = File(9000);
  file[9000 + 8] ^= 0x80;  // page 2's checksum
  const uint8_t* data = reinterpret_cast<const uint8_t*>(file.data());
  PageChecks checks(data, 9000);
  EXPECT_FALSE(checks.CheckAll());
  EXPECT_EQ(checks.damaged_page(), 2);
}

}  // namespace
}  // namespace mnk
