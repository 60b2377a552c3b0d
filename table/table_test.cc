#include "table/table.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "store/write.h"
#include "table/file_io.h"
#include "table/header.h"
#include "table/record.h"
#include "table/sha256.h"

namespace mnk {
namespace {

// Records for tic-tac-toe where every index holds a recognisable value; the
// start position gets a real record so that Probe can check it.
RecordArrays FakeRecords(const PositionIndex& index) {
  RecordArrays records(index.size());
  for (uint64_t i = 0; i < index.size(); ++i) {
    records.Set(i, {static_cast<Value>(1 + i % 3), static_cast<int>(i % 7),
                    static_cast<int>(i % 9)});
  }
  records.Set(0, {Value::kDraw, 9, 0});
  return records;
}

std::string TempPath(const std::string& name) {
  return std::string(getenv("TEST_TMPDIR")) + "/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

class TableTest : public ::testing::Test {
 protected:
  const Game game_ = *Game::Create({3, 3, 3});
  const PositionIndex index_{game_};
  const RecordArrays records_ = FakeRecords(index_);
  const std::string bytes_ = SerializeTable(game_.spec(), records_.view(), 7);
};

TEST_F(TableTest, LayoutIsAsDocumented) {
  // D = 64 + 1512 + 2 * 6046 = 13668 bytes in 4 pages, 4 page checksums,
  // the whole file's checksum.
  ASSERT_EQ(bytes_.size(), 13668u + 16 + 4);
  EXPECT_EQ(TableFileSize(6046), 13688u);
  EXPECT_EQ(bytes_.substr(0, 8), "MNKTABLE");
  EXPECT_EQ(bytes_[8], 3);  // version, little-endian
  EXPECT_EQ(bytes_[12], 3);
  EXPECT_EQ(bytes_[13], 3);
  EXPECT_EQ(bytes_[14], 3);
  EXPECT_EQ(bytes_[15], 0);
  // Index 5's value (1 + 5 % 3 = 3, win) is in bits 2-3 of value byte 1.
  EXPECT_EQ((bytes_[64 + 1] >> 2) & 3, 3);
  // Index 10's details: value (1 + 10 % 3 = 2, draw) and remoteness
  // (10 % 7), then best move (10 % 9).
  EXPECT_EQ(static_cast<uint8_t>(bytes_[64 + 1512 + 2 * 10]), 2 << 6 | 10 % 7);
  EXPECT_EQ(bytes_[64 + 1512 + 2 * 10 + 1], 10 % 9);
}

TEST_F(TableTest, RoundTrip) {
  const std::string path = TempPath("round_trip.mnk");
  ASSERT_TRUE(WriteTable(path, game_.spec(), records_.view(), 7).ok());
  EXPECT_EQ(ReadFile(path), bytes_);
  absl::StatusOr<Table> table = Table::Load(path, game_.spec());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->reachable(), 7u);
  EXPECT_EQ(table->game().spec(), game_.spec());
  for (uint64_t i = 0; i < index_.size(); ++i) {
    ASSERT_EQ(table->view().Get(i), records_.view().Get(i)) << i;
  }
  absl::StatusOr<Record> start = table->Probe(Position{});
  ASSERT_TRUE(start.ok()) << start.status();
  EXPECT_EQ(*start, (Record{Value::kDraw, 9, 0}));
  // Its content named as coreutils' sha256sum names it.
  FILE* sum = popen(("sha256sum " + path).c_str(), "r");
  ASSERT_NE(sum, nullptr);
  char line[65] = {};
  ASSERT_EQ(fread(line, 1, 64, sum), 64u);
  pclose(sum);
  EXPECT_EQ(Sha256(*table), line);
  EXPECT_EQ(Sha256(*Table::FromBytes(bytes_)), line);
  // No temporary file is left beside it.
  struct stat st;
  EXPECT_NE(stat((path + ".tmp-").c_str(), &st), 0);
}

TEST_F(TableTest, StaticBytesAreReadInPlace) {
  // Aligned as the built-in tables are (data/embed_main.cc).
  alignas(64) static char bytes[16384];
  ASSERT_LE(bytes_.size(), sizeof(bytes));
  std::memcpy(bytes, bytes_.data(), bytes_.size());
  const absl::string_view view(bytes, bytes_.size());
  absl::StatusOr<Table> table = Table::FromStatic(view, game_.spec());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(*table->Probe(Position{}), (Record{Value::kDraw, 9, 0}));
  // No copy: the table reads those very bytes, so damage done to them
  // after it opened shows in its checksums; opened so, it is refused.
  bytes[5000] ^= 0x10;
  EXPECT_EQ(table->CheckAll().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(Table::FromStatic(view, game_.spec()).status().code(),
            absl::StatusCode::kDataLoss);
  bytes[5000] ^= 0x10;
  EXPECT_TRUE(table->CheckAll().ok());
}

TEST_F(TableTest, InMemoryKeepsTheBytesItRead) {
  const std::string path = TempPath("in_memory.mnk");
  ASSERT_TRUE(WriteTable(path, game_.spec(), records_.view(), 7).ok());
  absl::StatusOr<Table> mapped = Table::Load(path, game_.spec());
  absl::StatusOr<Table> read =
      Table::Load(path, game_.spec(), Table::Placement::kInMemory);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  ASSERT_TRUE(read.ok()) << read.status();
  for (uint64_t i = 0; i < index_.size(); ++i) {
    ASSERT_EQ(read->view().Get(i), records_.view().Get(i)) << i;
  }
  // Another table written over the file in place: the mapping shows it
  // (and says so), the copy in memory does not.
  RecordArrays other = FakeRecords(index_);
  other.Set(0, {Value::kWin, 5, 4});
  {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f << SerializeTable(game_.spec(), other.view(), 7);
  }
  EXPECT_EQ(mapped->CheckUnchanged().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(read->CheckUnchanged().ok());
  absl::StatusOr<Record> start = read->Probe(Position{});
  ASSERT_TRUE(start.ok()) << start.status();
  EXPECT_EQ(*start, (Record{Value::kDraw, 9, 0}));
}

TEST(InMemoryTest, ATableBiggerThanTheMemoryIsRefusedBeforeItIsRead) {
  // A full table of 6x6 gravity (6e11 indices, 1.4 TB): a header and holes.
  const GameSpec spec{6, 6, 4, /*gravity=*/true};
  const PositionIndex index(*Game::Create(spec));
  TableHeader header =
      TableHeader::For(spec, TableLayout::Full(), index.size(), 1);
  header.data.full.values_offset = kTableHeaderSize;
  header.data.full.details_offset =
      kTableHeaderSize + RecordView::ValueBytes(index.size());
  uint8_t bytes[kTableHeaderSize];
  header.Encode(bytes);
  const std::string path = TempPath("huge.mnk");
  WriteFile(path, std::string(reinterpret_cast<char*>(bytes), sizeof(bytes)));
  ASSERT_EQ(truncate(path.c_str(), TableFileSize(index.size())), 0);
  absl::StatusOr<Table> table =
      Table::Load(path, spec, Table::Placement::kInMemory);
  EXPECT_EQ(table.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(table.status().message().find("not enough memory to load " + path),
            std::string::npos)
      << table.status();
}

TEST_F(TableTest, ProbeRejectsImpossibleRecords) {
  RecordArrays records = FakeRecords(index_);
  // X in the centre: best move onto the occupied centre.
  const Position p = *game_.Parse(".../.X./...");
  records.Set(index_.Index(p), {Value::kDraw, 8, 4});
  absl::StatusOr<Table> table =
      Table::FromBytes(SerializeTable(game_.spec(), records.view(), 1));
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->Probe(p).status().code(), absl::StatusCode::kDataLoss);
  records.Set(index_.Index(p), {Value::kUnreachable, 0, kNoMove});
  table = Table::FromBytes(SerializeTable(game_.spec(), records.view(), 1));
  EXPECT_EQ(table->Probe(p).status().code(), absl::StatusCode::kNotFound);
}

void ExpectError(absl::StatusOr<Table> table, absl::StatusCode code,
                 absl::string_view message_part) {
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), code) << table.status();
  EXPECT_NE(table.status().message().find(message_part), std::string::npos)
      << table.status();
}

TEST_F(TableTest, EachKindOfDamageHasItsOwnError) {
  ExpectError(Table::FromBytes(""), absl::StatusCode::kDataLoss, "is empty");
  ExpectError(Table::FromBytes("GIF89a" + bytes_.substr(6)),
              absl::StatusCode::kDataLoss, "not a table file");
  ExpectError(Table::FromBytes(bytes_.substr(0, 40)),
              absl::StatusCode::kDataLoss, "shorter than the 68-byte header");
  ExpectError(Table::FromBytes(bytes_.substr(0, bytes_.size() - 1)),
              absl::StatusCode::kDataLoss, "truncated: 13687 bytes");
  ExpectError(Table::FromBytes(bytes_ + "x"), absl::StatusCode::kDataLoss,
              "too long");
  std::string version = bytes_;
  version[8] = 1;  // an older table
  ExpectError(Table::FromBytes(version), absl::StatusCode::kFailedPrecondition,
              "format version 1; this program reads version 3: solve the "
              "game again");
  version[8] = 2;  // the last one without page checksums
  ExpectError(Table::FromBytes(version), absl::StatusCode::kFailedPrecondition,
              "format version 2; this program reads version 3: solve the "
              "game again");
  version[8] = 4;  // a newer one
  ExpectError(Table::FromBytes(version), absl::StatusCode::kFailedPrecondition,
              "format version 4; this program reads version 3");
  std::string flipped = bytes_;
  flipped[5000] ^= 0x10;
  ExpectError(Table::FromBytes(flipped), absl::StatusCode::kDataLoss,
              "checksum");
  std::string header = bytes_;
  header[14] = 7;  // k = 7 on a 3x3 board
  ExpectError(Table::FromBytes(header), absl::StatusCode::kDataLoss,
              "corrupt header");
  ExpectError(Table::FromBytes(bytes_, GameSpec{4, 4, 4}),
              absl::StatusCode::kFailedPrecondition,
              "a table for 3,3,3, not for the game asked for, 4,4,4");
}

// A book is complete only with flag bit 3 (solve --layout=book writes it),
// which no other layout may carry (nor bit 4, a book's keys packed, which
// every book written has); tables are complete.
TEST_F(TableTest, OnlyABookMayBeComplete) {
  EXPECT_TRUE(Table::FromBytes(bytes_)->complete());
  BookEntries book;  // the empty board alone: a draw in 9
  book.keys = {0};
  book.records = {RecordArrays::Details(Value::kDraw, 9)};
  EXPECT_FALSE(
      Table::FromBytes(SerializeBookTable({3, 3, 3}, book))->complete());
  book.complete = true;
  const std::string complete = SerializeBookTable({3, 3, 3}, book);
  EXPECT_EQ(complete[15], 8 | 16);
  EXPECT_TRUE(Table::FromBytes(complete)->complete());
  for (const char flag : {8, 16}) {
    std::string flagged = bytes_;
    flagged[15] |= flag;
    ExpectError(Table::FromBytes(flagged), absl::StatusCode::kDataLoss,
                "corrupt header");
  }
}

TEST_F(TableTest, EveryTruncationAndEveryFlippedByteIsRefused) {
  for (size_t n = 0; n < bytes_.size(); ++n) {
    ASSERT_FALSE(Table::FromBytes(bytes_.substr(0, n)).ok()) << n;
  }
  for (size_t i = 0; i < bytes_.size(); ++i) {
    std::string damaged = bytes_;
    damaged[i] ^= 0x01;
    ASSERT_FALSE(Table::FromBytes(damaged).ok()) << i;
  }
}

// A table over 1 MiB is mapped and checked page by page as probes read it:
// a damaged page is refused when read, the others still answer, and
// CheckAll finds it.
TEST(BigTableTest, DamagedPagesAreFoundWhenRead) {
  const Game game = *Game::Create({5, 3, 3});
  const PositionIndex index(game);
  RecordArrays records(index.size());
  const Position damaged = *game.Parse("X..../...../.....");
  const Position sound = *game.Parse("XXOO./OOXX./.....");
  for (const Position& p : {damaged, sound}) {
    records.Set(index.Index(p), {Value::kWin, 3, 10});
  }
  std::string bytes = SerializeTable(game.spec(), records.view(), 2);
  ASSERT_GT(bytes.size(), uint64_t{4} << 20);
  const uint64_t values = RecordView::ValueBytes(index.size());
  const uint64_t at = 64 + values + 2 * index.Index(damaged) + 1;  // move
  ASSERT_NE(at / kPageBytes,
            (64 + values + 2 * index.Index(sound)) / kPageBytes);
  bytes[at] = 11;  // another legal move: only the checksum tells
  const std::string path = TempPath("big.mnk");
  WriteFile(path, bytes);
  for (const Table::Placement placement :
       {Table::Placement::kMapped, Table::Placement::kInMemory}) {
    SCOPED_TRACE(static_cast<int>(placement));
    absl::StatusOr<Table> table = Table::Load(path, std::nullopt, placement);
    ASSERT_TRUE(table.ok()) << table.status();
    absl::StatusOr<Record> good = table->Probe(sound);
    ASSERT_TRUE(good.ok()) << good.status();
    EXPECT_EQ(*good, (Record{Value::kWin, 3, 10}));
    const std::string message =
        absl::StrCat(path, " is corrupt: page ", at / kPageBytes, " (bytes ",
                     at / kPageBytes * kPageBytes, " to ",
                     (at / kPageBytes + 1) * kPageBytes - 1,
                     ") fails its checksum; verify checks the whole file");
    absl::StatusOr<Record> bad = table->Probe(damaged);
    EXPECT_EQ(bad.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_EQ(bad.status().message(), message);
    EXPECT_EQ(table->ValueOf(damaged), Value::kUnreachable);
    EXPECT_EQ(table->CheckAll().code(), absl::StatusCode::kDataLoss);
    // The file's own checksum is checked first by CheckAll.
    EXPECT_NE(table->CheckAll().message().find("checksum 0x"),
              std::string::npos)
        << table->CheckAll();
  }
}

TEST_F(TableTest, FileSystemErrors) {
  ExpectError(Table::Load(TempPath("missing.mnk")), absl::StatusCode::kNotFound,
              "No such file");
  ExpectError(Table::Load(getenv("TEST_TMPDIR")),
              absl::StatusCode::kFailedPrecondition, "is a directory");
  // Unreadable: checked as an unprivileged user, since root reads anything.
  const std::string path = TempPath("unreadable.mnk");
  WriteFile(path, bytes_);
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  const pid_t child = fork();
  if (child == 0) {
    if (geteuid() == 0 && setuid(65534) != 0) _exit(100);
    _exit(static_cast<int>(Table::Load(path).status().code()));
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status),
            static_cast<int>(absl::StatusCode::kPermissionDenied));
}

TEST_F(TableTest, WriteFailureLeavesTargetAlone) {
  const std::string path = TempPath("no_such_dir/table.mnk");
  const absl::Status status =
      WriteTable(path, game_.spec(), records_.view(), 7);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
}

// Sections fetched one at a time give the bytes of sections held in
// memory; a section that cannot be had, or has the wrong size, ends the
// write with its error and leaves no file, temporary or not.
TEST(CompressedWriteTest, SectionsFetchedOneAtATime) {
  const GameSpec spec{3, 3, 3};
  const std::vector<std::string> held = {"values", "more values", "moves",
                                         "and moves"};
  const std::string path = TempPath("fetched.mnk");
  std::vector<size_t> asked;
  SectionSource source = SectionSource::Of(held);
  const SectionSource::Fetch from_memory = source.fetch;
  source.fetch = [&](size_t s) {
    asked.push_back(s);
    return from_memory(s);
  };
  ASSERT_TRUE(WriteCompressedTable(path, spec, source, 5, false).ok());
  EXPECT_EQ(asked, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(ReadFile(path), SerializeCompressedTable(spec, held, 5, false));
  EXPECT_EQ(CompressedTableFileSize(source.sizes), ReadFile(path).size());

  const std::string other = TempPath("fetch_fails/t.mnk");
  mkdir(TempPath("fetch_fails").c_str(), 0755);
  source.fetch = [&](size_t s) -> absl::StatusOr<absl::string_view> {
    if (s == 2) return absl::DataLossError("S02 is lost");
    return from_memory(s);
  };
  absl::Status status = WriteCompressedTable(other, spec, source, 5, false);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_EQ(status.message(), "S02 is lost");
  source.fetch = [&](size_t s) -> absl::StatusOr<absl::string_view> {
    return s == 3 ? absl::string_view("and moves!") : from_memory(s);
  };
  status = WriteCompressedTable(other, spec, source, 5, false);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_EQ(status.message(), "section 3 holds 10 bytes, expected 9");
  struct stat st;
  EXPECT_NE(stat(other.c_str(), &st), 0);
  EXPECT_EQ(ReadFile(path), SerializeCompressedTable(spec, held, 5, false));
  // Nothing else in the folder: no temporary file left behind.
  EXPECT_EQ(*ListDirectory(TempPath("fetch_fails")),
            std::vector<std::string>{});
}

}  // namespace
}  // namespace mnk

namespace mnk {
namespace {

// Misère is flags bit 1 of the header (table.h); a table is refused when
// asked for as the other variant, with both games named.
TEST(TableHeaderTest, MisereIsInTheHeaderAndChecked) {
  const GameSpec misere{3, 3, 3, false, true};
  const PositionIndex index(*Game::Create(misere));
  RecordArrays records(index.size());
  const std::string bytes = SerializeTable(misere, records.view(), 0);
  EXPECT_EQ(bytes[15], 2);
  absl::StatusOr<Table> table = Table::FromBytes(bytes);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(table->game().spec().misere);
  absl::StatusOr<Table> normal = Table::FromBytes(bytes, GameSpec{3, 3, 3});
  EXPECT_EQ(normal.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(normal.status().message(),
            "table is a table for 3,3,3 mis\xc3\xa8re, not for the game "
            "asked for, 3,3,3");
  // A normal table has flags 0, as before misère existed.
  const std::string plain = SerializeTable(GameSpec{}, records.view(), 0);
  EXPECT_EQ(plain[15], 0);
}

}  // namespace
}  // namespace mnk

namespace mnk {
namespace {

// Header errors name the field that is wrong (table.h draws the offsets).
TEST(TableHeaderTest, ErrorsNameTheField) {
  const GameSpec spec;
  const PositionIndex index(*Game::Create(spec));
  RecordArrays records(index.size());
  std::string bytes = SerializeTable(spec, records.view(), 0);
  std::string entries = bytes;
  entries[24] = 1;  // 6046 = 0x179e: now 0x1701
  absl::StatusOr<Table> t = Table::FromBytes(entries);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(t.status().message(),
            "table has a corrupt header: 5889 entries (byte 24) for game "
            "3,3,3, expected 6046");
  std::string reachable = bytes;
  reachable[39] = 1;
  EXPECT_NE(Table::FromBytes(reachable).status().message().find(
                "reachable positions (byte 32)"),
            std::string::npos);
  std::string section = bytes;
  section[48] = 0;
  EXPECT_NE(Table::FromBytes(section).status().message().find(
                "section offset 1 (byte 48)"),
            std::string::npos);
}

// A book written before its keys were packed (8 bytes each; no flag bit 4:
// solve --layout=book of tic-tac-toe) is read as the same book packed.
TEST(BookKeysInFileTest, UnpackedKeysReadAsPacked) {
  const absl::StatusOr<Table> unpacked =
      Table::Load(std::string(std::getenv("TEST_SRCDIR")) +
                      "/mnk/table/testdata/ttt_book_unpacked.mnk",
                  GameSpec{3, 3, 3});
  ASSERT_TRUE(unpacked.ok()) << unpacked.status();
  const BookReader& old = *unpacked->book();
  ASSERT_EQ(old.size(), 627u);
  BookEntries entries;
  entries.complete = true;
  for (uint64_t i = 0; i < old.size(); ++i) {
    entries.keys.push_back(old.Key(i));
    entries.records.push_back(old.RecordByte(i));
  }
  const std::string bytes = SerializeBookTable({3, 3, 3}, entries);
  EXPECT_EQ(bytes.size(), 1478u);  // 5,719 unpacked
  EXPECT_EQ(bytes.size(), BookTableFileSize(entries.keys));
  const absl::StatusOr<Table> table = Table::FromBytes(bytes);
  ASSERT_TRUE(table.ok()) << table.status();
  const BookReader& packed = *table->book();
  for (uint64_t i = 0; i < old.size(); ++i) {
    ASSERT_EQ(packed.Key(i), old.Key(i)) << i;
  }
  int held = 0;
  for (uint64_t i = 0; i < table->index().size(); ++i) {
    const Position p = table->index().At(i);
    const std::optional<BookEntry> a = old.Find(p), b = packed.Find(p);
    ASSERT_EQ(a.has_value(), b.has_value()) << i;
    if (!a.has_value()) continue;
    ++held;
    EXPECT_EQ(a->value, b->value) << i;
    EXPECT_EQ(a->remoteness, b->remoteness) << i;
    EXPECT_EQ(*unpacked->Probe(p), *table->Probe(p)) << i;
  }
  EXPECT_EQ(held, 4520);  // every position in play, either mirror image
}

}  // namespace
}  // namespace mnk
