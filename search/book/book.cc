#include "search/book/book.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/numeric/bits.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/parallel/parallel.h"
#include "rules/game/policy.h"
#include "rules/index/index.h"
#include "table/file_io.h"
#include "table/page_checks.h"
#include "table/readers.h"
#include "table/record.h"

namespace mnk {
namespace {

constexpr size_t kLogRecordBytes = 16;

absl::Status ErrnoError(absl::string_view what, const std::string& path) {
  return absl::ErrnoToStatus(errno, absl::StrCat(what, " ", path));
}

uint8_t RecordByte(const BookEntry& e) {
  return static_cast<uint8_t>(static_cast<int>(e.value) << kRemotenessBits |
                              e.remoteness);
}

BookEntry FromByte(uint8_t byte) {
  return {static_cast<Value>(byte >> kRemotenessBits), byte & kMaxRemoteness};
}

// Reads the sound records at the start of `bytes` (a log, drawn in book.h)
// into *entries: the number of bytes they take.
size_t ReadRecords(absl::string_view bytes,
                   absl::flat_hash_map<uint64_t, uint8_t>* entries) {
  size_t sound = 0;
  for (; sound + kLogRecordBytes <= bytes.size(); sound += kLogRecordBytes) {
    const uint8_t* r = reinterpret_cast<const uint8_t*>(bytes.data()) + sound;
    if (Crc32(0, r, 12) != GetLittleEndian(r + 12, 4)) break;
    (*entries)[GetLittleEndian(r, 8)] = r[8];
  }
  return sound;
}

// Reads the records of the log at `path` (none when there is no such file).
absl::Status ReadLog(const std::string& path,
                     absl::flat_hash_map<uint64_t, uint8_t>* entries) {
  absl::StatusOr<std::string> bytes = ReadWholeFile(path);
  if (absl::IsNotFound(bytes.status())) return absl::OkStatus();
  if (!bytes.ok()) return bytes.status();
  ReadRecords(*bytes, entries);
  return absl::OkStatus();
}

// This process's log of solved positions in the work dir.
class SolvedLog {
 public:
  // Opens or creates the log at `path`, locked for this process alone
  // (kFailedPrecondition when another holds it), reading its sound records
  // into *entries and cutting off anything after them.
  static absl::StatusOr<std::unique_ptr<SolvedLog>> Open(
      const std::string& path,
      absl::flat_hash_map<uint64_t, uint8_t>* entries) {
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return ErrnoError("cannot open", path);
    auto log = std::unique_ptr<SolvedLog>(new SolvedLog(fd, path));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) return ErrnoError("cannot lock", path);
      return absl::FailedPreconditionError(absl::StrCat(
          "another process is building this book in the same work dir (it "
          "holds ",
          path, "); wait for it to end or stop it, then run again"));
    }
    absl::StatusOr<std::string> bytes = ReadWholeFile(path);
    if (!bytes.ok()) return bytes.status();
    const size_t sound = ReadRecords(*bytes, entries);
    if (ftruncate(fd, static_cast<off_t>(sound)) != 0 ||
        lseek(fd, 0, SEEK_END) < 0) {
      return ErrnoError("cannot cut the torn end of", path);
    }
    return log;
  }
  ~SolvedLog() { close(fd_); }

