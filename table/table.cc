#include "table/table.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <functional>
#include <new>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/numeric/bits.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "solver/game/policy.h"
#include "table/file_kind.h"
#include "table/page_checks.h"

namespace mnk {
namespace {

constexpr char kMagic[8] = {'M', 'N', 'K', 'T', 'A', 'B', 'L', 'E'};
constexpr uint8_t kIndexingScheme = 1;
constexpr uint8_t kFlagGravity = 1;
constexpr uint8_t kFlagMisere = 2;
constexpr uint8_t kFlagRemoteness = 4;  // layout 3 only
// The header drawn in table.h: its last field, the reserved word at byte 56,
// ends it.
static_assert(kTableHeaderSize == 64, "the header is 64 bytes");
static_assert(56 + 8 == kTableHeaderSize, "the last header field ends it");

void PutLe(uint8_t* out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(value >> 8 * i);
}
uint64_t GetLe(const uint8_t* in, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = value << 8 | in[i];
  return value;
}

struct Section {
  const uint8_t* data;
  uint64_t size;
};

// Emits the file in pieces: the header, the sections, the checksum.
// `fields`: bytes 40-63 of the header; by default the sections' offsets.
void EmitTable(const GameSpec& spec, Layout layout, uint64_t entries,
               uint64_t reachable, const std::vector<Section>& sections,
               const std::function<void(const void*, size_t)>& emit,
               uint8_t extra_flags = 0,
               const std::vector<uint64_t>& fields = {}) {
  uint8_t header[kTableHeaderSize] = {};
  std::memcpy(header, kMagic, 8);
  PutLe(header + 8, kTableVersion, 4);
  header[12] = static_cast<uint8_t>(spec.width);
  header[13] = static_cast<uint8_t>(spec.height);
  header[14] = static_cast<uint8_t>(spec.k);
  header[15] = (spec.gravity ? kFlagGravity : 0) |
               (spec.misere ? kFlagMisere : 0) | extra_flags;
  header[16] = kIndexingScheme;
  header[17] = static_cast<uint8_t>(layout);
  PutLe(header + 20, kTableHeaderSize, 4);
  PutLe(header + 24, entries, 8);
  PutLe(header + 32, reachable, 8);
  uint64_t offset = kTableHeaderSize;
  for (size_t i = 0; i < sections.size() && fields.empty(); ++i) {
    PutLe(header + 40 + 8 * i, offset, 8);
    offset += sections[i].size;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    PutLe(header + 40 + 8 * i, fields[i], 8);
  }
  uint32_t crc = 0;
  PageChecksumWriter pages;
  auto put = [&](const void* data, uint64_t size, bool paged) {
    crc = Crc32(crc, data, size);
    if (paged) pages.Add(data, size);
    emit(data, size);
  };
  put(header, sizeof(header), true);
  for (const Section& section : sections) {
    put(section.data, section.size, true);
  }
  const std::string page_checksums = pages.Finish();
  put(page_checksums.data(), page_checksums.size(), false);
  uint8_t trailer[4];
  PutLe(trailer, crc, 4);
  emit(trailer, 4);
}

std::vector<Section> FullSections(const RecordView& records) {
  return {{records.values, RecordView::ValueBytes(records.size)},
          {records.details, 2 * records.size}};
}

absl::Status ErrnoStatus(int error, absl::string_view what) {
  const std::string message = absl::StrCat(what, ": ", std::strerror(error));
  switch (error) {
    case ENOENT:
      return absl::NotFoundError(message);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(message);
    case EISDIR:
      return absl::FailedPreconditionError(message);
    case ENOSPC:
    case EFBIG:
      return absl::ResourceExhaustedError(message);
    case ENOTDIR:
      return absl::NotFoundError(message);
    default:
      return absl::UnavailableError(message);
  }
}

// Reads up to `size` bytes (fewer only at the end of the file).
absl::StatusOr<uint64_t> ReadFully(int fd, uint8_t* out, uint64_t size,
                                   absl::string_view name) {
  uint64_t done = 0;
  while (done < size) {
    const ssize_t n =
        read(fd, out + done, std::min<uint64_t>(size - done, 1 << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(errno, absl::StrCat("cannot read ", name));
    if (n == 0) break;
    done += n;
  }
  return done;
}

// What a header says, once checked.
struct Header {
  Game game;
  Layout layout;
  uint64_t reachable;
  uint64_t data_bytes;  // D: the bytes before the page checksums
  uint64_t file_bytes;  // what the whole file must measure
  bool remoteness;      // layout 3: stored
};

// The size of a file with D bytes before its page checksums.
uint64_t FileBytes(uint64_t data_bytes) {
  return data_bytes + PageChecksumBytes(data_bytes) + 4;
}

// Layout 3: the section directory (table.h) checked and the sections opened.
absl::StatusOr<CompressedSections> OpenCompressed(
    const Game& game, const PositionIndex& index, const uint8_t* data,
    uint64_t size, bool remoteness, const PageChecks& checks,
    absl::string_view source) {
  const uint64_t count = CompressedSectionCount(game, remoteness);
  if (!checks.Check(data + kTableHeaderSize, 16 * count)) {
    return absl::DataLossError(absl::StrCat(
        source, " is corrupt: its section directory fails its checksum"));
  }
  std::vector<absl::string_view> sections;
  uint64_t expected = kTableHeaderSize + 16 * count;
  for (uint64_t s = 0; s < count; ++s) {
    const uint64_t offset = GetLe(data + kTableHeaderSize + 16 * s, 8);
    const uint64_t bytes = GetLe(data + kTableHeaderSize + 16 * s + 8, 8);
    if (offset != expected || bytes > size - offset) {
      return absl::DataLossError(absl::StrCat(
          source, " has a corrupt section directory: section ", s, " at ",
          offset, " with ", bytes, " bytes, expected it at ", expected,
          " and within the file's ", size, " bytes"));
    }
    sections.emplace_back(reinterpret_cast<const char*>(data + offset), bytes);
    expected += bytes;
  }
  // Each section's header is read next: ask for them all at once, so that
  // a table not yet in the page cache costs one wait, not one a section.
  for (const absl::string_view section : sections) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(section.data());
    const uintptr_t page = at & ~uintptr_t{kPageBytes - 1};
    madvise(reinterpret_cast<void*>(page),
            std::min<uint64_t>(at - page + section.size(), 2 * kPageBytes),
            MADV_WILLNEED);  // advice only
  }
  if (expected != size) {
    return absl::DataLossError(absl::StrCat(
        source, " has a corrupt section directory: the sections end at ",
        expected, ", expected ", size));
  }
  absl::StatusOr<CompressedSections> c =
      CompressedSections::Open(game, index, remoteness, sections, &checks);
  if (!c.ok()) {
    return absl::DataLossError(
        absl::StrCat(source, " is corrupt: ", c.status().message()));
  }
  return c;
}

// The magic and the version: is this a table this program reads at all?
absl::Status CheckMagicAndVersion(const uint8_t* data, uint64_t size,
                                  absl::string_view source) {
  if (size == 0) {
    return absl::DataLossError(absl::StrCat(source,
                                            " is empty: a table file "
                                            "has at least ",
                                            kTableHeaderSize + 4, " bytes"));
  }
  if (size < 8 || std::memcmp(data, kMagic, 8) != 0) {
    return absl::DataLossError(absl::StrCat(
        source, " is not a table file: it starts with \"",
        absl::CHexEscape(absl::string_view(reinterpret_cast<const char*>(data),
                                           std::min<uint64_t>(size, 8))),
        "\", expected \"MNKTABLE\""));
  }
  if (size < kTableHeaderSize + 4) {
    return absl::DataLossError(absl::StrCat(
        source, " is truncated: ", size, " bytes, shorter than the ",
        kTableHeaderSize + 4, "-byte header and checksum"));
  }
  const uint64_t version = GetLe(data + 8, 4);
  if (version != kTableVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        source, " has format version ", version,
        "; this program reads version ", kTableVersion,
        version < kTableVersion
            ? ": solve the game again to write it in the new format"
            : ""));
  }
  return absl::OkStatus();
}

// The game, layout, counts and section offsets of the header (table.h).
absl::StatusOr<Header> ParseHeader(const uint8_t* data,
                                   absl::string_view source) {
  GameSpec spec;
  spec.width = data[12];
  spec.height = data[13];
  spec.k = data[14];
  spec.gravity = (data[15] & kFlagGravity) != 0;
  spec.misere = (data[15] & kFlagMisere) != 0;
  absl::StatusOr<Game> game = Game::Create(spec);
  const Layout layout = static_cast<Layout>(data[17]);
  const bool compressed = layout == Layout::kCompressed;
  const uint8_t known_flags =
      kFlagGravity | kFlagMisere | (compressed ? kFlagRemoteness : 0);
  if (!game.ok() || (data[15] & ~known_flags) != 0 ||
      data[16] != kIndexingScheme ||
      (layout != Layout::kFull && layout != Layout::kCompact && !compressed) ||
      GetLe(data + 18, 2) != 0 || GetLe(data + 20, 4) != kTableHeaderSize) {
    return absl::DataLossError(absl::StrFormat(
        "%s has a corrupt header: game %dx%d k=%d flags %d, indexing %d, "
        "layout %d, header size %d; expected a valid game, flags 0 to 3 (0 "
        "to 7 in layout 3), indexing %d, layout 1 to 3, header size %d",
        source, data[12], data[13], data[14], data[15], data[16], data[17],
        GetLe(data + 20, 4), kIndexingScheme, kTableHeaderSize));
  }
  const PositionIndex index(*game);
  const uint64_t entries = GetLe(data + 24, 8);
  const uint64_t reachable = GetLe(data + 32, 8);
  const bool full = layout == Layout::kFull;
  const bool remoteness = (data[15] & kFlagRemoteness) != 0;
  const uint64_t section_count = CompressedSectionCount(*game, remoteness);
  const uint64_t sections_end = GetLe(data + 56, 8);
  const uint64_t sections[3] = {
      kTableHeaderSize,
      compressed ? section_count
      : full     ? kTableHeaderSize + RecordView::ValueBytes(index.size())
                 : 0,
      compressed ? std::max(sections_end, kTableHeaderSize + 16 * section_count)
                 : 0};
  if (entries != index.size()) {
    return absl::DataLossError(
        absl::StrCat(source, " has a corrupt header: ", entries,
                     " entries (byte 24) for game ", spec.Name(), ", expected ",
                     index.size()));
  }
  if (reachable > entries) {
    return absl::DataLossError(absl::StrCat(
        source, " has a corrupt header: ", reachable,
        " reachable positions (byte 32), more than its ", entries, " entries"));
  }
  for (int i = 0; i < 3; ++i) {
    if (GetLe(data + 40 + 8 * i, 8) != sections[i]) {
      return absl::DataLossError(absl::StrCat(
          source, " has a corrupt header: section offset ", i, " (byte ",
          40 + 8 * i, ") is ", GetLe(data + 40 + 8 * i, 8), ", expected ",
          sections[i]));
    }
  }
  const uint64_t data_bytes =
      compressed ? sections_end
      : full ? kTableHeaderSize + RecordView::ValueBytes(entries) + 2 * entries
             : kTableHeaderSize + CompactLayout(index).bytes();
  return Header{*game,     layout, reachable, data_bytes, FileBytes(data_bytes),
                remoteness};
}

absl::Status SizeError(uint64_t size, const Header& header,
                       absl::string_view source) {
  return absl::DataLossError(absl::StrCat(
      source, " is ", size < header.file_bytes ? "truncated" : "too long", ": ",
      size, " bytes, expected ", header.file_bytes, " for game ",
      header.game.spec().Name()));
}

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
  constexpr size_t kSuffix = sizeof(".tmp-XXXXXX") - 1;
  parts.temp_prefix =
      absl::StrCat(slash == std::string::npos ? "" : path.substr(0, slash + 1),
                   name.substr(0, NAME_MAX - kSuffix), ".tmp-");
  return parts;
}

