#include "solver/retrograde/layer_kernel.h"

#include "table/file_io.h"

namespace mnk::retrograde_internal {
namespace {

constexpr uint64_t SolveStats::*kStatOf[kFixed] = {
    &SolveStats::reachable, &SolveStats::terminal,   &SolveStats::x_wins,
    &SolveStats::o_wins,    &SolveStats::full_draws, &SolveStats::wins,
    &SolveStats::draws,     &SolveStats::losses};

}  // namespace

void Counts::AppendTo(std::string* out) const {
  for (const uint64_t v : n) {
    char le[8];
    PutLittleEndian(le, v, 8);
    out->append(le, 8);
  }
}

Counts Counts::Read(const char* p) {
  Counts c;
  for (int k = 0; k < kCounts; ++k) c.n[k] = GetLittleEndian(p + 8 * k, 8);
  return c;
}

StatsAdder::StatsAdder(const Game& game, SolveStats& stats)
    : game_(game), stats_(stats) {
  stats_.per_ply.assign(game.cells() + 1, 0);
}

void StatsAdder::Add(int stones, const Counts& counts, uint64_t index_visits) {
  stats_.per_ply[stones] = counts.n[kReachable];
  for (int k = 0; k < kFixed; ++k) stats_.*kStatOf[k] += counts.n[k];
  fixed_ += counts.n[kFixed];
  stats_.index_visits = index_visits;
  if (stones == 0) {
    const uint64_t images = stats_.reachable + fixed_;
    assert(images % game_.symmetries().size() == 0);
    stats_.canonical = images / game_.symmetries().size();
  }
}

void StatsAdder::SetStart(uint8_t byte) {
  stats_.start_value = static_cast<Value>(byte >> kRemotenessBits);
  stats_.start_remoteness = byte & kMaxRemoteness;
}

}  // namespace mnk::retrograde_internal
