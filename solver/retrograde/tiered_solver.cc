#include "solver/retrograde/tiered_solver.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/parallel/huge_pages.h"

namespace mnk::retrograde_internal {

TieredSolver::TieredSolver(const SolveParts& parts, const TierStore& store,
                           Cluster& cluster, bool resume, uint64_t reach_window)
    : parts_(parts),
      store_(store),
      cluster_(cluster),
      resume_(resume),
      reach_window_(reach_window),
      keep_(cluster.rank() == 0),
      drops_(parts.sink.KeepsLayersOnDisk()) {}

absl::Status TieredSolver::MarkReachable() {
  const PositionIndex& index = parts_.index;
  for (int stones = 0; stones < parts_.game.cells(); ++stones) {
    parts_.progress.SetPhase("marking", stones);
    const int next = stones + 1;
    const std::string mark = TierStore::LayerName('M', next);
    if (resume_ && cluster_.AllOk(store_.dir().Has(mark))) {
      parts_.progress.AddResumed(index.layer_size(stones));
      continue;
    }
    const uint64_t size = index.layer_size(next);
    const uint64_t window = std::min(size, reach_window_);
    const std::vector<std::pair<uint64_t, uint64_t>> spans =
        window < size ? ChildSpans(stones)
                      : std::vector<std::pair<uint64_t, uint64_t>>();
    std::vector<uint64_t> next_bits;
    ReserveHugePages(next_bits, (window + 63) / 64);
    for (uint64_t first = 0; first < size; first += window) {
      const uint64_t last = std::min(size, first + window);
      next_bits.assign((last - first + 63) / 64, 0);
      if (absl::Status s =
              Agree(MarkWindow(stones, first, last, spans, next_bits));
          !s.ok()) {
        return s;
      }
      if (cluster_.size() > 1) {
        cluster_.OrWords(next_bits.data(), next_bits.size());
        joined_bytes_ += next_bits.size() * sizeof(uint64_t);
      }
      absl::Status status;
      if (keep_) {
        status = store_.PutReach(next, first, next_bits, parts_.threads);
        parts_.progress.SetDisk(store_.dir().bytes_written());
      }
      if (absl::Status s = Agree(status); !s.ok()) return s;
    }
    absl::Status status;
    if (keep_) status = store_.dir().Put(mark, "");
    if (absl::Status s = Agree(status); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::vector<std::pair<uint64_t, uint64_t>> TieredSolver::ChildSpans(
    int stones) const {
  std::vector<std::pair<uint64_t, uint64_t>> spans(store_.Tiers(stones));
  for (int t = 0; t < store_.Tiers(stones); ++t) {
    if (!Mine(stones, t)) continue;
    const std::vector<uint64_t> children =
        store_.ChildTierNumbers(stones, store_.Tier(stones, t));
    if (children.empty()) continue;
    spans[t] = {children.front() << store_.shift(), (children.back() + 1)
                                                        << store_.shift()};
  }
  return spans;
}

absl::Status TieredSolver::MarkWindow(
    int stones, uint64_t first, uint64_t last,
    const std::vector<std::pair<uint64_t, uint64_t>>& spans,
    std::vector<uint64_t>& bits) {
  const int tiers = store_.Tiers(stones);
  for (int t = 0; t < tiers; ++t) {
    if (!Mine(stones, t)) continue;
    parts_.progress.SetTier(t + 1, tiers);
    const TierRange r = store_.Tier(stones, t);
    if (!spans.empty()) {
      const auto [begin, end] = spans[t];
      if (begin >= end || end <= first || begin >= last) continue;
      // Walked again: more work than the progress line was told.
      if (begin < first) parts_.progress.AddTotal(r.count);
    }
    absl::StatusOr<std::vector<uint64_t>> reach =
        store_.GetReach(stones, t, "solve");
    if (!reach.ok()) return reach.status();
    parts_.kernel.MarkChildren(stones, r.begin, r.end,
                               {reach->data(), r.begin >> 6}, bits.data(),
                               first, last);
  }
  return absl::OkStatus();
}

absl::Status TieredSolver::SolveLayer(int stones) {
  parts_.progress.SetPhase("solving", stones);
  if (drops_ && resume_ &&
      cluster_.AllOk(store_.dir().Has(TierStore::LayerName('D', stones)))) {
    if (absl::Status s = Agree(FinishGathering()); !s.ok()) return s;
    return Agree(keep_ ? TakeDoneLayer(stones) : absl::OkStatus());
  }
  if (absl::Status s = Agree(SolveMyTiers(stones)); !s.ok()) return s;
  if (absl::Status s = Agree(FinishGathering()); !s.ok()) return s;
  if (stones == 0) return Agree(keep_ ? GatherLayer(0) : absl::OkStatus());
  if (keep_) {
    gathering_ = std::async(std::launch::async,
                            [this, stones] { return GatherLayer(stones); });
  }
  return absl::OkStatus();
}

absl::Status TieredSolver::FinishGathering() {
  return gathering_.valid() ? gathering_.get() : absl::OkStatus();
}

absl::Status TieredSolver::SolveMyTiers(int stones) {
  const int tiers = store_.Tiers(stones);
  const bool has_children = stones < parts_.game.cells();
  absl::Status status;
  std::future<absl::Status> writing;
  for (int t = 0; t < tiers && status.ok(); ++t) {
    if (!Mine(stones, t)) continue;
    parts_.progress.SetTier(t + 1, tiers);
    const TierRange r = store_.Tier(stones, t);
    const std::string name = TierStore::Name(kSolvedTier, stones, t);
    if (resume_) {
      absl::StatusOr<uint64_t> kept = store_.dir().Check(name);
      if (kept.ok() && *kept == PayloadBytes(stones, r)) {
        ++parts_.stats.stats().tiers_loaded;
        parts_.progress.AddResumed(r.count);
        continue;
      }
      if (kept.status().code() != absl::StatusCode::kNotFound) {
        ++parts_.stats.stats().tiers_redone;
      }
    }
    if (has_children) {
      status = children_.Hold(
          store_, kSolvedTier, stones + 1, store_.ChildTiers(stones, r),
          kCountBytes,
          [&](int c) {
            return PayloadBytes(stones + 1, store_.Tier(stones + 1, c));
          },
          "solve");
      if (!status.ok()) break;
    }
    std::vector<uint64_t> bits;
    if (parts_.forward) {
      absl::StatusOr<std::vector<uint64_t>> reach =
          store_.GetReach(stones, t, "solve");
      status = reach.status();
      if (!status.ok()) break;
      bits = *std::move(reach);
    }
    // Each tier is compressed and written on a thread of its own while the
    // next one is solved into the other buffer (one write in flight).
    std::string& payload = payloads_[solved_tiers_++ % 2];
    SolveTier(stones, r,
              parts_.forward ? Reached{bits.data(), r.begin >> 6} : Reached{},
              payload);
    status = FinishWrite(writing);
    if (!status.ok()) break;
    writing = std::async(std::launch::async,
                         [this, name, payload = absl::string_view(payload)] {
                           return store_.dir().Put(name, payload);
                         });
    ++parts_.stats.stats().tiers_solved;
  }
  if (absl::Status s = FinishWrite(writing); status.ok()) status = s;
  children_.Clear();
  return status;
}

void TieredSolver::SolveTier(int stones, const TierRange& r, Reached reach,
                             std::string& payload) {
  payload.resize(PayloadBytes(stones, r));
  uint8_t* const bytes = reinterpret_cast<uint8_t*>(&payload[kCountBytes]);
  std::memset(bytes, 0, r.count);
  uint8_t* const extra = bytes + r.count;
  const TieredChildren children{
      &children_,
      stones < parts_.game.cells() ? parts_.index.layer_offset(stones + 1) : 0};
  const Counts counts = std::visit(
      [&](auto keep) {
        return parts_.kernel.SolveIndices(stones, r.begin, r.end, reach,
                                          children, bytes, r.first, keep);
      },
      parts_.sink.KeepTier(stones, r, extra));
  parts_.sink.TierSolved(stones, r, extra);
  std::string head;
  counts.AppendTo(&head);
  payload.replace(0, kCountBytes, head);
}

absl::Status TieredSolver::GatherLayer(int stones) {
  LayerSink& sink = parts_.sink;
  Counts counts;
  for (int t = 0; t < store_.Tiers(stones); ++t) {
    const TierRange r = store_.Tier(stones, t);
    const std::string name = TierStore::Name(kSolvedTier, stones, t);
    absl::StatusOr<uint64_t> size = ReadTier(name);
    if (size.ok() && *size != PayloadBytes(stones, r)) {
      size = absl::DataLossError(
          absl::StrCat("tier ", name, " in ", store_.dir().path(),
                       " has the wrong size for this solve"));
    }
    if (!size.ok()) return size.status();
    counts.Add(Counts::Read(gather_buffer_.data()));
    const uint8_t* bytes =
        reinterpret_cast<const uint8_t*>(gather_buffer_.data()) + kCountBytes;
    const uint64_t n =
        std::min<uint64_t>(r.count, gather_buffer_.size() - kCountBytes);
    if (sink.TakesBytes())
      sink.Take(stones, r.begin, bytes, n, bytes + r.count);
    if (stones == 0 && t == 0 && n > 0) parts_.stats.SetStart(bytes[0]);
  }
  parts_.stats.Add(stones, counts, parts_.kernel.index_visits());
  if (absl::Status s = sink.LayerDone(stones, counts.playing(), kCountBytes);
      !s.ok()) {
    return s;
  }
  if (drops_) {
    if (absl::Status s = PutDoneLayer(stones, counts); !s.ok()) return s;
    if (absl::Status s = DropDeadTiers(stones); !s.ok()) return s;
  }
  return stones == 0 ? sink.Finish() : absl::OkStatus();
}

absl::StatusOr<uint64_t> TieredSolver::ReadTier(const std::string& name) {
  // A sink that takes no layer bytes needs only the tier's counts (and the
  // empty board's byte).
  if (!parts_.sink.TakesBytes()) {
    return store_.dir().GetHead(name, kCountBytes + 1, gather_buffer_);
  }
  if (absl::Status s = store_.dir().Get(name, gather_buffer_); !s.ok()) {
    return s;
  }
  return gather_buffer_.size();
}

absl::Status TieredSolver::PutDoneLayer(int stones, const Counts& counts) {
  std::string done;
  counts.AppendTo(&done);
  const SolveStats& stats = parts_.stats.stats();
  done.push_back(stones == 0 ? static_cast<char>(RecordArrays::Details(
                                   stats.start_value, stats.start_remoteness))
                             : '\0');
  absl::Status status =
      store_.dir().Put(TierStore::LayerName('D', stones), done);
  parts_.progress.SetDisk(store_.dir().bytes_written());
  return status;
}

absl::Status TieredSolver::TakeDoneLayer(int stones) {
  const std::string name = TierStore::LayerName('D', stones);
  absl::StatusOr<std::string> done = store_.dir().Get(name);
  if (done.ok() && done->size() != kCountBytes + 1) {
    done = absl::DataLossError("the wrong size");
  }
  if (!done.ok()) {
    return absl::DataLossError(absl::StrCat(
        name, " in ", store_.dir().path(), " is lost (",
        done.status().message(),
        "); the tiers it came from are gone: start the solve again in an "
        "empty work dir"));
  }
  parts_.stats.Add(stones, Counts::Read(done->data()),
                   parts_.kernel.index_visits());
  ++parts_.stats.stats().layers_loaded;
  parts_.progress.AddResumed(parts_.index.layer_size(stones));
  if (stones == 0) {
    parts_.stats.SetStart(static_cast<uint8_t>((*done)[kCountBytes]));
  }
  if (absl::Status s = DropDeadTiers(stones); !s.ok()) return s;
  return stones == 0 ? parts_.sink.Finish() : absl::OkStatus();
}

absl::Status TieredSolver::DropDeadTiers(int stones) {
  if (parts_.forward) {
    if (absl::Status s = store_.RemoveLayer('R', stones); !s.ok()) return s;
  }
  if (stones == parts_.game.cells()) return absl::OkStatus();
  return store_.RemoveLayer(kSolvedTier, stones + 1);
}

absl::Status TieredSolver::FinishWrite(std::future<absl::Status>& writing) {
  if (!writing.valid()) return absl::OkStatus();
  absl::Status status = writing.get();
  parts_.progress.SetDisk(store_.dir().bytes_written());
  return status;
}

uint64_t TieredSolver::PayloadBytes(int stones, const TierRange& r) const {
  return kCountBytes + r.count * (1 + parts_.sink.ExtraBytes(stones));
}

bool TieredSolver::Mine(int stones, int t) const {
  return (t + stones) % cluster_.size() == cluster_.rank();
}

absl::Status TieredSolver::Agree(const absl::Status& status) {
  if (cluster_.AllOk(status.ok())) return absl::OkStatus();
  if (!status.ok()) return status;
  return absl::AbortedError("another process of the solve stopped");
}

}  // namespace mnk::retrograde_internal