  void Append(uint64_t key, uint8_t record) {
    uint8_t r[kLogRecordBytes] = {};
    PutLittleEndian(r, key, 8);
    r[8] = record;
    PutLittleEndian(r + 12, Crc32(0, r, 12), 4);
    pending_.append(reinterpret_cast<const char*>(r), sizeof(r));
  }
  // Writes what was appended and syncs it.
  absl::Status Sync() {
    for (size_t done = 0; done < pending_.size();) {
      const ssize_t n =
          write(fd_, pending_.data() + done, pending_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return ErrnoError("cannot write", path_);
      done += static_cast<size_t>(n);
    }
    pending_.clear();
    if (fsync(fd_) != 0) return ErrnoError("cannot sync", path_);
    return absl::OkStatus();
  }

 private:
  SolvedLog(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  const int fd_;
  const std::string path_;
  std::string pending_;
};

class BookBuilder {
 public:
  BookBuilder(absl::Span<ConnectSearch* const> searches,
              const BookOptions& options, Cluster& cluster)
      : searches_(searches.begin(), searches.end()),
        game_(searches[0]->game()),
        index_(game_),
        options_(options),
        cluster_(cluster) {}

  absl::Status Run() {
    if (!options_.work_dir.empty()) {
      if (absl::Status s = Agree(OpenLogs()); !s.ok()) return s;
      progress_.from_log = entries_.size();
    }
    if (options_.seed != nullptr) Seed(*options_.seed);
    return options_.every_position ? SolveLayer() : FollowBothSides();
  }

  // The entries of this book (the log may hold more: a deeper book's), by
  // key: the same bytes whatever the log held.
  BookEntries Entries() const {
    std::vector<std::pair<uint64_t, uint8_t>> sorted;
    for (const uint64_t key : used_) sorted.emplace_back(key, entries_.at(key));
    std::sort(sorted.begin(), sorted.end());
    BookEntries book;
    for (const auto& [key, record] : sorted) {
      book.keys.push_back(key);
      book.records.push_back(record);
    }
    return book;
  }

 private:
  // The work dir made if need be, this process's log opened, and the
  // records of every log of the game there read.
  absl::Status OpenLogs() {
    const std::string& dir = options_.work_dir;
    if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
      return ErrnoError("cannot make the work dir", dir);
    }
    absl::StatusOr<std::unique_ptr<SolvedLog>> log =
        SolvedLog::Open(LogPath(cluster_.rank()), &entries_);
    if (!log.ok()) return log.status();
    log_ = *std::move(log);
    DIR* listing = opendir(dir.c_str());
    if (listing == nullptr) return ErrnoError("cannot list", dir);
    const std::string stem = absl::StrCat("book-", game_.spec().FileStem());
    const std::string mine = LogPath(cluster_.rank());
    absl::Status status;
    while (const dirent* e = readdir(listing)) {
      const std::string path = absl::StrCat(dir, "/", e->d_name);
      const absl::string_view name = e->d_name;
      const bool game_log =
          name == stem + ".log" || (absl::StartsWith(name, stem + "-rank") &&
                                    absl::EndsWith(name, ".log"));
      if (game_log && path != mine) status.Update(ReadLog(path, &entries_));
    }
    closedir(listing);
    return status;
  }

  std::string LogPath(int rank) const {
    const std::string stem = game_.spec().FileStem();
    return rank == 0 ? absl::StrCat(options_.work_dir, "/book-", stem, ".log")
                     : absl::StrCat(options_.work_dir, "/book-", stem, "-rank",
                                    rank, ".log");
  }

  // The games where the perfect player plays the policy and the other side
  // anything, for both sides at once, ply by ply up to P: whenever a run
  // stops, its log holds a complete book of the plies before.
  absl::Status FollowBothSides() {
    std::vector<Position> frontier[2] = {{Position()}, {Position()}};
    for (int ply = 0; ply <= options_.plies; ++ply) {
      progress_.ply = ply;
      if (absl::Status s = SolvePly(MovesToSolve(frontier)); !s.ok()) {
        return s;
      }
      for (int side = 0; side < 2; ++side) {
        frontier[side] = Step(side, frontier[side]);
      }
    }
    return log_ != nullptr ? log_->Sync() : absl::OkStatus();
  }

  // Every position in play with P stones (canonical), solved; the book
  // holds them all. A position's search starts from the worst of its
  // parents' results that are known (a seed of the layer before:
  // SolveAfter).
  absl::Status SolveLayer() {
    std::vector<Position> layer = Layer(options_.plies);
    std::vector<Position> todo;
    std::vector<std::optional<SearchResult>> parents;
    for (const Position& p : layer) {
      used_.insert(Key(p));
      if (entries_.contains(Key(p))) continue;
      todo.push_back(p);
      parents.push_back(WorstParent(p));
    }
    progress_.ply = options_.plies;
    if (absl::Status s = SolvePly(todo, parents); !s.ok()) return s;
    return log_ != nullptr ? log_->Sync() : absl::OkStatus();
  }

  // Of the positions p may come from (a stone of the last mover taken off),
  // the known one whose result for its side to move is worst, if any.
  std::optional<SearchResult> WorstParent(const Position& p) const {
    std::optional<SearchResult> worst;
    for (Mask s = game_.LastMoveCells(p); s != 0; s &= s - 1) {
      const auto it = entries_.find(Key(Game::Take(p, absl::countr_zero(s))));
      if (it == entries_.end()) continue;
      const BookEntry e = FromByte(it->second);
      if (!worst.has_value() ||
          PolicyScore(e.value, e.remoteness) <
              PolicyScore(worst->value, worst->remoteness)) {
        worst = SearchResult{e.value, e.remoteness};
      }
    }
    return worst;
  }

  // The canonical positions in play with `stones` stones, each layer made
  // from the one before; sorted, then cut into blocks of kLayerBlock
  // neighbours (which share subtrees: each search's table serves the next)
  // put in the shuffled order of kLayerOrderSeed (so that the rate so far
  // foretells the rest).
  std::vector<Position> Layer(int stones) const {
    std::vector<Position> layer = {Position()};
    for (int ply = 0; ply < stones; ++ply) {
      absl::flat_hash_set<Position> next;
      for (const Position& p : layer) {
        for (int cell : game_.LegalMoves(p)) {
          const Position child = game_.Canonical(Game::Play(p, cell));
          if (!game_.IsTerminal(child)) next.insert(child);
        }
      }
      layer.assign(next.begin(), next.end());
      std::sort(layer.begin(), layer.end(),
                [](const Position& a, const Position& b) {
                  return a.x != b.x ? a.x < b.x : a.o < b.o;
                });
    }
    return ShuffledBlocks(layer);
  }

  // `sorted` cut into blocks of kLayerBlock, the blocks shuffled by
  // kLayerOrderSeed.
  static std::vector<Position> ShuffledBlocks(
      const std::vector<Position>& sorted) {
    std::vector<uint64_t> blocks((sorted.size() + kLayerBlock - 1) /
                                 kLayerBlock);
    std::iota(blocks.begin(), blocks.end(), 0);
    std::shuffle(blocks.begin(), blocks.end(),
                 std::mt19937_64(kLayerOrderSeed));
    std::vector<Position> order;
    order.reserve(sorted.size());
    for (const uint64_t block : blocks) {
      const uint64_t begin = block * kLayerBlock;
      const uint64_t end =
          std::min<uint64_t>(begin + kLayerBlock, sorted.size());
      order.insert(order.end(), sorted.begin() + begin, sorted.begin() + end);
    }
    return order;
  }

  // The positions after the moves of each analysed position of the
  // frontiers (where its side moves) that are in play and not known yet,
  // each once, in the frontiers' order.
  std::vector<Position> MovesToSolve(const std::vector<Position> frontier[2]) {
    std::vector<Position> todo;
    absl::flat_hash_set<uint64_t> listed;
    for (int side = 0; side < 2; ++side) {
      for (const Position& p : frontier[side]) {
        if (p.side_to_move() != side || game_.IsTerminal(p)) continue;
        for (int cell : game_.LegalMoves(p)) {
          const Position child = Game::Play(p, cell);
          const uint64_t key = Key(child);
          if (!game_.IsTerminal(child) && !entries_.contains(key) &&
              listed.insert(key).second) {
            todo.push_back(child);
          }
        }
      }
    }
    return todo;
  }

  // Solves this process's share of `todo`, one search a worker, each
  // position kept (and logged) as soon as it is solved; then, with other
  // processes, meets them and reads what they logged. `parents[i]`, when
  // there and set, is the result of a position todo[i] comes from.
  absl::Status SolvePly(
      const std::vector<Position>& todo,
      const std::vector<std::optional<SearchResult>>& parents = {}) {
    const uint64_t n = todo.size(), size = cluster_.size();
    const uint64_t begin = n * cluster_.rank() / size;
    const uint64_t end = n * (cluster_.rank() + 1) / size;
    progress_.to_solve = end - begin;
    if (options_.progress) options_.progress(progress_);
    std::mutex mu;
    absl::Status status;
    ParallelChunks(end - begin, 1, static_cast<int>(searches_.size()),
                   [&](uint64_t from, uint64_t to, int worker) {
                     for (uint64_t i = begin + from; i < begin + to; ++i) {
                       ConnectSearch& search = *searches_[worker];
                       const SearchResult r =
                           i < parents.size() && parents[i].has_value()
                               ? search.SolveAfter(todo[i], *parents[i])
                               : search.Solve(todo[i]);
                       std::lock_guard<std::mutex> lock(mu);
                       ++progress_.solved;
                       Keep(todo[i], {r.value, r.remoteness});
                       status.Update(SyncNowAndThen());
                       if (options_.progress) options_.progress(progress_);
                     }
                   });
    if (log_ != nullptr) status.Update(log_->Sync());
    if (absl::Status s = Agree(status); !s.ok() || size == 1) return s;
    for (int rank = 0; rank < cluster_.size(); ++rank) {
      if (rank != cluster_.rank()) {
        status.Update(ReadLog(LogPath(rank), &entries_));
      }
    }
    return Agree(status);
  }

  // One ply: each position where `side` moves analysed and its policy's
  // move followed, every move followed elsewhere; the positions after, in
  // a fixed order (so that runs solve the same positions alike).
  std::vector<Position> Step(int side, const std::vector<Position>& frontier) {
    absl::flat_hash_set<Position> next;
    for (const Position& p : frontier) {
      if (game_.IsTerminal(p)) continue;
      if (p.side_to_move() == side) {
        next.insert(Game::Play(p, Analyse(p)));
      } else {
        for (int cell : game_.LegalMoves(p)) next.insert(Game::Play(p, cell));
      }
    }
    std::vector<Position> sorted(next.begin(), next.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const Position& a, const Position& b) {
                return a.x != b.x ? a.x < b.x : a.o < b.o;
              });
    return sorted;
  }