// Removes temporary files of earlier writes to the same target that were
// killed (SIGKILL, a crash): a live writer holds a lock on its file.
void RemoveStaleTempFiles(const TargetParts& parts) {
  DIR* dir = opendir(parts.dir.c_str());
  if (dir == nullptr) return;
  absl::Cleanup closer = [dir] { closedir(dir); };
  const std::string prefix =
      parts.temp_prefix.substr(parts.temp_prefix.rfind('/') + 1);
  while (const dirent* entry = readdir(dir)) {
    const absl::string_view entry_name = entry->d_name;
    if (!absl::StartsWith(entry_name, prefix) ||
        entry_name.size() != prefix.size() + 6) {
      continue;
    }
    const std::string stale = absl::StrCat(
        parts.temp_prefix.substr(0, parts.temp_prefix.rfind('/') + 1),
        entry_name);
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

}  // namespace

absl::Status CheckTableTarget(const std::string& path) {
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
    return ErrnoStatus(errno, absl::StrCat("cannot look at ", name));
  }
  const TargetParts parts = Parts(path);
  if (access(parts.dir.c_str(), W_OK | X_OK) != 0) {
    return ErrnoStatus(errno,
                       absl::StrCat("cannot write in the folder of ", name));
  }
  return absl::OkStatus();
}

