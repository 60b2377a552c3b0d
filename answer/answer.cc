#include "answer/answer.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "data/builtin.h"
#include "rules/game/printable.h"
#include "table/record.h"

namespace mnk {
namespace {

// kNotFound: no built-in table for `spec`, saying how to make one in the
// caller's terms (or why none can be made). The solve's time and memory
// are for `solve --estimate` to say: the player does not link the solver.
absl::Status NoBuiltinTable(const GameSpec& spec,
                            const SourceOptions& options) {
  const Game game = *Game::Create(spec);
  if (absl::Status s = CheckTableCanHold(game); !s.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "no built-in table for ", spec.Name(), ", and ", s.message()));
  }
  return absl::NotFoundError(absl::StrCat(
      "no built-in table for ", spec.Name(), ": ",
      options.how_to_solve ? options.how_to_solve(spec) : SolveHint(spec)));
}

// A table loaded from `path`, or the built-in `name` from its bytes;
// nullptr (and OK) when neither exists.
absl::StatusOr<std::unique_ptr<Table>> LoadNamed(
    const std::string& path, const std::string& name,
    std::optional<GameSpec> expected, const SourceOptions& options) {
  const Table::Placement placement = options.placement;
  absl::StatusOr<Table> table =
      !path.empty() ? Table::Load(path, expected, placement)
      : options.builtin && BuiltinTable(name).has_value()
          ? Table::FromStatic(*BuiltinTable(name), expected,
                              absl::StrCat("the built-in table ", name))
          : absl::StatusOr<Table>(absl::NotFoundError(name));
  if (absl::IsNotFound(table.status()) && path.empty()) return nullptr;
  if (!table.ok()) return table.status();
  return std::make_unique<Table>(*std::move(table));
}

}  // namespace

std::string SolveFlags(const GameSpec& spec) {
  return absl::StrCat("--width=", spec.width, " --height=", spec.height,
                      " --k=", spec.k, spec.gravity ? " --gravity" : "",
                      spec.misere ? " --misere" : "");
}

std::string SolveHint(const GameSpec& spec) {
  const std::string flags = SolveFlags(spec);
  return absl::StrCat("`solve ", flags,
                      " --estimate` says what solving it takes; `solve ", flags,
                      " --out=FILE` makes one, and --table=FILE plays from it");
}

std::vector<GameSpec> BuiltinGames() {
  return {GameSpec{3, 3, 3}, GameSpec{3, 3, 3, false, /*misere=*/true},
          GameSpec{4, 4, 4, /*gravity=*/true},
          GameSpec{7, 6, 4, /*gravity=*/true}};
}

AnswerSource::Lease::Lease(Lease&& other) noexcept
    : source_(other.source_), search_(other.search_) {
  other.search_ = nullptr;
}

AnswerSource::Lease::~Lease() {
  if (search_ != nullptr) source_->Give(search_);
}

Oracle AnswerSource::Lease::oracle(AnswerLimits limits) const {
  if (source_->table_ != nullptr) return Oracle(*source_->table_);
  if (limits.max_nodes == 0) limits.max_nodes = source_->max_nodes_;
  return Oracle(search_, source_->book_.get(), std::move(limits));
}

AnswerSource::Lease AnswerSource::Take() const {
  if (searches_.empty()) return Lease(this, nullptr);
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](std::vector<ConnectSearch*>* f) { return !f->empty(); }, &free_));
  ConnectSearch* search = free_.back();
  free_.pop_back();
  return Lease(this, search);
}

void AnswerSource::Give(ConnectSearch* search) const {
  absl::MutexLock lock(&mu_);
  free_.push_back(search);
}

Oracle AnswerSource::oracle() const {
  if (table_ != nullptr) return Oracle(*table_);
  AnswerLimits limits;
  limits.max_nodes = max_nodes_;
  return Oracle(searches_.front().get(), book_.get(), limits);
}

