#include "solver/tiers/work_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
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
// zstd's fastest levels: tiers are written once and read once or twice.
constexpr int kZstdLevel = 1;

uint64_t Fnv1a(absl::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

void PutU64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
uint64_t GetU64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

absl::Status WriteError(const std::string& file, int error) {
  const std::string message =
      absl::StrCat("cannot write ", file, ": ", std::strerror(error));
  if (error == ENOSPC || error == EDQUOT || error == EFBIG) {
    return absl::ResourceExhaustedError(message);
  }
  if (error == EACCES || error == EPERM || error == EROFS) {
    return absl::PermissionDeniedError(message);
  }
  return absl::InternalError(message);
}

// Writes `parts` to `path` through a temporary file and a rename.
absl::Status WriteAtomically(const std::string& path,
                             std::initializer_list<absl::string_view> parts) {
  const std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  const int fd =
      open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return WriteError(tmp, errno);
  int error = 0;
  for (absl::string_view part : parts) {
    const char* p = part.data();
    size_t left = part.size();
    while (left > 0 && error == 0) {
      const ssize_t n = write(fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error = errno;
      if (n > 0) {
        p += n;
        left -= static_cast<size_t>(n);
      }
    }
  }
  if (close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    unlink(tmp.c_str());
    return WriteError(path, error);
  }
  return absl::OkStatus();
}

// The whole of a regular file. Opened without following a symbolic link
// and without waiting for a FIFO's writer; kDataLoss for anything that is
// not a regular file, kPermissionDenied when it may not be read.
absl::StatusOr<std::string> ReadFile(const std::string& path) {
  const int fd =
      open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    const std::string why =
        absl::StrCat("cannot read ", path, ": ", std::strerror(error));
    if (error == ENOENT) {
      return absl::NotFoundError(absl::StrCat(path, " does not exist"));
    }
    if (error == EACCES || error == EPERM) {
      return absl::PermissionDeniedError(why);
    }
    if (error == ELOOP) {
      return absl::DataLossError(
          absl::StrCat(path, " is a symbolic link: expected a regular file"));
    }
    return absl::DataLossError(why);
  }
  std::string bytes;
  struct stat st = {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::DataLossError(absl::StrCat(path, " is ", FileKind(st.st_mode),
                                            ": expected a regular file"));
  }
  bytes.reserve(st.st_size);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return absl::DataLossError(
          absl::StrCat("cannot read ", path, ": ", std::strerror(error)));
    }
    if (n == 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return bytes;
}

// kDataLoss naming the first entry of `path` that is neither a regular
// file nor a directory.
absl::Status CheckEntries(const std::string& path) {
  DIR* d = opendir(path.c_str());
  if (d == nullptr) {
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot list the work dir ", path, ": ", std::strerror(errno)));
  }
  absl::Status status;
  while (const dirent* entry = readdir(d)) {
    const std::string file = absl::StrCat(path, "/", entry->d_name);
    struct stat st;
    if (lstat(file.c_str(), &st) != 0 || S_ISREG(st.st_mode) ||
        S_ISDIR(st.st_mode)) {
      continue;
    }
    status = absl::DataLossError(absl::StrCat(
        "the work dir holds ", file, ", which is ", FileKind(st.st_mode),
        ": expected only the regular files a solve writes; remove it"));
    break;
  }
  closedir(d);
  return status;
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

absl::StatusOr<WorkDir> WorkDir::Open(const std::string& path,
                                      const std::string& manifest,
                                      bool resume) {
  if (path.empty()) {
    return absl::InvalidArgumentError("the work dir's name is empty");
  }
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    const int error = errno;
    const std::string why = absl::StrCat("cannot create the work dir ", path,
                                         ": ", std::strerror(error));
    return error == EACCES || error == EPERM || error == EROFS
               ? absl::PermissionDeniedError(why)
               : absl::UnavailableError(why);
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("the work dir ", path, " is not a directory"));
  }
  if (absl::Status s = CheckEntries(path); !s.ok()) return s;
  const std::string file = absl::StrCat(path, "/", kManifest);
  absl::StatusOr<std::string> found = ReadFile(file);
  if (found.ok()) {
    if (!resume) {
      return absl::AlreadyExistsError(absl::StrCat(
          "the work dir ", path,
          " holds a solve already; pass --resume to continue it, or choose "
          "an empty directory"));
    }
    if (*found != manifest) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the work dir ", path, " holds another solve (its manifest says \"",
          absl::StrJoin(absl::StrSplit(*found, '\n', absl::SkipEmpty()), "; "),
          "\", this one is \"",
          absl::StrJoin(absl::StrSplit(manifest, '\n', absl::SkipEmpty()),
                        "; "),
          "\"): resume it with the same game and options, or choose another "
          "directory"));
    }
    // Files a killed run was writing: never trusted, so removed. (Safe: no
    // process of this solve writes before every one has opened the dir.)
    if (DIR* d = opendir(path.c_str())) {
      while (const dirent* entry = readdir(d)) {
        if (std::strstr(entry->d_name, ".tmp.") != nullptr) {
          unlink(absl::StrCat(path, "/", entry->d_name).c_str());
        }
      }
      closedir(d);
    }
  } else if (found.status().code() == absl::StatusCode::kNotFound) {
    if (absl::Status s = WriteAtomically(file, {manifest}); !s.ok()) return s;
  } else {
    return found.status();
  }
  return WorkDir(path, Fnv1a(manifest));
}