namespace {
char g_sigbus_message[256];
size_t g_sigbus_message_size = 0;
int g_sigbus_exit_code = 1;

void OnSigbus(int) {
  // Async-signal-safe: one write and _exit.
  ssize_t ignored = write(2, g_sigbus_message, g_sigbus_message_size);
  (void)ignored;
  _exit(g_sigbus_exit_code);
}
}  // namespace

void ExitOnTruncatedTable(const char* program, int exit_code) {
  const int n = std::snprintf(
      g_sigbus_message, sizeof(g_sigbus_message),
      "%s: a table file was cut short while in use (read past its end)\n",
      program);
  g_sigbus_message_size =
      std::min<size_t>(n < 0 ? 0 : n, sizeof(g_sigbus_message) - 1);
  g_sigbus_exit_code = exit_code;
  struct sigaction action = {};
  action.sa_handler = OnSigbus;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, nullptr);
}

void RemovePendingTempFile() {
  if (g_pending) unlink(g_pending_temp);
}

uint64_t TableFileSize(uint64_t entries) {
  return FileBytes(kTableHeaderSize + RecordView::ValueBytes(entries) +
                   2 * entries);
}

uint64_t CompactTableFileSize(const PositionIndex& index) {
  return FileBytes(kTableHeaderSize + CompactLayout(index).bytes());
}

