#include "table/table.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/game/printable.h"
#include "table/file_io.h"
#include "table/file_kind.h"

namespace mnk {
namespace {

// Reads up to `size` bytes (fewer only at the end of the file).
absl::StatusOr<uint64_t> ReadUpTo(int fd, uint8_t* out, uint64_t size,
                                  absl::string_view name) {
  uint64_t done = 0;
  while (done < size) {
    const ssize_t n =
        read(fd, out + done, std::min<uint64_t>(size - done, 1 << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::ErrnoToStatus(errno, absl::StrCat("cannot read ", name));
    }
    if (n == 0) break;
    done += n;
  }
  return done;
}

// Opens a table file for reading: its descriptor, and its stat in *st.
// Refuses directories and special files.
absl::StatusOr<int> OpenRegularFile(const std::string& path,
                                    absl::string_view name, struct stat* st) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", name));
  }
  absl::Cleanup closer = [fd] { close(fd); };
  if (fstat(fd, st) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot stat ", name));
  }
  if (S_ISDIR(st->st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(name, " is a directory, not a table file"));
  }
  if (!S_ISREG(st->st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(name, " is ", FileKind(st->st_mode),
                     ", not a regular file: expected a table file"));
  }
  std::move(closer).Cancel();
  return fd;
}

// The file mapped, not read: a probe reads the pages it needs (and checks
// them).
absl::StatusOr<std::shared_ptr<const uint8_t>> Map(int fd, uint64_t size,
                                                   absl::string_view name) {
  void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    return errno == ENOMEM
               ? absl::ResourceExhaustedError(absl::StrFormat(
                     "not enough memory to map %s: %.2f GiB of address "
                     "space needed",
                     name, size / 1073741824.0))
               : absl::ErrnoToStatus(errno, absl::StrCat("cannot map ", name));
  }
  return std::shared_ptr<const uint8_t>(
      static_cast<const uint8_t*>(map),
      [size](const uint8_t* p) { munmap(const_cast<uint8_t*>(p), size); });
}

// The memory the kernel says it can give without swapping (MemAvailable in
// /proc/meminfo, page cache included); nullopt when it does not say.
std::optional<uint64_t> AvailableMemory() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return std::nullopt;
  std::optional<uint64_t> bytes;
  char line[256];
  unsigned long long kib = 0;
  while (!bytes.has_value() && std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
      bytes = uint64_t{kib} * 1024;
    }
  }
  std::fclose(f);
  return bytes;
}

// The file read into an anonymous mapping on huge pages (advice: the
// kernel may give 4 KiB pages). Refused unless the memory is available:
// the kernel would grant the mapping and end the process mid-read.
absl::StatusOr<std::shared_ptr<const uint8_t>> ReadIntoMemory(
    int fd, uint64_t size, absl::string_view name) {
  constexpr uint64_t kHugePage = uint64_t{2} << 20;
  const uint64_t mapped = (size + kHugePage - 1) / kHugePage * kHugePage;
  const std::optional<uint64_t> available = AvailableMemory();
  const auto no_memory = [&](const std::string& why) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("not enough memory to load %s: %.2f GiB needed, %s",
                        name, mapped / 1073741824.0, why));
  };
  if (available.has_value() && mapped > *available) {
    return no_memory(
        absl::StrFormat("%.2f GiB available", *available / 1073741824.0));
  }
  void* map = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    // Memory there is: a limit on the process's address space (ulimit -v)
    // or the kernel refused.
    return no_memory(
        absl::StrCat("and the kernel refused it: ", std::strerror(errno),
                     " (is the address space limited, ulimit "
                     "-v?)"));
  }
  std::shared_ptr<const uint8_t> bytes(
      static_cast<const uint8_t*>(map),
      [mapped](const uint8_t* p) { munmap(const_cast<uint8_t*>(p), mapped); });
  madvise(map, mapped, MADV_HUGEPAGE);  // advice only
  if (lseek(fd, 0, SEEK_SET) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot read ", name));
  }
  absl::StatusOr<uint64_t> got =
      ReadUpTo(fd, static_cast<uint8_t*>(map), size, name);
  if (!got.ok()) return got.status();
  if (*got != size) {
    return absl::DataLossError(absl::StrCat(
        name, " was cut short while read: ", *got, " bytes, expected ", size));
  }
  return bytes;
}

absl::Status SizeError(uint64_t size, const CheckedHeader& header,
                       absl::string_view source) {
  return absl::DataLossError(absl::StrCat(
      source, " is ", size < header.file_bytes ? "truncated" : "too long", ": ",
      size, " bytes, expected ", header.file_bytes, " for game ",
      header.game.spec().Name()));
}

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

