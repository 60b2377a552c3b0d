// A perfect player never says something false, even from a damaged table:
// single-bit flips in every region of tables that are checked page by page
// (full, compact, compressed with and without remoteness), each followed by
// probes of random reachable positions compared with the intact table. A
// probe may fail, with kDataLoss naming the page; it never succeeds with a
// record the intact table does not give.
//
// Tables over 1 MiB are checked page by page as they are read; the small
// 4x4 gravity tables here are made to take that path too
// (Table::FromBytes's check_whole_below), and one real table over 1 MiB
// (5x4 gravity, full) takes it as it is.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "solver/retrograde/solver.h"
#include "store/write.h"
#include "table/page_checks.h"
#include "table/table.h"

namespace mnk {
namespace {

constexpr int kFlips = 500;
constexpr int kProbesPerFlip = 400;

struct Counts {
  int refused_at_load = 0;
  int probes_failed = 0;  // kDataLoss, as they should
  int probes_answered = 0;
  int wrong = 0;  // answered, and not what the intact table says
};

// The regions of a table file (table.h): header (and directory), data,
// page checksums, the whole-file checksum.
struct Regions {
  uint64_t header_end, data_end, pages_end, size;
};

Regions RegionsOf(const std::string& bytes, uint64_t header_end) {
  const uint64_t size = bytes.size();
  uint64_t data = size - 4;
  while (data + PageChecksumBytes(data) + 4 > size) --data;
  return {header_end, data, data + PageChecksumBytes(data), size};
}

// A bit to flip: a fifth of the flips in the header, a fifth in the page
// checksums, a twentieth in the last four bytes, the rest in the data.
uint64_t PickBit(const Regions& r, std::mt19937_64& rng) {
  const int region = static_cast<int>(rng() % 20);
  uint64_t begin = r.header_end, end = r.data_end;
  if (region < 4) {
    begin = 0, end = r.header_end;
  } else if (region < 8) {
    begin = r.data_end, end = r.pages_end;
  } else if (region == 8) {
    begin = r.pages_end, end = r.size;
  }
  return (begin + rng() % (end - begin)) * 8 + rng() % 8;
}

Counts FlipAndProbe(const std::string& intact_bytes, uint64_t header_end,
                    uint64_t check_whole_below,
                    const std::vector<Position>& positions, uint64_t seed) {
  absl::StatusOr<Table> intact =
      Table::FromBytes(intact_bytes, {}, "intact", check_whole_below);
  EXPECT_TRUE(intact.ok()) << intact.status();
  const Regions regions = RegionsOf(intact_bytes, header_end);
  std::mt19937_64 rng(seed);
  Counts counts;
  for (int flip = 0; flip < kFlips; ++flip) {
    std::string bytes = intact_bytes;
    const uint64_t bit = PickBit(regions, rng);
    bytes[bit / 8] ^= static_cast<char>(1 << bit % 8);
    absl::StatusOr<Table> damaged =
        Table::FromBytes(std::move(bytes), {}, "damaged", check_whole_below);
    if (!damaged.ok()) {
      ++counts.refused_at_load;
      continue;
    }
    for (int i = 0; i < kProbesPerFlip; ++i) {
      const Position& p = positions[rng() % positions.size()];
      const absl::StatusOr<Record> want = intact->Probe(p);
      const absl::StatusOr<Record> got = damaged->Probe(p);
      if (!got.ok()) {
        EXPECT_EQ(got.status().code(), absl::StatusCode::kDataLoss)
            << got.status();
        EXPECT_TRUE(absl::StrContains(got.status().message(), "damaged") ||
                    absl::StrContains(got.status().message(), "page"))
            << got.status();
        ++counts.probes_failed;
        continue;
      }
      ++counts.probes_answered;
      if (got->value != want->value || got->remoteness != want->remoteness ||
          got->best_move != want->best_move) {
        ++counts.wrong;
        ADD_FAILURE() << "bit " << bit << ": " << damaged->game().Format(p)
                      << " answered " << ValueName(got->value) << " in "
                      << got->remoteness << " move " << got->best_move
                      << ", intact: " << ValueName(want->value) << " in "
                      << want->remoteness << " move " << want->best_move;
      }
    }
  }
  return counts;
}

std::vector<Position> Reachable(const Solution& s) {
  std::vector<Position> positions;
  const RecordView records = s.records().view();
  for (uint64_t i = 0; i < records.size; ++i) {
    if (records.GetValue(i) != Value::kUnreachable) {
      positions.push_back(s.index.At(i));
    }
  }
  return positions;
}

void Report(const char* table, const Counts& c) {
  std::fprintf(stderr,
               "%s: %d flips, %d refused at load; %d probes failed "
               "(kDataLoss), %d answered, %d wrong\n",
               table, kFlips, c.refused_at_load, c.probes_failed,
               c.probes_answered, c.wrong);
}

// A solved board and its reachable positions, solved once for the tests.
struct Board {
  explicit Board(const GameSpec& spec)
      : game(*Game::Create(spec)),
        full(*Solve(game, {})),
        positions(Reachable(full)) {}
  Game game;
  Solution full;
  std::vector<Position> positions;
};

const Board& FourByFour() {
  static const Board* board = new Board({4, 4, 4, /*gravity=*/true});
  return *board;
}
const Board& FiveByFour() {
  static const Board* board = new Board({5, 4, 4, /*gravity=*/true});
  return *board;
}

TEST(DamagedTableTest, FullLayout) {
  const Board& b = FourByFour();
  const std::string bytes = SerializeTable(
      b.game.spec(), b.full.records().view(), b.full.stats.reachable);
  const Counts c = FlipAndProbe(bytes, kTableHeaderSize, 0, b.positions, 1);
  Report("4x4k4g full", c);
  EXPECT_EQ(c.wrong, 0);
  EXPECT_GT(c.probes_failed, 0);
}

TEST(DamagedTableTest, CompactLayout) {
  const Board& b = FourByFour();
  SolveOptions options;
  options.layout = TableLayout::Compact();
  absl::StatusOr<Solution> compact = Solve(b.game, options);
  ASSERT_TRUE(compact.ok());
  const std::string bytes = SerializeCompactTable(
      b.game.spec(), compact->compact(), compact->stats.reachable);
  const Counts c = FlipAndProbe(bytes, kTableHeaderSize, 0, b.positions, 2);
  Report("4x4k4g compact", c);
  EXPECT_EQ(c.wrong, 0);
  EXPECT_GT(c.probes_failed, 0);
}

// 5x4 gravity: on smaller boards a compressed table is nearly all section
// headers, read (and checked) when it is opened.
TEST(DamagedTableTest, CompressedLayout) {
  const Board& b = FiveByFour();
  for (bool remoteness : {true, false}) {
    const std::string bytes = SerializeCompressedTable(
        b.game, b.full.records().view(), b.full.stats.reachable, remoteness);
    // The header and the section directory: 16 bytes a section, their
    // number at byte 48 (table.h).
    uint64_t sections = 0;
    for (int i = 7; i >= 0; --i) {
      sections = sections << 8 | static_cast<uint8_t>(bytes[48 + i]);
    }
    const Counts c = FlipAndProbe(bytes, kTableHeaderSize + 16 * sections, 0,
                                  b.positions, remoteness ? 3 : 4);
    Report(
        remoteness ? "5x4k4g compressed" : "5x4k4g compressed, no remoteness",
        c);
    EXPECT_EQ(c.wrong, 0);
    EXPECT_GT(c.probes_failed, 0);
  }
}

// A real table over 1 MiB, checked page by page as Load does.
TEST(DamagedTableTest, FullLayoutOver1MiB) {
  const Board& b = FiveByFour();
  const std::string bytes = SerializeTable(
      b.game.spec(), b.full.records().view(), b.full.stats.reachable);
  ASSERT_GT(bytes.size(), Table::kCheckWholeBelow);
  const Counts c = FlipAndProbe(bytes, kTableHeaderSize,
                                Table::kCheckWholeBelow, b.positions, 5);
  Report("5x4k4g full (12 MB)", c);
  EXPECT_EQ(c.wrong, 0);
}

}  // namespace
}  // namespace mnk