namespace {

// The position `text` of `game`, or kBadPosition "position<where> 'text':
// why".
absl::StatusOr<Position> ParsePosition(const Game& game, absl::string_view text,
                                       absl::string_view where = "") {
  absl::StatusOr<Position> p = game.Parse(text);
  if (p.ok()) return p;
  return WithFailure(absl::InvalidArgumentError(
                         absl::StrCat("position", where, " '", Printable(text),
                                      "': ", p.status().message())),
                     AnswerFailure::kBadPosition);
}

// The oracle's answer to `p` with its table checked before and after.
absl::StatusOr<Analysis> AnswerChecked(const Oracle& oracle, const Position& p,
                                       const Progress& progress, Need need) {
  if (absl::Status s = oracle.CheckUnchanged(); !s.ok()) {
    return WithFailure(s, AnswerFailure::kTableChanged);
  }
  absl::StatusOr<Analysis> a = oracle.Analyze(p, progress, need);
  if (absl::Status s = oracle.CheckUnchanged(); !s.ok()) {
    return WithFailure(s, AnswerFailure::kTableChanged);
  }
  return a;
}

}  // namespace

absl::StatusOr<Position> AnswerSource::Parse(absl::string_view position) const {
  return ParsePosition(game(), position);
}

absl::StatusOr<Analysis> AnswerSource::Answer(absl::string_view position,
                                              const AnswerLimits& limits,
                                              const Progress& progress,
                                              Need need) const {
  absl::StatusOr<Position> p = ParsePosition(game(), position);
  if (!p.ok()) return p.status();
  return Answer(*p, limits, progress, need);
}

absl::StatusOr<Analysis> AnswerSource::Answer(const Position& p,
                                              const AnswerLimits& limits,
                                              const Progress& progress,
                                              Need need) const {
  if (!NeedsSearch(p)) return AnswerChecked(oracle(), p, progress, need);
  const Lease lease = Take();
  return AnswerChecked(lease.oracle(limits), p, progress, need);
}

absl::StatusOr<std::vector<Analysis>> AnswerSource::AnswerAll(
    absl::Span<const std::string> positions, const AnswerLimits& limits) const {
  std::vector<Analysis> answers;
  answers.reserve(positions.size());
  const Lease lease = Take();
  const Oracle oracle = lease.oracle(limits);
  for (size_t i = 0; i < positions.size(); ++i) {
    absl::StatusOr<Position> p =
        ParsePosition(game(), positions[i], absl::StrCat(" ", i));
    if (!p.ok()) return p.status();
    absl::StatusOr<Analysis> a = oracle.Analyze(*p);
    if (!a.ok()) {
      return WithFailure(
          absl::Status(a.status().code(), absl::StrCat("position ", i, ": ",
                                                       a.status().message())),
          FailureOf(a.status()));
    }
    answers.push_back(*std::move(a));
  }
  if (absl::Status s = oracle.CheckUnchanged(); !s.ok()) {
    return WithFailure(s, AnswerFailure::kTableChanged);
  }
  return answers;
}

uint64_t AnswerSource::searched_nodes() const {
  uint64_t nodes = 0;
  for (const auto& search : searches_) nodes += search->nodes();
  return nodes;
}

const Game& AnswerSource::game() const {
  return table_ != nullptr ? table_->game() : searches_.front()->game();
}

std::unique_ptr<AnswerSource> AnswerSource::Of(Table table,
                                               std::string origin) {
  std::unique_ptr<AnswerSource> source(new AnswerSource());
  source->table_ = std::make_unique<Table>(std::move(table));
  source->origin_ = std::move(origin);
  return source;
}

