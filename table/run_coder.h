// Compressed sequences of small symbols with O(1) random access, for table
// sections in which most entries are "don't care" (positions no probe
// reads: unreachable indices, positions that are not the canonical member
// of their symmetry class). Don't-cares extend the run before them, so a
// sequence costs about one Huffman-coded run per change of symbol among the
// entries that matter.
//
//   std::vector<uint8_t> symbols = ...;  // values < alphabet, or kDontCare
//   std::string bytes = mnk::EncodeRuns(symbols, /*alphabet=*/3, 512);
//   absl::StatusOr<mnk::RunReader> r = mnk::RunReader::Open(bytes);
//   r->Get(i);  // == symbols[i] wherever symbols[i] != kDontCare
//
// A run is `length` equal symbols. Its code is the canonical Huffman code
// (at most kMaxCodeBits bits, written most significant bit first) of the
// pair (d, l): d = (symbol - previous run's symbol) mod A (the first run
// of a block counts from symbol 0), l = the length code. Lengths 1 to 16
// have codes 0 to 15; a longer run has code 12 + floor(log2(length)) and
// is followed by the floor(log2(length)) low bits of its length as they
// are. Runs never cross a block of `block_entries` entries, and each block
// starts on a byte, so Get(i) reads one offset and decodes the runs of one
// block up to entry i.
//
// Bytes, all integers little-endian:
//   offset  size   field
//   0       4      alphabet A (1..64)
//   4       4      block_entries B (1..65536)
//   8       8      entries N
//   16      A*K    code length in bits of pair (d, l) at byte 16 + d*K + l
//                  (0: the pair never occurs), K = kLengthCodes
//   ..      4*nb   byte offset of each block in the stream, nb = ceil(N/B)
//   ..      S      the stream, then 8 zero bytes (a reader loads 8 at once)
#ifndef MNK_TABLE_RUN_CODER_H_
#define MNK_TABLE_RUN_CODER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "table/page_checks.h"

namespace mnk {

inline constexpr uint8_t kDontCare = 0xff;
inline constexpr int kMaxAlphabet = 64;
inline constexpr int kLengthCodes = 29;  // runs of 1 .. 2^17 - 1 entries
inline constexpr int kMaxBlockEntries = 1 << 16;
inline constexpr int kMaxCodeBits = 24;

// Encodes `symbols` (each < alphabet or kDontCare). Deterministic: the
// same input always gives the same bytes.
std::string EncodeRuns(const std::vector<uint8_t>& symbols, int alphabet,
                       int block_entries);

namespace run_coder_internal {
struct Run {
  uint8_t symbol;
  uint32_t length;
};
}  // namespace run_coder_internal

// EncodeRuns in pieces, for sequences too long to hold at once: every piece
// is given twice, in order, first to Count() (the code is built from the
// runs' frequencies), then to Write(); Finish(), called once, gives the
// same bytes as EncodeRuns of the whole sequence and lets go of the
// encoder's stream.
//
//   mnk::RunEncoder e(/*alphabet=*/3, /*block_entries=*/128);
//   for (piece : pieces) e.Count(piece.data(), piece.size());
//   for (piece : pieces) e.Write(piece.data(), piece.size());
//   std::string bytes = e.Finish();
class RunEncoder {
 public:
  RunEncoder(int alphabet, int block_entries);
  void Count(const uint8_t* symbols, size_t n);
  void Write(const uint8_t* symbols, size_t n);
  std::string Finish();
  // False when a block starts past 4 GiB of stream, where its 32-bit offset
  // no longer holds it: the bytes Finish() gives are then wrong and must
  // not be written.
  bool fits() const { return !too_long_; }

 private:
  using Run = run_coder_internal::Run;
  void StartWriting();
  void Feed(const uint8_t* symbols, size_t n);
  void Block(const uint8_t* symbols, size_t n);

  int alphabet_, block_entries_;
  uint64_t counted_ = 0, written_ = 0;
  bool writing_ = false;
  bool too_long_ = false;
  std::vector<uint8_t> pending_;  // the start of a block, fed so far
  std::vector<uint64_t> freq_;    // of each pair (d, l)
  std::vector<uint8_t> lengths_;
  std::vector<uint32_t> codes_;
  std::vector<uint32_t> offsets_;  // of each block in stream_
  std::string stream_;
  std::vector<Run> runs_;  // scratch
};

class RunReader {
 public:
  // Checks the header, the code lengths (a complete prefix code) and the
  // size, not the block offsets: Open reads a few kilobytes whatever the
  // section's size, and Get checks the offsets it reads. kDataLoss naming
  // what is wrong. With `checks` (pages of the file holding `bytes`), every
  // byte read is first checked against its page's checksum. `bytes` and
  // `checks` must outlive the reader.
  static absl::StatusOr<RunReader> Open(absl::string_view bytes,
                                        const PageChecks* checks = nullptr);

  uint64_t size() const { return entries_; }
  // The symbol of entry i < size(): whatever the run covering it holds (for
  // a don't-care, some symbol of the alphabet); -1 when the block's
  // offsets or stream are corrupt or fail their page's checksum (never a
  // read outside the section).
  int Get(uint64_t i) const;
  // Hints that Get(i) comes soon, for a caller about to read many entries:
  // Prefetch(i) starts loading i's block offset; PrefetchStream(i), called
  // once the offsets of the others have been asked for too, reads it and
  // starts loading the block's first bytes. Their cache misses then
  // overlap instead of coming one after another. Nothing is checked and
  // nothing is returned: a corrupt offset only makes a useless hint.
  void Prefetch(uint64_t i) const {
    __builtin_prefetch(offsets_ + 4 * (i / block_entries_));
  }
  void PrefetchStream(uint64_t i) const;
  // Entries [begin, end) into out[0 .. end - begin), a block at a time
  // (much faster than Get on each); false when a block is corrupt or fails
  // its page's checksum.
  bool Decode(uint64_t begin, uint64_t end, uint8_t* out) const;

 private:
  RunReader() = default;
  // The canonical Huffman tables from the code length of each of the
  // `pairs` symbols; kDataLoss for lengths no code can have.
  absl::Status BuildCodes(const uint8_t* lengths, uint64_t pairs);
  // Decodes block `block`'s runs in order, calling on_run(symbol, length)
  // until it returns false (true then) or the block ends; false when the
  // block is corrupt.
  template <typename OnRun>
  bool ForEachRun(uint64_t block, OnRun on_run) const;
  const uint8_t* stream_ = nullptr;
  const uint8_t* offsets_ = nullptr;  // 4 bytes a block
  const PageChecks* checks_ = nullptr;
  uint64_t stream_bytes_ = 0;  // without the padding
  uint64_t entries_ = 0;
  uint32_t alphabet_ = 0;
  uint32_t block_entries_ = 0;
  // Canonical decoding: codes of `bits` bits are first_[bits] ..
  // first_[bits] + count_[bits] - 1, naming pairs_[index_[bits] + ...].
  uint32_t first_[kMaxCodeBits + 2] = {};
  uint32_t count_[kMaxCodeBits + 2] = {};
  uint32_t index_[kMaxCodeBits + 2] = {};
  std::vector<uint16_t> pairs_;  // d * kLengthCodes + l, by code
  // The first kFastBits bits of a stream position to (pair << 5 | bits)
  // for codes of at most kFastBits bits; 0 otherwise.
  static constexpr int kFastBits = 11;
  std::vector<uint32_t> fast_;
};

}  // namespace mnk

#endif  // MNK_TABLE_RUN_CODER_H_