  // Keeps the outcome of p (a position in play whose moves are solved) and
  // returns the policy's move.
  int Analyse(const Position& p) {
    BestMove best;
    for (int cell : game_.LegalMoves(p)) {
      const Position child = Game::Play(p, cell);
      const std::optional<Value> end = game_.Primitive(child);
      if (!end) used_.insert(Key(child));
      const BookEntry c =
          end ? BookEntry{*end, 0} : FromByte(entries_.at(Key(child)));
      best.Add(cell, c.value, c.remoteness);
    }
    Keep(p, BookEntry{best.value(), best.remoteness()});
    used_.insert(Key(p));
    return best.cell();
  }

  // The log synced at most once a second: a stopped run loses at most a
  // second's solves.
  absl::Status SyncNowAndThen() {
    if (log_ == nullptr || absl::Now() - last_sync_ < absl::Seconds(1)) {
      return absl::OkStatus();
    }
    last_sync_ = absl::Now();
    return log_->Sync();
  }

  // The seed's entries that are not known yet, kept (and logged by rank 0).
  void Seed(const BookReader& seed) {
    for (uint64_t i = 0; i < seed.size(); ++i) {
      const uint64_t key = seed.Key(i);
      const uint8_t record = seed.RecordByte(i);
      if (entries_.emplace(key, record).second && log_ != nullptr &&
          cluster_.rank() == 0) {
        log_->Append(key, record);
      }
    }
  }