absl::StatusOr<std::unique_ptr<AnswerSource>> AnswerSource::Open(
    std::optional<GameSpec> spec, const SourceOptions& options) {
  std::unique_ptr<AnswerSource> source(new AnswerSource());
  if (!options.table.empty()) {
    absl::StatusOr<Table> table =
        Table::Load(options.table, std::nullopt, options.placement);
    if (!table.ok()) return table.status();
    if (spec.has_value()) {
      if (absl::Status s = table->ExpectGame(*spec, options.table); !s.ok()) {
        return s;
      }
    }
    // An opening book goes before the search (solve --layout=book's tables
    // hold every position in play: they answer alone).
    if (!table->complete()) {
      return absl::FailedPreconditionError(absl::StrCat(
          Printable(options.table),
          " is an opening book, not a table: a book answers beside a search "
          "(play takes it as --book=FILE)"));
    }
    if (!options.book.empty()) {
      return absl::InvalidArgumentError(
          "a book applies to a game played by search, not from a table");
    }
    source->table_ = std::make_unique<Table>(*std::move(table));
    source->origin_ = options.table;
    return source;
  }
  if (!spec.has_value()) {
    return absl::InvalidArgumentError("expected a game or a table file");
  }
  if (absl::StatusOr<Game> game = Game::Create(*spec); !game.ok()) {
    return game.status();
  }
  absl::StatusOr<std::unique_ptr<Table>> builtin =
      LoadNamed("", spec->FileStem(), spec, options);
  if (!builtin.ok()) return builtin.status();
  if (*builtin != nullptr) {
    if (!options.book.empty()) {
      return absl::InvalidArgumentError(
          "a book applies to a game played by search, not from a table");
    }
    source->table_ = *std::move(builtin);
    source->origin_ = "built-in";
    return source;
  }
  if (absl::Status s = source->OpenSearch(*spec, options); !s.ok()) {
    return s;
  }
  return source;
}

absl::Status AnswerSource::OpenSearch(const GameSpec& spec,
                                      const SourceOptions& options) {
  const Game game = *Game::Create(spec);
  if (options.searches < 1 || options.searches > ConnectSearch::kMaxThreads ||
      options.search_threads < 1 ||
      options.search_threads > ConnectSearch::kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "searches ", options.searches, " of ", options.search_threads,
        " threads: expected 1 to ", ConnectSearch::kMaxThreads, " of each"));
  }
  absl::StatusOr<int> bits = ConnectSearch::TableBitsForFlag(
      options.search_memory, options.searches,
      options.search_memory_name.empty()
          ? absl::StrCat("search memory of ", options.search_memory, " bytes")
          : options.search_memory_name);
  for (int i = 0; i < options.searches; ++i) {
    ConnectSearchOptions search_options;
    search_options.table_bits = bits.ok() ? *bits : 24;
    search_options.threads = options.search_threads;
    absl::StatusOr<std::unique_ptr<ConnectSearch>> search =
        ConnectSearch::Create(game, search_options);
    // A game the search cannot play keeps the table's error (worked out
    // only then: it sizes a solve of the game).
    if (!search.ok() && !spec.gravity) return NoBuiltinTable(spec, options);
    if (!search.ok() && absl::IsInvalidArgument(search.status())) {
      const absl::Status no_table = NoBuiltinTable(spec, options);
      return absl::Status(no_table.code(),
                          absl::StrCat(no_table.message(), " (",
                                       search.status().message(), ")"));
    }
    if (!bits.ok()) return bits.status();
    if (!search.ok()) return search.status();
    searches_.push_back(*std::move(search));
    absl::MutexLock lock(&mu_);
    free_.push_back(searches_.back().get());
  }
  absl::StatusOr<std::unique_ptr<Table>> book = LoadNamed(
      options.book, absl::StrCat(spec.FileStem(), "-book"), spec, options);
  if (!book.ok()) return book.status();
  if (*book != nullptr && (*book)->layout() != Layout::kBook) {
    return absl::FailedPreconditionError(
        absl::StrCat(Printable(options.book), " is a table in the ",
                     (*book)->layout_name(), " layout, not a book"));
  }
  book_ = *std::move(book);
  if (book_ != nullptr && book_->book() != nullptr) {
    // The book's positions are not searched again, at the root or as its
    // moves (a position the book holds without all of its moves).
    const BookReader* reader = book_->book();
    for (const std::unique_ptr<ConnectSearch>& search : searches_) {
      search->set_known(
          [reader](const Position& p) -> std::optional<SearchResult> {
            const std::optional<BookEntry> e = reader->Find(p);
            if (!e.has_value()) return std::nullopt;
            return SearchResult{e->value, e->remoteness};
          });
    }
  }
  max_nodes_ = options.max_nodes;
  origin_ = "search";
  return absl::OkStatus();
}

}  // namespace mnk
