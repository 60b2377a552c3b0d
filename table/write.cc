#include "table/write.h"

#include <algorithm>
#include <cassert>
#include <functional>

#include "table/compressed.h"
#include "table/file_io.h"
#include "table/header.h"
#include "table/page_checks.h"

namespace mnk {
namespace {

using Emit = std::function<void(const void*, size_t)>;

struct Section {
  const void* data;
  uint64_t size;
};

// Emits a file in pieces: the header, the sections, the page checksums,
// the checksum.
void EmitTable(const TableHeader& header, const std::vector<Section>& sections,
               const Emit& emit) {
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
  for (const Section& section : sections) {
    put(section.data, section.size, true);
  }
  const std::string page_checksums = pages.Finish();
  put(page_checksums.data(), page_checksums.size(), false);
  uint8_t trailer[4];
  PutLittleEndian(trailer, crc, 4);
  emit(trailer, 4);
}

// Layout 1: the value section, then the details.
void EmitFull(const GameSpec& spec, const RecordView& records,
              uint64_t reachable, const Emit& emit) {
  TableHeader h =
      TableHeader::For(spec, TableLayout::Full(), records.size, reachable);
  const uint64_t values = RecordView::ValueBytes(records.size);
  h.data.full.values_offset = kTableHeaderSize;
  h.data.full.details_offset = kTableHeaderSize + values;
  EmitTable(h, {{records.values, values}, {records.details, 2 * records.size}},
            emit);
}

// Layout 2: the compact values.
void EmitCompact(const GameSpec& spec, const std::vector<uint8_t>& compact,
                 uint64_t reachable, const Emit& emit) {
  const PositionIndex index(*Game::Create(spec));
  TableHeader h =
      TableHeader::For(spec, TableLayout::Compact(), index.size(), reachable);
  h.data.full.values_offset = kTableHeaderSize;
  EmitTable(h, {{compact.data(), compact.size()}}, emit);
}

// Layout 3: the directory (table.h), then the sections.
void EmitCompressed(const GameSpec& spec,
                    const std::vector<std::string>& sections,
                    uint64_t reachable, bool remoteness, const Emit& emit) {
  std::string directory(16 * sections.size(), '\0');
  std::vector<Section> all = {{directory.data(), directory.size()}};
  uint64_t offset = kTableHeaderSize + directory.size();
  for (size_t s = 0; s < sections.size(); ++s) {
    PutLittleEndian(&directory[16 * s], offset, 8);
    PutLittleEndian(&directory[16 * s + 8], sections[s].size(), 8);
    offset += sections[s].size();
    all.push_back({sections[s].data(), sections[s].size()});
  }
  const PositionIndex index(*Game::Create(spec));
  TableHeader h = TableHeader::For(spec, TableLayout::Compressed(remoteness),
                                   index.size(), reachable);
  h.data.compressed = {kTableHeaderSize, sections.size(), offset};
  EmitTable(h, all, emit);
}

// Layout 4: the keys, then the records.
void EmitBook(const GameSpec& spec, const BookEntries& book, const Emit& emit) {
  assert(book.keys.size() == book.records.size());
  assert(std::is_sorted(book.keys.begin(), book.keys.end()));
  const uint64_t n = book.keys.size();
  std::string keys(8 * n, '\0');
  for (uint64_t i = 0; i < n; ++i) {
    PutLittleEndian(&keys[8 * i], book.keys[i], 8);
  }
  const PositionIndex index(*Game::Create(spec));
  TableHeader h = TableHeader::For(spec, TableLayout::Book(), index.size(), n);
  if (book.complete) h.flags |= TableHeader::kFlagComplete;
  h.data.book = {kTableHeaderSize, kTableHeaderSize + 8 * n, 0};
  EmitTable(h, {{keys.data(), keys.size()}, {book.records.data(), n}}, emit);
}

std::string Collect(const std::function<void(const Emit&)>& emit_all) {
  std::string bytes;
  emit_all([&](const void* data, size_t size) {
    bytes.append(static_cast<const char*>(data), size);
  });
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

uint64_t CompressedTableFileSize(const std::vector<std::string>& sections) {
  uint64_t data = kTableHeaderSize + 16 * sections.size();
  for (const std::string& section : sections) data += section.size();
  return TableFileBytes(data);
}

uint64_t BookTableFileSize(uint64_t entries) {
  return TableFileBytes(kTableHeaderSize + 9 * entries);
}

std::string SerializeTable(const GameSpec& spec, const RecordView& records,
                           uint64_t reachable) {
  return Collect(
      [&](const Emit& emit) { EmitFull(spec, records, reachable, emit); });
}

std::string SerializeCompactTable(const GameSpec& spec,
                                  const std::vector<uint8_t>& compact,
                                  uint64_t reachable) {
  return Collect(
      [&](const Emit& emit) { EmitCompact(spec, compact, reachable, emit); });
}

std::string SerializeCompressedTable(const GameSpec& spec,
                                     const std::vector<std::string>& sections,
                                     uint64_t reachable, bool remoteness) {
  return Collect([&](const Emit& emit) {
    EmitCompressed(spec, sections, reachable, remoteness, emit);
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
  return Collect([&](const Emit& emit) { EmitBook(spec, book, emit); });
}

absl::Status CheckTableTarget(const std::string& path) {
  return CheckWriteTarget(path);
}

absl::Status WriteTable(const std::string& path, const GameSpec& spec,
                        const RecordView& records, uint64_t reachable) {
  return WriteAtomically(path, [&](const Emit& emit) {
    EmitFull(spec, records, reachable, emit);
  });
}

absl::Status WriteCompactTable(const std::string& path, const GameSpec& spec,
                               const std::vector<uint8_t>& compact,
                               uint64_t reachable) {
  return WriteAtomically(path, [&](const Emit& emit) {
    EmitCompact(spec, compact, reachable, emit);
  });
}

absl::Status WriteCompressedTable(const std::string& path, const GameSpec& spec,
                                  const std::vector<std::string>& sections,
                                  uint64_t reachable, bool remoteness) {
  return WriteAtomically(path, [&](const Emit& emit) {
    EmitCompressed(spec, sections, reachable, remoteness, emit);
  });
}

absl::Status WriteBookTable(const std::string& path, const GameSpec& spec,
                            const BookEntries& book) {
  return WriteAtomically(path,
                         [&](const Emit& emit) { EmitBook(spec, book, emit); });
}

}  // namespace mnk
