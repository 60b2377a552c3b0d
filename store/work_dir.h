// A solve's work dir: every solved tier kept on disk, compressed and
// checksummed, so that a killed solve resumes where it stopped and several
// processes (MPI ranks, solver/solve_mpi_main.cc) share their results.
// verify keeps its scratch tiers in one the same way (verify/verify_tiers.cc).
//
//   absl::StatusOr<mnk::WorkDir> dir =
//       mnk::WorkDir::Open("/tmp/work", "game 4,4,3g\nlayout full\n",
//                          /*resume=*/false);
//   dir->Put("L07-T000003", bytes);                 // atomic: tmp + rename
//   absl::StatusOr<std::string> back = dir->Get("L07-T000003");
//
// The directory holds a manifest (what is being solved, with which options:
// a resumed solve must match it exactly), one file per tier, and "lock",
// which the process that opens the dir holds (flock) for as long as the
// WorkDir lives: a second solve started on the same dir is refused rather
// than overwriting the first's tiers (the ranks of one solve join the dir
// its rank 0 holds).
//
// A file is written to "<name>.tier.tmp-XXXXXX" and renamed when complete
// (WriteAtomically in table/file_io.h, without fsync: a tier checks itself), so
// a file under its own name was written whole; it is still checked before it is
// trusted. Temporary files a killed run left are removed when the dir is
// resumed. Anything in the directory that is not a regular file or a folder (a
// FIFO, a device, a socket, a symbolic link) is refused when it is opened, and
// a file is read only if it is a regular one: nothing there can block a solve.
// A tier file, byte by byte (integers little-endian):
//
//   0   8  magic "MNKTIER2"
//   8   8  FNV-1a hash of the manifest: tiers of another solve are refused
//   16  8  payload size, uncompressed
//   24  8  compressed size c
//   32  32 the tier's name ("L07-T000003": layer and tier), NUL-padded: a
//          tier renamed, copied or linked under another name is refused
//   64  4  CRC-32 of bytes 0-63 and of the c bytes that follow
//   68  c  the payload, one zstd frame (with zstd's own content checksum)
//
// Get() answers kNotFound for a missing file and kDataLoss for one that
// fails a check: the caller solves that tier again.
#ifndef MNK_STORE_WORK_DIR_H_
#define MNK_STORE_WORK_DIR_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mnk {

// The size of a tier (indices of one layer a tier file holds) that solve
// and verify take: a power of two from 64 to 2^32. kInvalidArgument
// otherwise, saying so.
inline constexpr uint64_t kMinTierIndices = 64;
inline constexpr uint64_t kMaxTierIndices = uint64_t{1} << 32;
absl::Status CheckTierIndices(uint64_t tier_indices);

class WorkDir {
 public:
  static constexpr size_t kMaxNameBytes = 32;

  // Opens `path` (created when missing) for the `job` ("solve", "verify":
  // named in messages) that `manifest` describes.
  // Without `resume` the directory must hold no manifest yet (kAlreadyExists
  // otherwise: tiers there would be overwritten); with it, the manifest there
  // must equal `manifest` (kFailedPrecondition otherwise, as for a path that
  // is not a directory). Several processes may open one directory: the first
  // writes the manifest. kDataLoss when the directory holds a file that is
  // not a regular one (the manifest included); kPermissionDenied or
  // kUnavailable when it cannot be created, read or written. The dir's lock
  // is taken (kFailedPrecondition when another process holds it) unless
  // `join`: another process of the same job, which holds it, opened it
  // first.
  static absl::StatusOr<WorkDir> Open(const std::string& path,
                                      const std::string& manifest, bool resume,
                                      absl::string_view job = "solve",
                                      bool join = false);

  // Writes `payload` as tier `name` (letters, digits, '-' only, at most
  // kMaxNameBytes), replacing
  // any file of that name. kResourceExhausted when the disk is full,
  // kInternal for other write errors; either way no file of that name is left
  // half-written.
  absl::Status Put(const std::string& name, absl::string_view payload) const;
  // Put() of the parts joined, without joining them in memory (a large
  // layer's sections are gigabytes); unlike Put's, the buffer for their
  // compressed bytes is freed when done, not kept for the next tier.
  absl::Status PutParts(const std::string& name,
                        const std::vector<absl::string_view>& parts) const;
  // The payload of tier `name`: kNotFound, or kDataLoss when the file is
  // damaged, cut short or from another solve.
  absl::StatusOr<std::string> Get(const std::string& name) const;
  // Get() into `payload`, whose memory is reused when it is large enough (a
  // fresh buffer of a tier's size is mapped anew each time: slow), and
  // otherwise freed before one of the payload's size is made.
  absl::Status Get(const std::string& name, std::string& payload) const;
  // The first `bytes` bytes of tier `name`'s payload into `head` (all of it
  // when shorter), the file checked as by Get() but only those bytes
  // decompressed: the payload's size.
  absl::StatusOr<uint64_t> GetHead(const std::string& name, size_t bytes,
                                   std::string& head) const;
  // The payload size of tier `name`, its header and checksum checked but
  // its bytes not decompressed (a resumed solve skipping tiers done);
  // errors as Get's.
  absl::StatusOr<uint64_t> Check(const std::string& name) const;
  bool Has(const std::string& name) const;
  // Deletes tier `name` once no step needs it any more (a missing one is
  // fine): kInternal when it cannot be removed.
  absl::Status Remove(const std::string& name) const;

  const std::string& path() const { return path_; }
  // Bytes this process wrote into the directory so far (files).
  uint64_t bytes_written() const { return traffic_->file_written.load(); }
  // What this process wrote and read so far: the files' bytes (what a
  // shared filesystem carries) and their payloads' (before zstd; a file
  // read for its head counts whole, as it is read whole).
  struct Traffic {
    uint64_t file_written, payload_written, file_read, payload_read;
  };
  Traffic traffic() const {
    return {traffic_->file_written.load(), traffic_->payload_written.load(),
            traffic_->file_read.load(), traffic_->payload_read.load()};
  }

 private:
  WorkDir(std::string path, uint64_t hash, std::shared_ptr<const int> lock)
      : path_(std::move(path)),
        hash_(hash),
        lock_(std::move(lock)),
        traffic_(std::make_shared<Counters>()) {}
  std::string FileName(const std::string& name) const;
  // Reads tier `name` into `file` and checks its header and checksum: its
  // payload size.
  absl::StatusOr<uint64_t> ReadChecked(const std::string& name,
                                       std::string& file) const;
  // Put() of the parts joined; `pooled`: the compressed bytes' buffer is
  // kept for the next call (a tier's).
  absl::Status PutCompressed(const std::string& name,
                             const std::vector<absl::string_view>& parts,
                             bool pooled) const;
  // PutParts() of `size` bytes in all, with `buffer` (`capacity` bytes, at
  // least ZSTD_compressBound(size)) for the compressed bytes.
  absl::Status PutPacked(const std::string& name,
                         const std::vector<absl::string_view>& parts,
                         uint64_t size, char* buffer, size_t capacity) const;

  std::string path_;
  uint64_t hash_;
  // The lock file's descriptor, closed (so released) with the last copy;
  // null for a process that joined.
  std::shared_ptr<const int> lock_;
  struct Counters {
    std::atomic<uint64_t> file_written{0}, payload_written{0}, file_read{0},
        payload_read{0};
  };
  std::shared_ptr<Counters> traffic_;
};

}  // namespace mnk

#endif  // MNK_STORE_WORK_DIR_H_
