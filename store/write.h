// Writing table files (table/table.h draws the format; table/header.h its
// header): the whole file as bytes, or written atomically to a path, in
// each layout. Every byte is determined by the game and its records, so the
// same game always gives the same file.
//
//   absl::Status s = mnk::WriteTable("3x3k3.mnk", spec, records.view(), n);
//   std::string bytes = mnk::SerializeTable(spec, records.view(), n);
//   mnk::TableFileSize(index.size());  // 13,688 for tic-tac-toe
#ifndef MNK_STORE_WRITE_H_
#define MNK_STORE_WRITE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "table/record.h"

namespace mnk {

// The exact byte count of a full table file for `entries` indices, of a
// compact one, of a compressed one with these sections, and of a book of
// the positions of these keys (ascending).
uint64_t TableFileSize(uint64_t entries);
uint64_t CompactTableFileSize(const PositionIndex& index);
uint64_t CompressedTableFileSize(const std::vector<std::string>& sections);
uint64_t CompressedTableFileSize(const std::vector<uint64_t>& section_sizes);

// A compressed table's sections (table/compressed.h), in file order, asked
// for one at a time as the file is written: they need not all be in
// memory at once (a solve's work dir keeps them, solver/retrograde).
struct SectionSource {
  // Section s's bytes (sizes[s] of them), valid until the next call.
  using Fetch =
      std::function<absl::StatusOr<absl::string_view>(size_t section)>;
  std::vector<uint64_t> sizes;
  Fetch fetch;

  // Sections held in memory (which must outlive the source).
  static SectionSource Of(const std::vector<std::string>& sections);
};
uint64_t BookTableFileSize(const std::vector<uint64_t>& keys);

// The whole file as bytes, checksum included: full, compact, compressed
// from its sections (table/compressed.h) or from full records.
// `remoteness`: the compressed sections keep it.
std::string SerializeTable(const GameSpec& spec, const RecordView& records,
                           uint64_t reachable);
std::string SerializeCompactTable(const GameSpec& spec,
                                  const std::vector<uint8_t>& compact,
                                  uint64_t reachable);
std::string SerializeCompressedTable(const GameSpec& spec,
                                     const std::vector<std::string>& sections,
                                     uint64_t reachable, bool remoteness);
std::string SerializeCompressedTable(const Game& game,
                                     const RecordView& records,
                                     uint64_t reachable, bool remoteness);

// A book's positions (layout 4, table/table.h): the canonical index of
// each, ascending and without repeats, and its record byte (the value in
// bits 7-6, remoteness in bits 5-0).
struct BookEntries {
  std::vector<uint64_t> keys;
  std::vector<uint8_t> records;
  bool complete = false;  // every reachable position in play (the header's
                          // kFlagComplete)
};
std::string SerializeBookTable(const GameSpec& spec, const BookEntries& book);

// Checks, before a long solve, that a table can be written to `path`
// (CheckWriteTarget in table/file_io.h).
absl::Status CheckTableTarget(const std::string& path);

// The same bytes written to `path` by WriteAtomically (table/file_io.h):
// never a partial file there, synced, temporary files of killed writes
// removed; no copy of the whole file is made.
absl::Status WriteTable(const std::string& path, const GameSpec& spec,
                        const RecordView& records, uint64_t reachable);
absl::Status WriteCompactTable(const std::string& path, const GameSpec& spec,
                               const std::vector<uint8_t>& compact,
                               uint64_t reachable);
// The sections' errors end the write (no file is left). kDataLoss when a
// section's size is not the one given.
absl::Status WriteCompressedTable(const std::string& path, const GameSpec& spec,
                                  const SectionSource& sections,
                                  uint64_t reachable, bool remoteness);
absl::Status WriteBookTable(const std::string& path, const GameSpec& spec,
                            const BookEntries& book);

}  // namespace mnk

#endif  // MNK_STORE_WRITE_H_