absl::StatusOr<Table> Table::Load(const std::string& path,
                                  std::optional<GameSpec> expected,
                                  Placement placement) {
  const std::string name = Printable(path);
  struct stat st;
  absl::StatusOr<int> fd = OpenRegularFile(path, name, &st);
  if (!fd.ok()) return fd.status();
  absl::Cleanup closer = [fd = *fd] { close(fd); };
  // The header first: a file that is no table, or not the size its header
  // calls for, is refused before anything is mapped.
  uint8_t header[kTableHeaderSize + 4];
  absl::StatusOr<uint64_t> got = ReadUpTo(*fd, header, sizeof(header), name);
  if (!got.ok()) return got.status();
  absl::StatusOr<CheckedHeader> checked = CheckHeader(header, *got, name);
  if (!checked.ok()) return checked.status();
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size != checked->file_bytes) return SizeError(size, *checked, name);
  absl::StatusOr<std::shared_ptr<const uint8_t>> bytes =
      placement == Placement::kMapped ? Map(*fd, size, name)
                                      : ReadIntoMemory(*fd, size, name);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<Table> table =
      FromMemory(*std::move(bytes), size, expected, name);
  if (!table.ok() || placement == Placement::kInMemory) return table;
  // The file stays open, so that CheckUnchanged() sees changes to it (and
  // not to another file renamed over its path).
  std::move(closer).Cancel();
  table->opened_ = std::shared_ptr<const FileStamp>(
      new FileStamp{*fd, st.st_size, st.st_mtim, st.st_ctim},
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
        absl::StrCat("cannot check whether ", t_->source,
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
        absl::StrCat(t_->source, " was cut short while in use (", st.st_size,
                     " bytes, ", opened_->size,
                     " when it was opened): its answers can no longer be "
                     "trusted; open it again"));
  }
  return absl::DataLossError(absl::StrCat(
      t_->source,
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

absl::StatusOr<Table> Table::FromStatic(absl::string_view bytes,
                                        std::optional<GameSpec> expected,
                                        absl::string_view source) {
  // Not owned: nothing to free.
  std::shared_ptr<const uint8_t> in_place(
      reinterpret_cast<const uint8_t*>(bytes.data()), [](const uint8_t*) {});
  return FromMemory(std::move(in_place), bytes.size(), expected, source);
}

absl::StatusOr<Table> Table::FromMemory(std::shared_ptr<const uint8_t> bytes,
                                        uint64_t size,
                                        std::optional<GameSpec> expected,
                                        absl::string_view source,
                                        uint64_t check_whole_below) {
  absl::StatusOr<CheckedHeader> header = CheckHeader(bytes.get(), size, source);
  if (!header.ok()) return header.status();
  if (size != header->file_bytes) return SizeError(size, *header, source);
  auto t = std::make_shared<const TableBytes>(*header, std::move(bytes), size,
                                              std::string(source));
  // A small table is checked whole now; a big one page by page as probes
  // read it, the header's page first.
  if (size <= check_whole_below) {
    if (absl::Status s = CheckEveryByte(*t); !s.ok()) return s;
  } else if (!t->Readable(t->data(), kTableHeaderSize)) {
    return t->DamagedError();
  }
  absl::StatusOr<Reader> reader = OpenReader(*t);
  if (!reader.ok()) return reader.status();
  Table table(std::move(t), *std::move(reader));
  if (expected.has_value()) {
    if (absl::Status s = table.ExpectGame(*expected, source); !s.ok()) {
      return s;
    }
  }
  return table;
}

absl::StatusOr<Table::Reader> Table::OpenReader(const TableBytes& t) {
  switch (t.layout.layout()) {
    case Layout::kFull:
      return Reader(FullReader(t));
    case Layout::kCompact:
      return Reader(CompactReader(t));
    case Layout::kBook:
      return Reader(BookReader(t));
    case Layout::kCompressed:
      break;
  }
  absl::StatusOr<CompressedReader> c = CompressedReader::Open(t);
  if (!c.ok()) return c.status();
  return Reader(*std::move(c));
}

absl::Status Table::CheckEveryByte(const TableBytes& t) {
  const uint32_t stored = GetLittleEndian(t.data() + t.size - 4, 4);
  const uint32_t computed = Crc32(0, t.data(), t.size - 4);
  if (stored != computed) {
    return absl::DataLossError(absl::StrFormat(
        "%s is corrupt: checksum 0x%08x stored, 0x%08x computed", t.source,
        stored, computed));
  }
  if (!t.checks.CheckAll()) return t.DamagedError();
  return absl::OkStatus();
}

absl::Status Table::CheckAll() const { return CheckEveryByte(*t_); }

absl::Status Table::ExpectGame(const GameSpec& expected,
                               absl::string_view source) const {
  if (expected == game().spec()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(source, " is a table for ", game().spec().Name(),
                   ", not for the game asked for, ", expected.Name()));
}

absl::StatusOr<Record> Table::Probe(const Position& p) const {
  auto probe = [&] {
    return std::visit([&](const auto& r) { return r.Probe(p); }, reader_);
  };
  // A full table's probe reads one record and checks its pages itself; a
  // table checked whole has no damaged page left to read.
  if (layout() == Layout::kFull || t_->checks.all_checked()) return probe();
  // Elsewhere a page that fails its check reads as nothing (unreachable, no
  // remoteness), and what a probe derives from it would be wrong: any such
  // read during this probe fails it, whatever it returned.
  const uint64_t damaged_before = PageChecks::DamagedReadsOnThisThread();
  absl::StatusOr<Record> r = probe();
  if (PageChecks::DamagedReadsOnThisThread() != damaged_before) {
    return t_->DamagedError(PageChecks::LastDamagedPageOnThisThread());
  }
  return r;
}

Value Table::ValueOf(const Position& p) const {
  return std::visit([&](const auto& r) { return r.ValueOf(p); }, reader_);
}

}  // namespace mnk
