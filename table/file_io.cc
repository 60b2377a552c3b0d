#include "table/file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rules/game/printable.h"
#include "table/file_kind.h"

namespace mnk {
namespace {

constexpr absl::string_view kTempInfix = ".tmp-";
constexpr size_t kTempRandom = 6;  // mkstemp's XXXXXX

// The temporary file being written, for RemovePendingTempFile() (which may
// run in a signal handler, so plain memory and no locks).
char g_pending_temp[PATH_MAX + 1];
volatile sig_atomic_t g_pending = 0;

struct TargetParts {
  std::string dir;          // "." when the path has no '/'
  std::string temp_prefix;  // dir/name.tmp- with the name cut to fit
};

TargetParts Parts(const std::string& path) {
  const size_t slash = path.rfind('/');
  TargetParts parts;
  parts.dir = slash == std::string::npos ? "."
              : slash == 0               ? "/"
                                         : path.substr(0, slash);
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);
  // ".tmp-XXXXXX" must fit in a file name too.
  constexpr size_t kSuffix = kTempInfix.size() + kTempRandom;
  parts.temp_prefix =
      absl::StrCat(slash == std::string::npos ? "" : path.substr(0, slash + 1),
                   name.substr(0, NAME_MAX - kSuffix), kTempInfix);
  return parts;
}

// Removes temporary files of earlier writes to the same target that were
// killed (SIGKILL, a crash): a live writer holds a lock on its file.
void RemoveStaleTempFiles(const TargetParts& parts) {
  absl::StatusOr<std::vector<std::string>> names = ListDirectory(parts.dir);
  if (!names.ok()) return;
  const size_t slash = parts.temp_prefix.rfind('/') + 1;  // 0 if none
  const std::string prefix = parts.temp_prefix.substr(slash);
  for (const std::string& name : *names) {
    if (!absl::StartsWith(name, prefix) ||
        name.size() != prefix.size() + kTempRandom) {
      continue;
    }
    const std::string stale =
        absl::StrCat(parts.temp_prefix.substr(0, slash), name);
    const int fd = open(stale.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        flock(fd, LOCK_EX | LOCK_NB) == 0) {
      unlink(stale.c_str());
    }
    close(fd);
  }
}

// Writes all of `size` bytes, retrying after signals: 0 or the errno.
int WriteAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, std::min<size_t>(size, 1 << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace

absl::Status CheckWriteTarget(const std::string& path) {
  const std::string name = Printable(path);
  if (path.empty() || path.back() == '/') {
    return absl::FailedPreconditionError(absl::StrCat(
        "'", name, "' names a directory: expected a file name for the table"));
  }
  struct stat st;
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return absl::FailedPreconditionError(absl::StrCat(
          name, " is a directory: expected a file name for the table"));
    }
    if (!S_ISREG(st.st_mode)) {
      return absl::FailedPreconditionError(
          absl::StrCat(name, " is ", FileKind(st.st_mode),
                       ", not a regular file: refusing to replace it"));
    }
  } else if (errno != ENOENT) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot look at ", name));
  }
  const TargetParts parts = Parts(path);
  if (access(parts.dir.c_str(), W_OK | X_OK) != 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot write in the folder of ", name));
  }
  return absl::OkStatus();
}

namespace {

// mkstemp on `temp` (its XXXXXX filled in), the file registered for
// RemovePendingTempFile when `tidy`. SIGINT and SIGTERM wait meanwhile, so
// that a handler never misses a file made. The descriptor, or -1 (errno).
int MakeTemp(std::string* temp, bool tidy) {
  sigset_t stops, before;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, &before);
  const int fd = mkstemp(temp->data());
  const int error = errno;
  if (fd >= 0 && tidy && temp->size() <= PATH_MAX) {
    std::memcpy(g_pending_temp, temp->c_str(), temp->size() + 1);
    g_pending = 1;
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  errno = error;
  return fd;
}

}  // namespace

absl::Status WriteAtomically(const std::string& path, const Emitter& emit_all,
                             AtomicWriteOptions options) {
  if (absl::Status s = CheckWriteTarget(path); !s.ok()) return s;
  const std::string name = Printable(path);
  const TargetParts parts = Parts(path);
  if (options.tidy) RemoveStaleTempFiles(parts);
  // An existing file keeps its permissions and, where allowed, its owner;
  // a new one gets 0666 less the umask, as any new file.
  struct stat old;
  const bool replacing = stat(path.c_str(), &old) == 0;
  const mode_t mask = umask(0);
  umask(mask);
  const mode_t mode = replacing ? old.st_mode & 07777 : 0666 & ~mask;

  std::string temp = parts.temp_prefix + "XXXXXX";
  int fd = MakeTemp(&temp, options.tidy);
  if (fd < 0) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot create a file beside ", name));
  }
  flock(fd, LOCK_EX);  // held until closed: not stale while written
  int error = 0;
  // Whatever happens below, the descriptor is closed and, unless it was
  // renamed into place, the temporary file removed.
  absl::Cleanup cleanup = [&] {
    if (fd >= 0) close(fd);
    if (error != 0) unlink(temp.c_str());
    if (options.tidy) g_pending = 0;
  };
  absl::Status made = emit_all([&](const void* data, size_t size) {
    if (error == 0) error = WriteAll(fd, data, size);
  });
  if (!made.ok()) {
    error = -1;  // the cleanup removes the file
    return made;
  }
  if (error == 0 && fchmod(fd, mode) != 0) error = errno;
  if (error == 0 && replacing && fchown(fd, old.st_uid, old.st_gid) != 0 &&
      errno != EPERM) {
    error = errno;
  }
  if (error == 0 && options.sync && fsync(fd) != 0) error = errno;
  if (close(fd) != 0 && error == 0) error = errno;
  fd = -1;
  if (error == 0 && rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    return absl::ErrnoToStatus(error, absl::StrCat("cannot write ", name));
  }
  return absl::OkStatus();
}

absl::Status WriteAtomically(const std::string& path,
                             std::initializer_list<absl::string_view> parts,
                             AtomicWriteOptions options) {
  return WriteAtomically(
      path,
      [&](const auto& emit) {
        for (absl::string_view part : parts) emit(part.data(), part.size());
        return absl::OkStatus();
      },
      options);
}

bool IsAtomicWriteTemp(absl::string_view name) {
  const size_t at = name.rfind(kTempInfix);
  return at != absl::string_view::npos &&
         name.size() == at + kTempInfix.size() + kTempRandom;
}

void RemovePendingTempFile() {
  if (g_pending) unlink(g_pending_temp);
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path,
                                          bool follow_links) {
  const std::string name = Printable(path);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK |
                                        (follow_links ? 0 : O_NOFOLLOW));
  if (fd < 0) {
    if (errno == ELOOP) {
      return absl::FailedPreconditionError(
          absl::StrCat(name, " is a symbolic link: expected a regular file"));
    }
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot read ", name));
  }
  absl::Cleanup closer = [fd] { close(fd); };
  struct stat st = {};
  if (fstat(fd, &st) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot stat ", name));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        name, " is ", FileKind(st.st_mode), ": expected a regular file"));
  }
  std::string bytes;
  bytes.reserve(st.st_size);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot read ", name));
    }
    if (n == 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
  }
  return bytes;
}

absl::StatusOr<std::vector<std::string>> ListDirectory(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) {
    return absl::ErrnoToStatus(errno,
                               absl::StrCat("cannot list ", Printable(dir)));
  }
  absl::Cleanup closer = [d] { closedir(d); };
  std::vector<std::string> names;
  while (const dirent* e = readdir(d)) {
    const absl::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace mnk