std::string WorkDir::FileName(const std::string& name) const {
  return absl::StrCat(path_, "/", name, ".tier");
}

absl::Status WorkDir::Put(const std::string& name,
                          absl::string_view payload) const {
  if (!ValidName(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tier name \"", name, "\": expected letters, digits and '-'"));
  }
  std::string packed(ZSTD_compressBound(payload.size()), '\0');
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (cctx == nullptr) return absl::ResourceExhaustedError("out of memory");
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  const size_t n = ZSTD_compress2(cctx, packed.data(), packed.size(),
                                  payload.data(), payload.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(n)) {
    return absl::InternalError(absl::StrCat("zstd could not compress tier ",
                                            name, ": ", ZSTD_getErrorName(n)));
  }
  packed.resize(n);
  char header[kHeaderBytes];
  std::memcpy(header, kMagic, 8);
  PutU64(header + 8, hash_);
  PutU64(header + 16, payload.size());
  PutU64(header + 24, packed.size());
  std::memset(header + kNameAt, 0, kMaxNameBytes);
  std::memcpy(header + kNameAt, name.data(), name.size());
  uint32_t crc = Crc32(Crc32(0, header, kCrcAt), packed.data(), packed.size());
  for (int i = 0; i < 4; ++i)
    header[kCrcAt + i] = static_cast<char>(crc >> (8 * i));
  if (absl::Status s = WriteAtomically(
          FileName(name), {absl::string_view(header, kHeaderBytes), packed});
      !s.ok()) {
    return s;
  }
  written_->fetch_add(kHeaderBytes + packed.size());
  return absl::OkStatus();
}

bool WorkDir::Has(const std::string& name) const {
  struct stat st;
  return stat(FileName(name).c_str(), &st) == 0;
}

absl::StatusOr<std::string> WorkDir::Get(const std::string& name) const {
  const std::string file = FileName(name);
  absl::StatusOr<std::string> bytes = ReadFile(file);
  if (!bytes.ok()) return bytes.status();
  auto damaged = [&](absl::string_view why) {
    return absl::DataLossError(absl::StrCat(file, ": ", why));
  };
  if (bytes->size() < kHeaderBytes ||
      std::memcmp(bytes->data(), kMagic, 8) != 0) {
    return damaged("not a tier file of this version");
  }
  if (GetU64(bytes->data() + 8) != hash_) {
    return damaged("a tier of another solve");
  }
  const uint64_t size = GetU64(bytes->data() + 16);
  const uint64_t packed = GetU64(bytes->data() + 24);
  if (packed != bytes->size() - kHeaderBytes) {
    return damaged(absl::StrCat("holds ", bytes->size() - kHeaderBytes,
                                " compressed bytes; its header says ", packed));
  }
  uint32_t crc = 0;
  for (int i = 0; i < 4; ++i) {
    crc |= uint32_t{static_cast<unsigned char>((*bytes)[kCrcAt + i])}
           << (8 * i);
  }
  if (Crc32(Crc32(0, bytes->data(), kCrcAt), bytes->data() + kHeaderBytes,
            packed) != crc) {
    return damaged("checksum mismatch");
  }
  const absl::string_view held(bytes->data() + kNameAt,
                               strnlen(bytes->data() + kNameAt, kMaxNameBytes));
  if (held != name) {
    return damaged(absl::StrCat("holds tier ", held, ", not ", name,
                                " (a tier file renamed, copied or linked)"));
  }
  std::string payload(size, '\0');
  const size_t n = ZSTD_decompress(payload.data(), payload.size(),
                                   bytes->data() + kHeaderBytes, packed);
  if (ZSTD_isError(n) || n != size) {
    return damaged("the compressed payload does not decode to its size");
  }
  return payload;
}

}  // namespace mnk