namespace {

std::string Serialize(const GameSpec& spec, Layout layout, uint64_t entries,
                      uint64_t reachable,
                      const std::vector<Section>& sections) {
  std::string bytes;
  EmitTable(spec, layout, entries, reachable, sections,
            [&](const void* data, size_t size) {
              bytes.append(static_cast<const char*>(data), size);
            });
  return bytes;
}

// Writes what `emit_all` emits (through its `emit` argument) to `path`
// atomically (see WriteTable in table.h).
absl::Status WriteAtomically(
    const std::string& path,
    const std::function<void(const std::function<void(const void*, size_t)>&)>&
        emit_all) {
  if (absl::Status s = CheckTableTarget(path); !s.ok()) return s;
  const std::string name = Printable(path);
  const TargetParts parts = Parts(path);
  RemoveStaleTempFiles(parts);
  // An existing table keeps its permissions and, where allowed, its owner;
  // a new one gets 0666 less the umask, as any new file.
  struct stat old;
  const bool replacing = stat(path.c_str(), &old) == 0;
  const mode_t mask = umask(0);
  umask(mask);
  const mode_t mode = replacing ? old.st_mode & 07777 : 0666 & ~mask;

  std::string temp = parts.temp_prefix + "XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) {
    return ErrnoStatus(errno,
                       absl::StrCat("cannot create a file beside ", name));
  }
  flock(fd, LOCK_EX);  // held until closed: not stale while written
  if (temp.size() <= PATH_MAX) {
    std::memcpy(g_pending_temp, temp.c_str(), temp.size() + 1);
    g_pending = 1;
  }
  int error = 0;
  // Whatever happens below, the descriptor is closed and, unless it was
  // renamed into place, the temporary file removed.
  absl::Cleanup cleanup = [&] {
    if (fd >= 0) close(fd);
    if (error != 0) unlink(temp.c_str());
    g_pending = 0;
  };
  emit_all([&](const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0 && error == 0) {
      const ssize_t n = write(fd, p, std::min<size_t>(size, 1 << 30));
      if (n < 0) {
        if (errno != EINTR) error = errno;
        continue;
      }
      p += n;
      size -= n;
    }
  });
  if (error == 0 && fchmod(fd, mode) != 0) error = errno;
  if (error == 0 && replacing && fchown(fd, old.st_uid, old.st_gid) != 0 &&
      errno != EPERM) {
    error = errno;
  }
  if (error == 0 && fsync(fd) != 0) error = errno;
  if (close(fd) != 0 && error == 0) error = errno;
  fd = -1;
  if (error == 0 && rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    return ErrnoStatus(error, absl::StrCat("cannot write ", name));
  }
  return absl::OkStatus();
}

absl::Status Write(const std::string& path, const GameSpec& spec, Layout layout,
                   uint64_t entries, uint64_t reachable,
                   const std::vector<Section>& sections) {
  return WriteAtomically(path, [&](const auto& emit) {
    EmitTable(spec, layout, entries, reachable, sections, emit);
  });
}

}  // namespace

absl::Status WriteSerializedTable(const std::string& path,
                                  const std::string& bytes) {
  return WriteAtomically(
      path, [&](const auto& emit) { emit(bytes.data(), bytes.size()); });
}

std::string SerializeTable(const GameSpec& spec, const RecordView& records,
                           uint64_t reachable) {
  return Serialize(spec, Layout::kFull, records.size, reachable,
                   FullSections(records));
}

std::string SerializeCompactTable(const GameSpec& spec,
                                  const std::vector<uint8_t>& compact,
                                  uint64_t reachable) {
  const PositionIndex index(*Game::Create(spec));
  return Serialize(spec, Layout::kCompact, index.size(), reachable,
                   {{compact.data(), compact.size()}});
}

absl::Status WriteTable(const std::string& path, const GameSpec& spec,
                        const RecordView& records, uint64_t reachable) {
  return Write(path, spec, Layout::kFull, records.size, reachable,
               FullSections(records));
}

absl::Status WriteCompactTable(const std::string& path, const GameSpec& spec,
                               const std::vector<uint8_t>& compact,
                               uint64_t reachable) {
  const PositionIndex index(*Game::Create(spec));
  return Write(path, spec, Layout::kCompact, index.size(), reachable,
               {{compact.data(), compact.size()}});
}

namespace {

// Emits the compressed layout (3): the directory (table.h), then the
// sections.
void EmitCompressed(const GameSpec& spec,
                    const std::vector<std::string>& sections,
                    uint64_t reachable, bool remoteness,
                    const std::function<void(const void*, size_t)>& emit) {
  std::string directory(16 * sections.size(), '\0');
  std::vector<Section> all = {
      {reinterpret_cast<const uint8_t*>(directory.data()), directory.size()}};
  uint64_t offset = kTableHeaderSize + directory.size();
  for (size_t s = 0; s < sections.size(); ++s) {
    uint8_t* entry = reinterpret_cast<uint8_t*>(directory.data()) + 16 * s;
    PutLe(entry, offset, 8);
    PutLe(entry + 8, sections[s].size(), 8);
    offset += sections[s].size();
    all.push_back({reinterpret_cast<const uint8_t*>(sections[s].data()),
                   sections[s].size()});
  }
  const PositionIndex index(*Game::Create(spec));
  EmitTable(spec, Layout::kCompressed, index.size(), reachable, all, emit,
            remoteness ? kFlagRemoteness : 0,
            {kTableHeaderSize, sections.size(), offset});
}

}  // namespace

std::string SerializeCompressedTable(const GameSpec& spec,
                                     const std::vector<std::string>& sections,
                                     uint64_t reachable, bool remoteness) {
  std::string bytes;
  EmitCompressed(spec, sections, reachable, remoteness,
                 [&](const void* data, size_t size) {
                   bytes.append(static_cast<const char*>(data), size);
                 });
  return bytes;
}

absl::Status WriteCompressedTable(const std::string& path, const GameSpec& spec,
                                  const std::vector<std::string>& sections,
                                  uint64_t reachable, bool remoteness) {
  return WriteAtomically(path, [&](const auto& emit) {
    EmitCompressed(spec, sections, reachable, remoteness, emit);
  });
}

uint64_t CompressedTableFileSize(const std::vector<std::string>& sections) {
  uint64_t data = kTableHeaderSize + 16 * sections.size();
  for (const std::string& section : sections) data += section.size();
  return FileBytes(data);
}

std::string SerializeCompressedTable(const Game& game,
                                     const RecordView& records,
                                     uint64_t reachable, bool remoteness) {
  return SerializeCompressedTable(
      game.spec(),
      CompressSections(game, PositionIndex(game), records, remoteness),
      reachable, remoteness);
}

