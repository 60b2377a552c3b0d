// File helpers written once for the table files, the solver's work dir and
// the server: a little-endian codec, an atomic writer, a whole-file reader
// and a directory lister. Errors are absl::Status, errno mapped by
// absl::ErrnoToStatus, with a message naming the file.
//
//   uint8_t word[8];
//   mnk::PutLittleEndian(word, 6046, 8);    // 9e 17 00 00 00 00 00 00
//   mnk::GetLittleEndian(word, 8);          // 6046
//   absl::Status s = mnk::WriteAtomically("t.mnk", {bytes});
//   absl::StatusOr<std::string> b = mnk::ReadWholeFile("L00-T000000.tier");
//   absl::StatusOr<std::vector<std::string>> names = mnk::ListDirectory(".");
#ifndef MNK_TABLE_FILE_IO_H_
#define MNK_TABLE_FILE_IO_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mnk {

// `bytes` bytes of `value`, lowest first; and back. Inline: the run
// coder's reads of block offsets are on every probe's path.
inline void PutLittleEndian(void* out, uint64_t value, int bytes) {
  uint8_t* p = static_cast<uint8_t*>(out);
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(value >> 8 * i);
}
inline uint64_t GetLittleEndian(const void* in, int bytes) {
  const uint8_t* p = static_cast<const uint8_t*>(in);
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = value << 8 | p[i];
  return value;
}

// Checks, before a long job, that a file can be written to `path`:
// kFailedPrecondition when it names a directory or an existing file that is
// not a regular one (a device, FIFO, socket or symbolic link: never
// replaced); the errno's code when its folder is missing or not writable.
absl::Status CheckWriteTarget(const std::string& path);

// How WriteAtomically guards a file.
struct AtomicWriteOptions {
  // fsync() before the rename: the file survives a crash whole. Files
  // that carry their own checksum and are made again when damaged (a work
  // dir's tiers) may skip it.
  bool sync = true;
  // Temporary files of earlier writes to the same path that were killed
  // are removed first (a live writer holds a lock on its own), and
  // RemovePendingTempFile() removes this write's. Off for files written
  // many times a second into one folder, whose owner tidies it.
  bool tidy = true;
};

// Something that writes a file's bytes in pieces through `emit`: an error
// (a piece it could not make) abandons the file.
using Emitter = std::function<absl::Status(
    const std::function<void(const void* data, size_t size)>& emit)>;

// Writes what `emit_all` emits to `path` without ever leaving a partial
// file there: the bytes go to a temporary file beside it (PATH.tmp-XXXXXX,
// the name cut to fit), locked while written, then renamed over `path`. On
// failure the temporary file is removed and `path` is untouched. An
// existing file keeps its mode and (where allowed) owner; a new one gets
// 0666 less the umask. Refuses what CheckWriteTarget refuses; an error of
// `emit_all` is returned as it is, nothing left behind.
absl::Status WriteAtomically(const std::string& path, const Emitter& emit_all,
                             AtomicWriteOptions options = {});
absl::Status WriteAtomically(const std::string& path,
                             std::initializer_list<absl::string_view> parts,
                             AtomicWriteOptions options = {});

// Whether `name` (no folder) is a temporary file of WriteAtomically.
bool IsAtomicWriteTemp(absl::string_view name);

// Removes the temporary file of a write in progress, if any: for a SIGINT
// or SIGTERM handler (async-signal-safe), before the program exits.
void RemovePendingTempFile();

// The whole of a regular file, opened without waiting for a FIFO's writer,
// and without following a symbolic link unless `follow_links`. kNotFound
// when it does not exist, kFailedPrecondition for a symbolic link not
// followed or anything but a regular file, else the errno's code.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path,
                                          bool follow_links = false);

// The names in `dir` (not "." or ".."), sorted.
absl::StatusOr<std::vector<std::string>> ListDirectory(const std::string& dir);

}  // namespace mnk

#endif  // MNK_TABLE_FILE_IO_H_
