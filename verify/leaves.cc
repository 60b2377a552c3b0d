#include "verify/leaves.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/parallel/parallel.h"
#include "rules/index/index.h"
#include "search/connect.h"
#include "table/record.h"

namespace mnk {
namespace {

// The entries of `book` whose moves it does not hold.
std::vector<uint64_t> Leaves(const BookReader& book,
                             const PositionIndex& index) {
  std::vector<uint64_t> leaves;
  for (uint64_t i = 0; i < book.size(); ++i) {
    if (!book.Probe(index.At(book.Key(i))).ok()) leaves.push_back(i);
  }
  return leaves;
}

// `count` of `all`, drawn at random by `seed` (all when count is 0 or
// more than there are), in their order.
std::vector<uint64_t> Draw(std::vector<uint64_t> all, uint64_t count,
                           uint64_t seed) {
  if (count == 0 || count >= all.size()) return all;
  std::mt19937_64 rng(seed);
  for (uint64_t i = 0; i < count; ++i) {
    std::uniform_int_distribution<uint64_t> pick(i, all.size() - 1);
    std::swap(all[i], all[pick(rng)]);
  }
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

std::string Outcome(Value value, int remoteness) {
  return absl::StrCat(ValueName(value), " in ", remoteness);
}

}  // namespace

absl::StatusOr<LeafReport> CheckLeaves(const Table& table,
                                       const LeafCheckOptions& options,
                                       Progress* progress) {
  const BookReader* book = table.book();
  if (book == nullptr) {
    return absl::InvalidArgumentError(
        "only a book has leaves to search: expected a table in the book "
        "layout");
  }
  const int threads = std::max(options.threads, 1);
  std::vector<std::unique_ptr<ConnectSearch>> searches;
  for (int t = 0; t < threads; ++t) {
    absl::StatusOr<std::unique_ptr<ConnectSearch>> search =
        ConnectSearch::Create(table.game(), {options.table_bits});
    if (!search.ok()) return search.status();
    searches.push_back(*std::move(search));
  }
  const PositionIndex& index = table.index();
  LeafReport report;
  const std::vector<uint64_t> leaves = Leaves(*book, index);
  report.leaves = leaves.size();
  const std::vector<uint64_t> sample =
      Draw(leaves, options.sample, options.seed);
  if (progress != nullptr) progress->AddTotal(sample.size());
  std::mutex mu;
  ParallelChunks(
      sample.size(), 1, threads, [&](uint64_t begin, uint64_t end, int worker) {
        ConnectSearch& search = *searches[worker];
        for (uint64_t s = begin; s < end; ++s) {
          const Position p = index.At(book->Key(sample[s]));
          const uint8_t byte = book->RecordByte(sample[s]);
          const Value value = static_cast<Value>(byte >> kRemotenessBits);
          const int remoteness = byte & kMaxRemoteness;
          search.Clear();
          const SearchResult fresh = search.Solve(p);
          const std::lock_guard<std::mutex> lock(mu);
          ++report.checked;
          if (fresh.value != value || fresh.remoteness != remoteness) {
            ++report.errors;
            if (report.first_errors.size() < 10) {
              report.first_errors.push_back(
                  absl::StrCat(table.game().Format(p), ": the book says ",
                               Outcome(value, remoteness), ", a fresh search ",
                               Outcome(fresh.value, fresh.remoteness)));
            }
          }
          if (progress != nullptr) progress->Add(1);
        }
      });
  return report;
}

}  // namespace mnk