absl::StatusOr<Table> Table::Load(const std::string& path,
                                  std::optional<GameSpec> expected) {
  const std::string name = Printable(path);
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, absl::StrCat("cannot open ", name));
  absl::Cleanup closer = [fd] { close(fd); };
  struct stat st;
  if (fstat(fd, &st) != 0) {
    return ErrnoStatus(errno, absl::StrCat("cannot stat ", name));
  }
  if (S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(name, " is a directory, not a table file"));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(name, " is ", FileKind(st.st_mode),
                     ", not a regular file: expected a table file"));
  }
  // The header first: a file that is no table, or not the size its header
  // calls for, is refused before anything is mapped.
  uint8_t header[kTableHeaderSize + 4];
  absl::StatusOr<uint64_t> got = ReadFully(fd, header, sizeof(header), name);
  if (!got.ok()) return got.status();
  if (absl::Status s = CheckMagicAndVersion(header, *got, name); !s.ok()) {
    return s;
  }
  absl::StatusOr<Header> parsed = ParseHeader(header, name);
  if (!parsed.ok()) return parsed.status();
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size != parsed->file_bytes) return SizeError(size, *parsed, name);
  // Mapped, not read: a probe reads the pages it needs (and checks them).
  void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    return errno == ENOMEM
               ? absl::ResourceExhaustedError(absl::StrFormat(
                     "not enough memory to map %s: %.2f GiB of address "
                     "space needed",
                     name, size / 1073741824.0))
               : ErrnoStatus(errno, absl::StrCat("cannot map ", name));
  }
  std::shared_ptr<const uint8_t> bytes(
      static_cast<const uint8_t*>(map),
      [size](const uint8_t* p) { munmap(const_cast<uint8_t*>(p), size); });
  absl::StatusOr<Table> table =
      FromMemory(std::move(bytes), size, expected, name);
  if (!table.ok()) return table;
  // The file stays open, so that CheckUnchanged() sees changes to it (and
  // not to another file renamed over its path).
  std::move(closer).Cancel();
  table->opened_ = std::shared_ptr<const FileStamp>(
      new FileStamp{fd, st.st_size, st.st_mtim, st.st_ctim},
      [](const FileStamp* f) {
        close(f->fd);
        delete f;
      });
  return table;
}

absl::Status Table::CheckUnchanged() const {
  if (opened_ == nullptr) return absl::OkStatus();
  struct stat st = {};
  if (fstat(opened_->fd, &st) != 0) {
    return absl::DataLossError(
        absl::StrCat("cannot check whether ", source_,
                     " changed while in use: ", std::strerror(errno)));
  }
  // The change time catches a write whose modification time was set back
  // (cp -p); it also moves when the file loses its name (mv over it, rm),
  // which changes nothing in it.
  const bool same =
      st.st_size == opened_->size &&
      st.st_mtim.tv_sec == opened_->mtime.tv_sec &&
      st.st_mtim.tv_nsec == opened_->mtime.tv_nsec &&
      (st.st_nlink == 0 || (st.st_ctim.tv_sec == opened_->ctime.tv_sec &&
                            st.st_ctim.tv_nsec == opened_->ctime.tv_nsec));
  if (same) return absl::OkStatus();
  if (st.st_size < opened_->size) {
    return absl::DataLossError(
        absl::StrCat(source_, " was cut short while in use (", st.st_size,
                     " bytes, ", opened_->size,
                     " when it was opened): its answers can no longer be "
                     "trusted; open it again"));
  }
  return absl::DataLossError(absl::StrCat(
      source_,
      " was changed while in use (its size or times differ from when it "
      "was opened): its answers can no longer be trusted; open it again"));
}

absl::StatusOr<Table> Table::FromBytes(std::string bytes,
                                       std::optional<GameSpec> expected,
                                       absl::string_view source,
                                       uint64_t check_whole_below) {
  std::shared_ptr<uint8_t> copy(
      static_cast<uint8_t*>(std::malloc(std::max<size_t>(bytes.size(), 1))),
      [](uint8_t* p) { std::free(p); });
  if (copy == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("not enough memory to load %s: %.2f GiB needed", source,
                        bytes.size() / 1073741824.0));
  }
  std::memcpy(copy.get(), bytes.data(), bytes.size());
  return FromMemory(std::move(copy), bytes.size(), expected, source,
                    check_whole_below);
}

absl::StatusOr<Table> Table::FromMemory(std::shared_ptr<const uint8_t> bytes,
                                        uint64_t size,
                                        std::optional<GameSpec> expected,
                                        absl::string_view source,
                                        uint64_t check_whole_below) {
  const uint8_t* data = bytes.get();
  if (absl::Status s = CheckMagicAndVersion(data, size, source); !s.ok()) {
    return s;
  }
  absl::StatusOr<Header> header = ParseHeader(data, source);
  if (!header.ok()) return header.status();
  if (size != header->file_bytes) return SizeError(size, *header, source);
  Table table(header->game, std::move(bytes), size, header->reachable,
              header->layout, source);
  table.checks_ = std::make_shared<PageChecks>(data, header->data_bytes);
  // A small table is checked whole now; a big one page by page as probes
  // read it, the header's page first.
  if (size <= check_whole_below) {
    if (absl::Status s = table.CheckAll(); !s.ok()) return s;
  } else if (!table.checks_->Check(data, kTableHeaderSize)) {
    return table.DamagedError();
  }
  if (header->layout == Layout::kCompressed) {
    absl::StatusOr<CompressedSections> c =
        OpenCompressed(table.game_, table.index_, data, header->data_bytes,
                       header->remoteness, *table.checks_, source);
    if (!c.ok()) return c.status();
    table.compressed_ = *std::move(c);
  }
  if (expected.has_value()) {
    if (absl::Status s = table.ExpectGame(*expected, source); !s.ok()) {
      return s;
    }
  }
  return table;
}