  void Keep(const Position& p, const BookEntry& e) {
    const uint64_t key = Key(p);
    if (!entries_.emplace(key, RecordByte(e)).second) return;
    if (log_ != nullptr) log_->Append(key, RecordByte(e));
  }

  uint64_t Key(const Position& p) const {
    return index_.Index(game_.Canonical(p));
  }

  // Every process's status agreed on: this one's error, or kAborted when
  // another process stopped.
  absl::Status Agree(const absl::Status& status) {
    if (cluster_.AllOk(status.ok())) return absl::OkStatus();
    if (!status.ok()) return status;
    return absl::AbortedError("another process of the book stopped");
  }

  const std::vector<ConnectSearch*> searches_;
  const Game& game_;
  const PositionIndex index_;
  const BookOptions& options_;
  Cluster& cluster_;
  absl::flat_hash_map<uint64_t, uint8_t> entries_;  // all known, by key
  absl::flat_hash_set<uint64_t> used_;              // the keys this book holds
  std::unique_ptr<SolvedLog> log_;
  absl::Time last_sync_ = absl::InfinitePast();
  BookProgress progress_{};
};

}  // namespace

absl::StatusOr<BookEntries> BuildBook(absl::Span<ConnectSearch* const> searches,
                                      const BookOptions& options) {
  assert(!searches.empty());
  const Game& game = searches[0]->game();
  if (options.plies < 0 || options.plies > game.cells()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a book of ", options.plies, " plies: expected 0 to ",
                     game.cells(), " for ", game.spec().Name()));
  }
  if (!PositionIndex(game).fits()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the positions of ", game.spec().Name(),
                     " cannot be indexed in 64 bits"));
  }
  if (options.cluster != nullptr && options.cluster->size() > 1 &&
      options.work_dir.empty()) {
    return absl::InvalidArgumentError(
        "a book shared among processes needs a work dir that all of them can "
        "reach (--work_dir)");
  }
  Cluster alone;
  BookBuilder builder(searches, options,
                      options.cluster != nullptr ? *options.cluster : alone);
  if (absl::Status s = builder.Run(); !s.ok()) return s;
  return builder.Entries();
}

}  // namespace mnk
