#include "store/write.h"

#include <algorithm>
#include <cassert>
#include <functional>

#include "absl/strings/str_cat.h"
#include "table/book_keys.h"
#include "table/compressed.h"
#include "table/file_io.h"
#include "table/header.h"
#include "table/page_checks.h"

namespace mnk {
namespace {

using Emit = std::function<void(const void*, size_t)>;

// Emits a file in pieces: the header, the parts (part(i) for i < parts,
// each asked for once, in order), the page checksums, the checksum. An
// error of part() ends it.
absl::Status EmitTable(const TableHeader& header, size_t parts,
                       const SectionSource::Fetch& part, const Emit& emit) {
  uint8_t head[kTableHeaderSize];
  header.Encode(head);
  uint32_t crc = 0;
  PageChecksumWriter pages;
  auto put = [&](const void* data, uint64_t size, bool paged) {
    crc = Crc32(crc, data, size);
    if (paged) pages.Add(data, size);
    emit(data, size);
  };
  put(head, sizeof(head), true);
  for (size_t i = 0; i < parts; ++i) {
    absl::StatusOr<absl::string_view> bytes = part(i);
    if (!bytes.ok()) return bytes.status();
    put(bytes->data(), bytes->size(), true);
  }
  const std::string page_checksums = pages.Finish();
  put(page_checksums.data(), page_checksums.size(), false);
  uint8_t trailer[4];
  PutLittleEndian(trailer, crc, 4);
  emit(trailer, 4);
  return absl::OkStatus();
}

// EmitTable of parts held in memory.
absl::Status EmitTable(const TableHeader& header,
                       const std::vector<absl::string_view>& parts,
                       const Emit& emit) {
  return EmitTable(
      header, parts.size(),
      [&](size_t i) -> absl::StatusOr<absl::string_view> { return parts[i]; },
      emit);
}

absl::string_view Bytes(const void* data, uint64_t size) {
  return absl::string_view(static_cast<const char*>(data), size);
}

// Layout 1: the value section, then the details.
absl::Status EmitFull(const GameSpec& spec, const RecordView& records,
                      uint64_t reachable, const Emit& emit) {
  TableHeader h =
      TableHeader::For(spec, TableLayout::Full(), records.size, reachable);
  const uint64_t values = RecordView::ValueBytes(records.size);
  h.data.full.values_offset = kTableHeaderSize;
  h.data.full.details_offset = kTableHeaderSize + values;
  return EmitTable(
      h,
      {Bytes(records.values, values), Bytes(records.details, 2 * records.size)},
      emit);
}

// Layout 2: the compact values.
absl::Status EmitCompact(const GameSpec& spec,
                         const std::vector<uint8_t>& compact,
                         uint64_t reachable, const Emit& emit) {
  const PositionIndex index(*Game::Create(spec));
  TableHeader h =
      TableHeader::For(spec, TableLayout::Compact(), index.size(), reachable);
  h.data.full.values_offset = kTableHeaderSize;
  return EmitTable(h, {Bytes(compact.data(), compact.size())}, emit);
}

// Layout 3: the directory (table.h), then the sections.
absl::Status EmitCompressed(const GameSpec& spec, const SectionSource& sections,
                            uint64_t reachable, bool remoteness,
                            const Emit& emit) {
  const size_t count = sections.sizes.size();
  std::string directory(16 * count, '\0');
  uint64_t offset = kTableHeaderSize + directory.size();
  for (size_t s = 0; s < count; ++s) {
    PutLittleEndian(&directory[16 * s], offset, 8);
    PutLittleEndian(&directory[16 * s + 8], sections.sizes[s], 8);
    offset += sections.sizes[s];
  }
  const PositionIndex index(*Game::Create(spec));
  TableHeader h = TableHeader::For(spec, TableLayout::Compressed(remoteness),
                                   index.size(), reachable);
  h.data.compressed = {kTableHeaderSize, count, offset};
  return EmitTable(
      h, count + 1,
      [&](size_t part) -> absl::StatusOr<absl::string_view> {
        if (part == 0) return absl::string_view(directory);
        absl::StatusOr<absl::string_view> bytes = sections.fetch(part - 1);
        if (bytes.ok() && bytes->size() != sections.sizes[part - 1]) {
          return absl::DataLossError(
              absl::StrCat("section ", part - 1, " holds ", bytes->size(),
                           " bytes, expected ", sections.sizes[part - 1]));
        }
        return bytes;
      },
      emit);
}

// Layout 4: the keys packed (directory, gaps), then the records.
absl::Status EmitBook(const GameSpec& spec, const BookEntries& book,
                      const Emit& emit) {
  assert(book.keys.size() == book.records.size());
  assert(std::is_sorted(book.keys.begin(), book.keys.end()));
  const uint64_t n = book.keys.size();
  const BookKeySections keys = PackBookKeys(book.keys);
  const PositionIndex index(*Game::Create(spec));
  TableHeader h = TableHeader::For(spec, TableLayout::Book(), index.size(), n);
  h.flags |= TableHeader::kFlagPackedKeys;
  if (book.complete) h.flags |= TableHeader::kFlagComplete;
  const uint64_t gaps = kTableHeaderSize + keys.directory.size();
  h.data.book = {kTableHeaderSize, gaps, gaps + keys.gaps.size()};
  return EmitTable(
      h, {keys.directory, keys.gaps, Bytes(book.records.data(), n)}, emit);
}

// The bytes an emitter gives (of parts in memory: it cannot fail).
std::string Collect(const std::function<absl::Status(const Emit&)>& emit_all) {
  std::string bytes;
  const absl::Status s = emit_all([&](const void* data, size_t size) {
    bytes.append(static_cast<const char*>(data), size);
  });
  assert(s.ok());
  (void)s;
  return bytes;
}

}  // namespace

uint64_t TableFileSize(uint64_t entries) {
  return TableFileBytes(kTableHeaderSize + RecordView::ValueBytes(entries) +
                        2 * entries);
}

uint64_t CompactTableFileSize(const PositionIndex& index) {
  return TableFileBytes(kTableHeaderSize + CompactLayout(index).bytes());
}

SectionSource SectionSource::Of(const std::vector<std::string>& sections) {
  SectionSource source;
  for (const std::string& section : sections) {
    source.sizes.push_back(section.size());
  }
  source.fetch = [&sections](size_t s) -> absl::StatusOr<absl::string_view> {
    return absl::string_view(sections[s]);
  };
  return source;
}

uint64_t CompressedTableFileSize(const std::vector<uint64_t>& sizes) {
  uint64_t data = kTableHeaderSize + 16 * sizes.size();
  for (const uint64_t size : sizes) data += size;
  return TableFileBytes(data);
}

uint64_t CompressedTableFileSize(const std::vector<std::string>& sections) {
  return CompressedTableFileSize(SectionSource::Of(sections).sizes);
}

uint64_t BookTableFileSize(const std::vector<uint64_t>& keys) {
  return TableFileBytes(kTableHeaderSize + PackedBookKeyBytes(keys) +
                        keys.size());
}

std::string SerializeTable(const GameSpec& spec, const RecordView& records,
                           uint64_t reachable) {
  return Collect([&](const Emit& emit) {
    return EmitFull(spec, records, reachable, emit);
  });
}

std::string SerializeCompactTable(const GameSpec& spec,
                                  const std::vector<uint8_t>& compact,
                                  uint64_t reachable) {
  return Collect([&](const Emit& emit) {
    return EmitCompact(spec, compact, reachable, emit);
  });
}

std::string SerializeCompressedTable(const GameSpec& spec,
                                     const std::vector<std::string>& sections,
                                     uint64_t reachable, bool remoteness) {
  return Collect([&](const Emit& emit) {
    return EmitCompressed(spec, SectionSource::Of(sections), reachable,
                          remoteness, emit);
  });
}

std::string SerializeCompressedTable(const Game& game,
                                     const RecordView& records,
                                     uint64_t reachable, bool remoteness) {
  return SerializeCompressedTable(
      game.spec(),
      CompressSections(game, PositionIndex(game), records, remoteness),
      reachable, remoteness);
}

std::string SerializeBookTable(const GameSpec& spec, const BookEntries& book) {
  return Collect([&](const Emit& emit) { return EmitBook(spec, book, emit); });
}

absl::Status CheckTableTarget(const std::string& path) {
  return CheckWriteTarget(path);
}

absl::Status WriteTable(const std::string& path, const GameSpec& spec,
                        const RecordView& records, uint64_t reachable) {
  return WriteAtomically(path, [&](const Emit& emit) {
    return EmitFull(spec, records, reachable, emit);
  });
}

absl::Status WriteCompactTable(const std::string& path, const GameSpec& spec,
                               const std::vector<uint8_t>& compact,
                               uint64_t reachable) {
  return WriteAtomically(path, [&](const Emit& emit) {
    return EmitCompact(spec, compact, reachable, emit);
  });
}

absl::Status WriteCompressedTable(const std::string& path, const GameSpec& spec,
                                  const SectionSource& sections,
                                  uint64_t reachable, bool remoteness) {
  return WriteAtomically(path, [&](const Emit& emit) {
    return EmitCompressed(spec, sections, reachable, remoteness, emit);
  });
}

absl::Status WriteBookTable(const std::string& path, const GameSpec& spec,
                            const BookEntries& book) {
  return WriteAtomically(
      path, [&](const Emit& emit) { return EmitBook(spec, book, emit); });
}

}  // namespace mnk