absl::Status Table::CheckAll() const {
  const uint8_t* data = this->data();
  const uint32_t stored = GetLe(data + size_ - 4, 4);
  const uint32_t computed = Crc32(0, data, size_ - 4);
  if (stored != computed) {
    return absl::DataLossError(absl::StrFormat(
        "%s is corrupt: checksum 0x%08x stored, 0x%08x computed", source_,
        stored, computed));
  }
  if (!checks_->CheckAll()) return DamagedError();
  return absl::OkStatus();
}

absl::Status Table::DamagedError(int64_t page) const {
  if (page < 0) page = checks_->damaged_page();
  return absl::DataLossError(absl::StrFormat(
      "%s is corrupt: page %d (bytes %d to %d) fails its checksum; verify "
      "checks the whole file",
      source_, page, page * kPageBytes,
      std::min<uint64_t>((page + 1) * kPageBytes, size_) - 1));
}

absl::Status Table::ExpectGame(const GameSpec& expected,
                               absl::string_view source) const {
  if (expected == game_.spec()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(source, " is a table for ", game_.spec().Name(),
                   ", not for the game asked for, ", expected.Name()));
}

RecordView Table::view() const {
  assert(layout_ == Layout::kFull);
  const uint8_t* data = this->data();
  const uint64_t e = index_.size();
  const uint64_t v = RecordView::ValueBytes(e);
  return {e, data + kTableHeaderSize, data + kTableHeaderSize + v};
}

const char* Table::layout_name() const {
  switch (layout_) {
    case Layout::kFull:
      return "full";
    case Layout::kCompact:
      return "compact";
    case Layout::kCompressed:
      return "compressed";
  }
  return "unknown";
}

Table::StoredAt Table::Locate(const Position& p) const {
  assert(p.stones() % 2 == 0 && !game_.IsTerminal(p));
  StoredAt at;
  const Position c = game_.Canonical(p, &at.symmetry);
  at.entry = index_.Index(c) - index_.layer_offset(p.stones());
  return at;
}

int Table::Children(const Position& p, bool remoteness, Child* out) const {
  int n = 0, stored = 0;
  uint64_t entries[kMaxMoves] = {};
  for (uint32_t s = game_.LegalMask(p); s != 0; s &= s - 1) {
    assert(n < kMaxMoves);
    Child& c = out[n++];
    c.cell = absl::countr_zero(s);
    c.position = Game::Play(p, c.cell);
    c.end = game_.Primitive(c.position);
    if (!c.end.has_value()) {
      c.at = Locate(c.position);
      entries[stored++] = c.at.entry;
    }
  }
  Prefetch(p.stones() + 1, entries, stored,
           kValueSection | (remoteness ? kRemotenessSection : 0));
  return n;
}

void Table::Prefetch(int stones, const uint64_t* entries, int n,
                     int sections) const {
  if (!compressed_->has_remoteness()) sections &= ~kRemotenessSection;
  const RunReader* readers[3];
  int count = 0;
  if (sections & kValueSection) {
    readers[count++] = &compressed_->value_reader(stones);
  }
  if (sections & kMoveSection) {
    readers[count++] = &compressed_->move_reader(stones);
  }
  if (sections & kRemotenessSection) {
    readers[count++] = &compressed_->remoteness_reader(stones);
  }
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < n; ++i) readers[k]->Prefetch(entries[i]);
  }
  for (int k = 0; k < count; ++k) {
    for (int i = 0; i < n; ++i) readers[k]->PrefetchStream(entries[i]);
  }
}

absl::StatusOr<Record> Table::StoredRecord(const Position& p, StoredParts parts,
                                           int* symmetry_out) const {
  const StoredAt at = Locate(p);
  if (symmetry_out != nullptr) *symmetry_out = at.symmetry;
  return StoredRecordAt(p, at, parts);
}

absl::StatusOr<Record> Table::StoredRecordAt(const Position& p, StoredAt at,
                                             StoredParts parts) const {
  const int symmetry = at.symmetry;
  const uint64_t entry = at.entry;
  const int stones = p.stones();
  const bool want_move = parts == StoredParts::kAll;
  if (want_move) {  // one record: overlap its sections' misses
    Prefetch(stones, &entry, 1,
             kValueSection | kMoveSection | kRemotenessSection);
  }
  const int value = compressed_->value(stones, entry);
  const int move = want_move ? compressed_->move(stones, entry) : 0;
  const int plies =
      parts != StoredParts::kValue && compressed_->has_remoteness()
          ? compressed_->remoteness(stones, entry)
          : kUnknownRemoteness;
  Record r{static_cast<Value>(value + 1), plies, kNoMove};
  // The stored move is the canonical image's: map it back to p (with
  // gravity the only other symmetry is the mirror).
  if (want_move && game_.spec().gravity) {
    if (move >= 0 && move < game_.width()) {
      const int column = symmetry == 0 ? move : game_.width() - 1 - move;
      absl::StatusOr<int> cell = game_.DropCell(p, column);
      if (cell.ok()) r.best_move = *cell;
    }
  } else if (want_move && move >= 0) {
    const Symmetry& s = game_.symmetries()[symmetry];
    for (int cell = 0; cell < game_.cells(); ++cell) {
      if (s[cell] == move) r.best_move = cell;
    }
  }
  if (value < 0 || value > 2 ||
      (want_move &&
       (r.best_move == kNoMove || !(game_.LegalMask(p) >> r.best_move & 1))) ||
      (plies != kUnknownRemoteness &&
       (plies < 1 || plies > game_.cells() - stones))) {
    return absl::DataLossError(
        absl::StrCat("the table's record for ", game_.Format(p),
                     " is damaged or impossible: value ", value, ", move ",
                     move, ", remoteness ", plies));
  }
  return r;
}

