#include "store/work_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "table/file_io.h"
#include "table/file_kind.h"
#include "table/page_checks.h"

namespace mnk {
namespace {

constexpr char kMagic[8] = {'M', 'N', 'K', 'T', 'I', 'E', 'R', '2'};
constexpr size_t kNameAt = 32;
constexpr size_t kCrcAt = kNameAt + WorkDir::kMaxNameBytes;
constexpr size_t kHeaderBytes = kCrcAt + 4;
static_assert(kHeaderBytes == 68, "the tier header drawn in work_dir.h");
constexpr char kManifest[] = "manifest";
constexpr char kLock[] = "lock";
// zstd's fastest levels: tiers are written once and read once or twice.
constexpr int kZstdLevel = 1;

// A compressed tier's buffer past this size is not kept for the next Put
// (tiers are at most 192 MB).
constexpr size_t kPooledBytes = size_t{512} << 20;

// Makes `s` `n` bytes long, for the caller to overwrite. When it must grow,
// its memory is freed before exactly `n` bytes are allocated: std::string
// would allocate twice its capacity and hold both while copying bytes about
// to be overwritten (a layer's sections read back: about 2.2 times their
// size).
void ResizeToOverwrite(std::string& s, size_t n) {
  if (s.capacity() < n) {
    std::string().swap(s);
    s.reserve(n);
  }
  s.resize(n);
}

// Buffers for compressed tiers, kept from one Put to the next: a fresh
// buffer past 32 MB is mapped anew by malloc each time, and faulting its
// pages in cost more than solving the tier on this VM (6x6 gravity with
// 2^24-index tiers: 80% of the time, perf).
class PackedBuffers {
 public:
  std::string Take(size_t bytes) {
    std::string buffer;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        buffer = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (buffer.size() < bytes) ResizeToOverwrite(buffer, bytes);
    return buffer;
  }
  void Give(std::string buffer) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kKept) free_.push_back(std::move(buffer));
  }

 private:
  static constexpr size_t kKept = 4;  // writes in flight at once, at most
  std::mutex mutex_;
  std::vector<std::string> free_;
};
PackedBuffers& Packed() {
  static PackedBuffers* const buffers = new PackedBuffers;
  return *buffers;
}

uint64_t Fnv1a(absl::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A tier write's error as the solve reports it: a full disk, a quota or a
// file-size limit is kResourceExhausted, a folder that may not be written
// kPermissionDenied, anything else kInternal (exit 5, the tiers done kept).
absl::Status TierWriteError(const absl::Status& s) {
  if (s.ok() || absl::IsResourceExhausted(s) || absl::IsPermissionDenied(s)) {
    return s;
  }
  if (absl::IsOutOfRange(s)) return absl::ResourceExhaustedError(s.message());
  return absl::InternalError(s.message());
}

// A tier written as WriteAtomically does, without fsync (a tier carries its
// own checksum: one damaged by a crash is solved again) and without
// looking for stale temporary files at each write (Open removes them).
absl::Status WriteTierFile(const std::string& path,
                           std::initializer_list<absl::string_view> parts) {
  AtomicWriteOptions options;
  options.sync = false;
  options.tidy = false;
  return TierWriteError(WriteAtomically(path, parts, options));
}

// A work-dir file's bytes. kNotFound when it is missing, kPermissionDenied
// when it may not be read; anything else wrong with it (a symbolic link, a
// FIFO, a read error) is damage, kDataLoss: the tier is solved again.
absl::StatusOr<std::string> ReadFile(const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadWholeFile(path);
  if (bytes.ok() || absl::IsNotFound(bytes.status()) ||
      absl::IsPermissionDenied(bytes.status())) {
    return bytes;
  }
  return absl::DataLossError(bytes.status().message());
}

// kDataLoss naming the first entry of `path` that is neither a regular
// file nor a directory.
absl::Status CheckEntries(const std::string& path, absl::string_view job) {
  absl::StatusOr<std::vector<std::string>> names = ListDirectory(path);
  if (!names.ok()) return names.status();
  for (const std::string& name : *names) {
    const std::string file = absl::StrCat(path, "/", name);
    struct stat st;
    if (lstat(file.c_str(), &st) != 0 || S_ISREG(st.st_mode) ||
        S_ISDIR(st.st_mode)) {
      continue;
    }
    return absl::DataLossError(absl::StrCat(
        "the work dir holds ", file, ", which is ", FileKind(st.st_mode),
        ": expected only the regular files a ", job, " writes; remove it"));
  }
  return absl::OkStatus();
}

// The dir's lock file, held by this process (flock) while the result
// lives: kFailedPrecondition when another process holds it.
absl::StatusOr<std::shared_ptr<const int>> Lock(const std::string& path,
                                                absl::string_view job) {
  const std::string file = absl::StrCat(path, "/", kLock);
  const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", file));
  }
  auto lock = std::shared_ptr<const int>(new int(fd), [](const int* held) {
    close(*held);
    delete held;
  });
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot lock ", file));
    }
    return absl::FailedPreconditionError(
        absl::StrCat("another process is running a ", job, " in the work dir ",
                     path, " (it holds ", file,
                     "); wait for it to end or stop it, then run "
                     "again"));
  }
  return lock;
}

