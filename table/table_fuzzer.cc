// libFuzzer target for the table reader: the input (after its first byte) is
// a whole table file. When the first byte is odd the checksum is made right
// first, so that damaged headers and records get past it and are read. When
// bit 1 is set the bytes go through a file and Table::Load (the header read
// first, the size checked against it before the rest is read); headers of
// huge games are reachable both ways. Loading must fail cleanly, agree
// between the two paths, or give a table whose every probe is safe.
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rules/game/game.h"
#include "table/table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1) != 0 && bytes.size() >= 4) {
    const size_t body = bytes.size() - 4;
    const uint32_t crc =
        crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), body);
    for (int i = 0; i < 4; ++i)
      bytes[body + i] = static_cast<char>(crc >> 8 * i);
  }
  absl::StatusOr<mnk::Table> table = mnk::Table::FromBytes(bytes);
  if ((data[0] & 2) != 0) {
    char path[] = "/tmp/table_fuzzer.XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return 0;
    const bool written = write(fd, bytes.data(), bytes.size()) ==
                         static_cast<ssize_t>(bytes.size());
    close(fd);
    absl::StatusOr<mnk::Table> loaded = mnk::Table::Load(path);
    unlink(path);
    // The same verdict, and the same message but for the name.
    if (written && loaded.ok() != table.ok()) std::abort();
    if (written && !loaded.ok() &&
        loaded.status().code() != table.status().code()) {
      std::abort();
    }
  }
  if (!table.ok()) return 0;
  const uint64_t n = std::min<uint64_t>(table->index().size(), 20000);
  for (uint64_t i = 0; i < n; ++i) {
    const mnk::Position p = table->index().At(i);
    if (table->game().IsReachable(p)) table->Probe(p).IgnoreError();
  }
  return 0;
}