absl::StatusOr<bool> Table::MoveTies(const Position& child,
                                     const Record& parent) const {
  // The child (O to move, or over) and its own children, by value first:
  // most moves that do not tie are found out after a lookup or two.
  if (const std::optional<Value> end = game_.Primitive(child)) {
    return Negate(*end) == parent.value &&
           (parent.remoteness == kUnknownRemoteness || parent.remoteness == 1);
  }
  const bool plies = parent.remoteness != kUnknownRemoteness;
  // The child's value is the best of Negate(grandchild) over its moves; it
  // must be Negate(parent.value).
  const Value want = Negate(parent.value);
  bool any_equal = false;
  int best_plies = parent.value == Value::kWin ? 0 : 1 << 20;
  Child grandchildren[kMaxMoves];
  const int n = Children(child, plies, grandchildren);
  for (int i = 0; i < n; ++i) {
    const Child& g = grandchildren[i];
    Record gr{Value::kUnreachable, 0, kNoMove};
    if (g.end.has_value()) {
      gr.value = *g.end;
    } else {
      absl::StatusOr<Record> stored = StoredRecordAt(
          g.position, g.at,
          plies ? StoredParts::kValueAndRemoteness : StoredParts::kValue);
      if (!stored.ok()) return stored.status();
      gr = *stored;
    }
    const Value v = Negate(gr.value);  // for the child's side
    if (v > want) return false;        // the child does better than that
    if (v < want) continue;
    any_equal = true;
    // Among equal values the child's policy takes the fastest win or the
    // slowest loss (a draw's remoteness does not count).
    if (want == Value::kWin)
      best_plies = std::min(best_plies, gr.remoteness + 1);
    if (want == Value::kLoss)
      best_plies = std::max(best_plies, gr.remoteness + 1);
  }
  if (!any_equal) return false;
  return !plies || want == Value::kDraw || best_plies + 1 == parent.remoteness;
}

absl::StatusOr<Record> Table::ProbeCompressed(const Position& p) const {
  if (const std::optional<Value> end = game_.Primitive(p)) {
    return Record{*end, 0, kNoMove};
  }
  const bool plies = compressed_->has_remoteness();
  if (p.stones() % 2 == 0) {
    int symmetry = 0;
    absl::StatusOr<Record> r = StoredRecord(p, StoredParts::kAll, &symmetry);
    if (!r.ok()) return r;
    // The stored move is the canonical image's, mapped back; among equally
    // good moves the policy takes the lowest cell of the position as given,
    // so a lower cell may tie with it here. Only a cell whose image lies
    // past the stored move can: the stored move is the lowest tie of the
    // image (so none when the position is its own canonical image).
    const Symmetry& image = game_.symmetries()[symmetry];
    const int stored = image[r->best_move];
    for (uint32_t s = game_.LegalMask(p) & ((uint32_t{1} << r->best_move) - 1);
         s != 0; s &= s - 1) {
      const int cell = absl::countr_zero(s);
      if (image[cell] < stored) continue;
      absl::StatusOr<bool> ties = MoveTies(Game::Play(p, cell), *r);
      if (!ties.ok()) return ties.status();
      if (*ties) {
        r->best_move = cell;
        break;
      }
    }
    return r;
  }
  // Odd layers: the best child by the policy. Values first, one lookup a
  // child; remoteness only for the children with the best value, and not
  // for a draw, which lasts until the board is full.
  Child children[kMaxMoves];
  const int n = Children(p, /*remoteness=*/false, children);
  Value best = Value::kUnreachable;
  uint32_t best_children = 0;  // bit i: children[i]
  for (int i = 0; i < n; ++i) {
    const Child& c = children[i];
    Value v;
    if (c.end.has_value()) {
      v = Negate(*c.end);
    } else {
      absl::StatusOr<Record> stored =
          StoredRecordAt(c.position, c.at, StoredParts::kValue);
      if (!stored.ok()) return stored.status();
      v = Negate(stored->value);
    }
    if (v > best) {
      best = v;
      best_children = 0;
    }
    if (v == best) best_children |= uint32_t{1} << i;
  }
  const int lowest = children[absl::countr_zero(best_children)].cell;
  if (!plies) return Record{best, kUnknownRemoteness, lowest};
  if (best == Value::kDraw) {
    return Record{best, game_.cells() - p.stones(), lowest};
  }
  Record r{best, 0, kNoMove};
  int best_score = -(1 << 20);
  uint64_t entries[kMaxMoves] = {};  // of the best children not over
  int stored = 0;
  for (uint32_t s = best_children; s != 0; s &= s - 1) {
    const Child& c = children[absl::countr_zero(s)];
    if (!c.end.has_value()) entries[stored++] = c.at.entry;
  }
  Prefetch(p.stones() + 1, entries, stored, kRemotenessSection);
  for (uint32_t s = best_children; s != 0; s &= s - 1) {
    const Child& c = children[absl::countr_zero(s)];
    int plies_after = 0;  // a finished game
    if (!c.end.has_value()) {
      absl::StatusOr<Record> stored =
          StoredRecordAt(c.position, c.at, StoredParts::kValueAndRemoteness);
      if (!stored.ok()) return stored.status();
      plies_after = stored->remoteness;
    }
    const int score = PolicyScore(best, plies_after + 1);
    if (score > best_score) {
      best_score = score;
      r.remoteness = plies_after + 1;
      r.best_move = c.cell;
    }
  }
  return r;
}