bool ValidName(absl::string_view name) {
  if (name.empty() || name.size() > WorkDir::kMaxNameBytes) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-'))
      return false;
  }
  return true;
}

}  // namespace

absl::Status CheckTierIndices(uint64_t tier_indices) {
  if (tier_indices >= kMinTierIndices && tier_indices <= kMaxTierIndices &&
      absl::has_single_bit(tier_indices)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "tier indices ", tier_indices, ": expected a power of two from ",
      kMinTierIndices, " to ", kMaxTierIndices));
}

absl::StatusOr<WorkDir> WorkDir::Open(const std::string& path,
                                      const std::string& manifest, bool resume,
                                      absl::string_view job, bool join) {
  if (path.empty()) {
    return absl::InvalidArgumentError("the work dir's name is empty");
  }
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot create the work dir ", path));
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("the work dir ", path, " is not a directory"));
  }
  if (absl::Status s = CheckEntries(path, job); !s.ok()) return s;
  std::shared_ptr<const int> lock;
  if (!join) {
    absl::StatusOr<std::shared_ptr<const int>> held = Lock(path, job);
    if (!held.ok()) return held.status();
    lock = *std::move(held);
  }
  const std::string file = absl::StrCat(path, "/", kManifest);
  absl::StatusOr<std::string> found = ReadFile(file);
  if (found.ok()) {
    if (!resume) {
      return absl::AlreadyExistsError(absl::StrCat(
          "the work dir ", path, " holds a ", job,
          " already; pass --resume to continue it, or choose an empty "
          "directory"));
    }
    if (*found != manifest) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the work dir ", path, " holds another ", job,
          " (its manifest says \"",
          absl::StrJoin(absl::StrSplit(*found, '\n', absl::SkipEmpty()), "; "),
          "\", this one is \"",
          absl::StrJoin(absl::StrSplit(manifest, '\n', absl::SkipEmpty()),
                        "; "),
          "\"): resume it with the same game and options, or choose another "
          "directory"));
    }
    // Files a killed run was writing: never trusted, so removed. (Safe: no
    // process of this solve writes before every one has opened the dir.)
    if (absl::StatusOr<std::vector<std::string>> names = ListDirectory(path);
        names.ok()) {
      for (const std::string& name : *names) {
        if (IsAtomicWriteTemp(name)) {
          unlink(absl::StrCat(path, "/", name).c_str());
        }
      }
    }
  } else if (found.status().code() == absl::StatusCode::kNotFound) {
    if (absl::Status s = WriteTierFile(file, {manifest}); !s.ok()) return s;
  } else {
    return found.status();
  }
  return WorkDir(path, Fnv1a(manifest), std::move(lock));
}

