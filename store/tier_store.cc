#include "store/tier_store.h"

#include <algorithm>
#include <utility>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/parallel/parallel.h"
#include "table/file_io.h"

namespace mnk {
namespace {

// A tier that should be in the work dir but is lost or damaged: the tiers
// it came from are gone.
absl::Status Lost(const WorkDir& dir, const std::string& name,
                  absl::string_view why, const char* job) {
  return absl::DataLossError(
      absl::StrCat("tier ", name, " in ", dir.path(), " is lost (", why,
                   "); the tiers it came from are gone: start the ", job,
                   " again in an empty work dir"));
}

}  // namespace

TierLayout::TierLayout(const Game& game, const PositionIndex& index,
                       uint64_t tier_indices)
    : game_(game), index_(index), shift_(absl::countr_zero(tier_indices)) {}

TierStore::TierStore(const Game& game, const PositionIndex& index,
                     uint64_t tier_indices, WorkDir dir)
    : TierLayout(game, index, tier_indices), dir_(std::move(dir)) {}

int TierLayout::Tiers(int layer) const {
  return static_cast<int>(((index_.layer_size(layer) - 1) >> shift_) + 1);
}

TierRange TierLayout::Tier(int layer, int t) const {
  const uint64_t begin = static_cast<uint64_t>(t) << shift_;
  const uint64_t end =
      std::min(index_.layer_size(layer), begin + tier_indices());
  return {begin, end, index_.layer_offset(layer) + begin, end - begin};
}

std::string TierLayout::Name(char kind, int layer, int t) {
  return absl::StrFormat("%c%02d-T%06d", kind, layer, t);
}

std::string TierLayout::LayerName(char kind, int layer) {
  return absl::StrFormat("%c%02d", kind, layer);
}

// The children of patterns [low, high] of `layer` through the move that adds
// slot `slot` are child + ChildPattern(layer, p, slot), increasing with p;
// they can leave long gaps (where the child sets the move cannot make lie),
// so each tier holding one is found in turn: the first pattern whose child
// lies past the tier found, by bisection.
void TierLayout::AddChildTiers(int layer, uint64_t low, uint64_t high, int slot,
                               uint64_t child,
                               std::vector<uint64_t>& tiers) const {
  const auto child_of = [&](uint64_t p) {
    return child + PositionIndex::ChildPattern(layer, p, slot);
  };
  const uint64_t last = child_of(high) >> shift_;
  for (uint64_t p = low;;) {
    const uint64_t t = child_of(p) >> shift_;
    tiers.push_back(t);
    if (t == last) return;
    uint64_t below = p + 1, above = high;  // the first past tier t
    while (below < above) {
      const uint64_t middle = below + (above - below) / 2;
      if (child_of(middle) >> shift_ > t) {
        above = middle;
      } else {
        below = middle + 1;
      }
    }
    p = below;
  }
}

std::vector<uint64_t> TierLayout::ChildTierNumbers(int layer,
                                                   const TierRange& r) const {
  std::vector<uint64_t> tiers;
  ForChildRuns(layer, r,
               [&](uint64_t child, uint64_t low, uint64_t high, int slot) {
                 AddChildTiers(layer, low, high, slot, child, tiers);
               });
  std::sort(tiers.begin(), tiers.end());
  tiers.erase(std::unique(tiers.begin(), tiers.end()), tiers.end());
  return tiers;
}

std::vector<bool> TierLayout::ChildTiers(int layer, const TierRange& r) const {
  std::vector<bool> needed(Tiers(layer + 1), false);
  for (uint64_t t : ChildTierNumbers(layer, r)) needed[t] = true;
  return needed;
}

absl::Status TierStore::PutReach(int layer, uint64_t begin,
                                 const std::vector<uint64_t>& words,
                                 int threads) const {
  const uint64_t end =
      std::min(index_.layer_size(layer), begin + 64 * words.size());
  const int first = static_cast<int>(begin >> shift());
  const int tiers = static_cast<int>(((end - 1) >> shift()) + 1) - first;
  std::vector<absl::Status> statuses(threads);
  ParallelChunks(
      tiers, 1, threads, [&](uint64_t from, uint64_t to, int worker) {
        for (uint64_t t = from; t < to; ++t) {
          const TierRange r = Tier(layer, first + static_cast<int>(t));
          std::string bytes((r.count + 63) / 64 * 8, '\0');
          for (size_t w = 0; w < bytes.size() / 8; ++w) {
            PutLittleEndian(&bytes[8 * w], words[((r.begin - begin) >> 6) + w],
                            8);
          }
          absl::Status s =
              dir_.Put(Name('R', layer, first + static_cast<int>(t)), bytes);
          if (statuses[worker].ok()) statuses[worker] = s;
        }
      });
  for (const absl::Status& s : statuses) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint64_t>> TierStore::GetReach(
    int layer, int t, const char* job) const {
  if (layer == 0) return std::vector<uint64_t>{1};  // the empty board
  const TierRange r = Tier(layer, t);
  const std::string name = Name('R', layer, t);
  absl::StatusOr<std::string> kept = dir_.Get(name);
  if (!kept.ok()) return Lost(dir_, name, kept.status().message(), job);
  if (kept->size() != (r.count + 63) / 64 * 8) {
    return Lost(dir_, name, "the wrong size", job);
  }
  std::vector<uint64_t> words(kept->size() / 8);
  for (size_t w = 0; w < words.size(); ++w) {
    words[w] = GetLittleEndian(kept->data() + 8 * w, 8);
  }
  return words;
}

absl::Status TierStore::RemoveLayer(char kind, int layer) const {
  for (int t = 0; t < Tiers(layer); ++t) {
    if (absl::Status s = dir_.Remove(Name(kind, layer, t)); !s.ok()) return s;
  }
  return absl::OkStatus();
}

void TierCache::Clear() {
  key_.clear();
  std::vector<std::string>().swap(tiers_);
  std::vector<std::string>().swap(spare_);
  pointers_.clear();
}

absl::Status TierCache::Hold(
    const TierStore& store, char kind, int layer,
    const std::vector<bool>& needed, size_t head,
    const std::function<uint64_t(int t)>& payload_bytes, const char* job) {
  if (key_ != TierStore::Name(kind, layer, 0)) {
    key_ = TierStore::Name(kind, layer, 0);
    for (std::string& t : tiers_) spare_.push_back(std::move(t));
    tiers_.clear();
    pointers_.clear();
  }
  shift_ = store.shift();
  mask_ = store.tier_indices() - 1;
  tiers_.resize(needed.size());
  pointers_.resize(needed.size(), nullptr);
  for (size_t t = 0; t < needed.size(); ++t) {
    if (!needed[t] && pointers_[t] != nullptr) {
      spare_.push_back(std::move(tiers_[t]));
      tiers_[t] = std::string();
      pointers_[t] = nullptr;
    }
  }
  // Only the head and the layer bytes are decompressed, not what the
  // payload holds after them.
  for (size_t t = 0; t < needed.size(); ++t) {
    if (!needed[t] || pointers_[t] != nullptr) continue;
    if (!spare_.empty()) {
      tiers_[t] = std::move(spare_.back());
      spare_.pop_back();
    }
    const int tier = static_cast<int>(t);
    const std::string name = TierStore::Name(kind, layer, tier);
    absl::StatusOr<uint64_t> size = store.dir().GetHead(
        name, head + store.Tier(layer, tier).count, tiers_[t]);
    if (!size.ok())
      return Lost(store.dir(), name, size.status().message(), job);
    if (*size != payload_bytes(tier)) {
      return Lost(store.dir(), name, "the wrong size", job);
    }
    pointers_[t] = reinterpret_cast<const uint8_t*>(tiers_[t].data()) + head;
  }
  return absl::OkStatus();
}

}  // namespace mnk