Value Table::ValueOf(const Position& p) const {
  if (const std::optional<Value> end = game_.Primitive(p)) return *end;
  if (layout_ == Layout::kFull) {
    const uint64_t i = index_.Index(p);
    return FullReadable(i) ? view().GetValue(i) : Value::kUnreachable;
  }
  if (layout_ == Layout::kCompressed) {
    if (p.stones() % 2 == 0) {
      absl::StatusOr<Record> r = StoredRecord(p, StoredParts::kValue);
      return r.ok() ? r->value : Value::kUnreachable;
    }
  } else if (p.stones() % 2 == 0) {
    return CompactValue(index_.Index(p), p.stones());
  }
  // Odd layers are not stored: the best of the children, which are.
  Value best = Value::kUnreachable;
  if (layout_ == Layout::kCompressed) {
    Child children[kMaxMoves];
    const int n = Children(p, /*remoteness=*/false, children);
    for (int i = 0; i < n && best != Value::kWin; ++i) {
      const Child& c = children[i];
      Value v = Value::kUnreachable;
      if (c.end.has_value()) {
        v = *c.end;
      } else if (absl::StatusOr<Record> r =
                     StoredRecordAt(c.position, c.at, StoredParts::kValue);
                 r.ok()) {
        v = r->value;
      }
      best = std::max(best, Negate(v));
    }
    return best;
  }
  for (uint32_t s = game_.LegalMask(p); s != 0 && best != Value::kWin;
       s &= s - 1) {
    best = std::max(best, Negate(ValueOf(Game::Play(p, absl::countr_zero(s)))));
  }
  return best;
}

absl::StatusOr<Record> Table::Probe(const Position& p) const {
  // A full table's probe reads one record and checks its pages itself; a
  // table checked whole has no damaged page left to read.
  if (layout_ == Layout::kFull || checks_->all_checked()) {
    return ProbeRecord(p);
  }
  // Elsewhere a page that fails its check reads as nothing (unreachable, no
  // remoteness), and what a probe derives from it would be wrong: any such
  // read during this probe fails it, whatever it returned.
  const uint64_t damaged_before = PageChecks::DamagedReadsOnThisThread();
  absl::StatusOr<Record> r = ProbeRecord(p);
  if (PageChecks::DamagedReadsOnThisThread() != damaged_before) {
    return DamagedError(PageChecks::LastDamagedPageOnThisThread());
  }
  return r;
}

bool Table::FullReadable(uint64_t i) const {
  if (checks_->all_checked()) return true;
  const RecordView v = view();
  return Readable(v.values + (i >> 2), 1) && Readable(v.details + 2 * i, 2);
}

absl::StatusOr<Record> Table::ProbeRecord(const Position& p) const {
  if (layout_ == Layout::kCompressed) return ProbeCompressed(p);
  if (layout_ == Layout::kCompact) {
    Record r{ValueOf(p), kUnknownRemoteness, kNoMove};
    for (uint32_t s = game_.LegalMask(p); s != 0; s &= s - 1) {
      const int cell = absl::countr_zero(s);
      if (Negate(ValueOf(Game::Play(p, cell))) == r.value) {
        r.best_move = cell;
        break;
      }
    }
    if (r.value == Value::kUnreachable ||
        (r.best_move == kNoMove) != game_.IsTerminal(p)) {
      return absl::DataLossError(absl::StrCat(
          "the table's values around ", game_.Format(p),
          " are impossible: no move keeps its value, ", ValueName(r.value)));
    }
    return r;
  }
  const uint64_t i = index_.Index(p);
  if (!FullReadable(i)) return DamagedError();
  const Record r = view().Get(i);
  if (r.value == Value::kUnreachable) {
    return absl::NotFoundError(
        absl::StrCat("the table marks ", game_.Format(p), " as unreachable"));
  }
  const bool terminal = game_.IsTerminal(p);
  const bool move_ok = terminal ? r.best_move == kNoMove
                                : r.best_move < game_.cells() &&
                                      (game_.LegalMask(p) >> r.best_move & 1);
  if (!move_ok || r.remoteness > game_.cells() - p.stones() ||
      (terminal != (r.remoteness == 0))) {
    return absl::DataLossError(absl::StrCat(
        "the table's record for ", game_.Format(p), " is impossible: ",
        ValueName(r.value), " in ", r.remoteness, ", best move ", r.best_move));
  }
  return r;
}

}  // namespace mnk