std::string WorkDir::FileName(const std::string& name) const {
  return absl::StrCat(path_, "/", name, ".tier");
}

absl::Status WorkDir::Put(const std::string& name,
                          absl::string_view payload) const {
  return PutCompressed(name, {payload}, /*pooled=*/true);
}

absl::Status WorkDir::PutParts(
    const std::string& name,
    const std::vector<absl::string_view>& parts) const {
  return PutCompressed(name, parts, /*pooled=*/false);
}

absl::Status WorkDir::PutCompressed(const std::string& name,
                                    const std::vector<absl::string_view>& parts,
                                    bool pooled) const {
  if (!ValidName(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tier name \"", name, "\": expected letters, digits and '-'"));
  }
  uint64_t size = 0;
  for (absl::string_view part : parts) size += part.size();
  const size_t bound = ZSTD_compressBound(size);
  if (!pooled || bound > kPooledBytes) {
    // A layer's sections: a buffer of their size is not kept, and its pages
    // are touched only as far as zstd writes.
    std::unique_ptr<char[]> buffer(new (std::nothrow) char[bound]);
    if (buffer == nullptr) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "out of memory for the ", bound, " bytes of tier ", name));
    }
    return PutPacked(name, parts, size, buffer.get(), bound);
  }
  std::string buffer = Packed().Take(bound);
  absl::Status status =
      PutPacked(name, parts, size, buffer.data(), buffer.size());
  Packed().Give(std::move(buffer));
  return status;
}

absl::Status WorkDir::PutPacked(const std::string& name,
                                const std::vector<absl::string_view>& parts,
                                uint64_t size, char* buffer,
                                size_t capacity) const {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (cctx == nullptr) return absl::ResourceExhaustedError("out of memory");
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setPledgedSrcSize(cctx, size);
  // One frame of the parts in order; the buffer holds ZSTD_compressBound
  // of them, so each call takes its whole input and the last one ends the
  // frame (0 left to flush).
  ZSTD_outBuffer out = {buffer, capacity, 0};
  std::string error;
  for (size_t k = 0; k <= parts.size() && error.empty(); ++k) {
    const bool last = k == parts.size();
    ZSTD_inBuffer in = {last ? nullptr : parts[k].data(),
                        last ? 0 : parts[k].size(), 0};
    const size_t left = ZSTD_compressStream2(
        cctx, &out, &in, last ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(left)) {
      error = ZSTD_getErrorName(left);
    } else if (in.pos != in.size || (last && left != 0)) {
      error = "the buffer is too small";
    }
  }
  ZSTD_freeCCtx(cctx);
  if (!error.empty()) {
    return absl::InternalError(
        absl::StrCat("zstd could not compress tier ", name, ": ", error));
  }
  const size_t n = out.pos;
  const absl::string_view packed(buffer, n);
  char header[kHeaderBytes];
  std::memcpy(header, kMagic, 8);
  PutLittleEndian(header + 8, hash_, 8);
  PutLittleEndian(header + 16, size, 8);
  PutLittleEndian(header + 24, packed.size(), 8);
  std::memset(header + kNameAt, 0, kMaxNameBytes);
  std::memcpy(header + kNameAt, name.data(), name.size());
  uint32_t crc = Crc32(Crc32(0, header, kCrcAt), packed.data(), packed.size());
  PutLittleEndian(header + kCrcAt, crc, 4);
  if (absl::Status s = WriteTierFile(
          FileName(name), {absl::string_view(header, kHeaderBytes), packed});
      !s.ok()) {
    return s;
  }
  traffic_->file_written.fetch_add(kHeaderBytes + packed.size());
  traffic_->payload_written.fetch_add(size);
  return absl::OkStatus();
}

bool WorkDir::Has(const std::string& name) const {
  struct stat st;
  return stat(FileName(name).c_str(), &st) == 0;
}

absl::Status WorkDir::Remove(const std::string& name) const {
  const std::string file = FileName(name);
  if (unlink(file.c_str()) != 0 && errno != ENOENT) {
    return absl::InternalError(
        absl::StrCat("cannot remove ", file, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> WorkDir::ReadChecked(const std::string& name,
                                              std::string& file) const {
  const std::string path = FileName(name);
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  file = *std::move(bytes);
  auto damaged = [&](absl::string_view why) {
    return absl::DataLossError(absl::StrCat(path, ": ", why));
  };
  if (file.size() < kHeaderBytes || std::memcmp(file.data(), kMagic, 8) != 0) {
    return damaged("not a tier file of this version");
  }
  if (GetLittleEndian(file.data() + 8, 8) != hash_) {
    return damaged("a tier of another solve");
  }
  const uint64_t packed = GetLittleEndian(file.data() + 24, 8);
  if (packed != file.size() - kHeaderBytes) {
    return damaged(absl::StrCat("holds ", file.size() - kHeaderBytes,
                                " compressed bytes; its header says ", packed));
  }
  const uint32_t crc = GetLittleEndian(file.data() + kCrcAt, 4);
  if (Crc32(Crc32(0, file.data(), kCrcAt), file.data() + kHeaderBytes,
            packed) != crc) {
    return damaged("checksum mismatch");
  }
  const absl::string_view held(file.data() + kNameAt,
                               strnlen(file.data() + kNameAt, kMaxNameBytes));
  if (held != name) {
    return damaged(absl::StrCat("holds tier ", held, ", not ", name,
                                " (a tier file renamed, copied or linked)"));
  }
  const uint64_t payload = GetLittleEndian(file.data() + 16, 8);
  traffic_->file_read.fetch_add(file.size());
  traffic_->payload_read.fetch_add(payload);
  return payload;
}

absl::StatusOr<uint64_t> WorkDir::Check(const std::string& name) const {
  std::string file;
  return ReadChecked(name, file);
}

absl::Status WorkDir::Get(const std::string& name, std::string& payload) const {
  std::string file;
  absl::StatusOr<uint64_t> size = ReadChecked(name, file);
  if (!size.ok()) return size.status();
  // The memory is kept when it is large enough: mapping fresh pages costs
  // more than decompressing into them.
  ResizeToOverwrite(payload, *size);
  const size_t n =
      ZSTD_decompress(payload.data(), payload.size(),
                      file.data() + kHeaderBytes, file.size() - kHeaderBytes);
  if (ZSTD_isError(n) || n != *size) {
    return absl::DataLossError(
        absl::StrCat(FileName(name),
                     ": the compressed payload does not decode to its size"));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> WorkDir::GetHead(const std::string& name, size_t bytes,
                                          std::string& head) const {
  std::string file;
  absl::StatusOr<uint64_t> size = ReadChecked(name, file);
  if (!size.ok()) return size.status();
  head.assign(std::min<uint64_t>(bytes, *size), '\0');
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  if (dctx == nullptr) return absl::ResourceExhaustedError("out of memory");
  ZSTD_inBuffer in = {file.data() + kHeaderBytes, file.size() - kHeaderBytes,
                      0};
  ZSTD_outBuffer out = {head.data(), head.size(), 0};
  size_t n = 0;
  while (out.pos < out.size && in.pos < in.size && !ZSTD_isError(n)) {
    n = ZSTD_decompressStream(dctx, &out, &in);
  }
  ZSTD_freeDCtx(dctx);
  if (ZSTD_isError(n) || out.pos != out.size) {
    return absl::DataLossError(absl::StrCat(
        FileName(name), ": the compressed payload does not decode"));
  }
  return size;
}

absl::StatusOr<std::string> WorkDir::Get(const std::string& name) const {
  std::string payload;
  if (absl::Status s = Get(name, payload); !s.ok()) return s;
  return payload;
}

}  // namespace mnk
