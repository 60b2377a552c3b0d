#include "store/tier_store.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/numeric/bits.h"
#include "gtest/gtest.h"
#include "rules/game/game.h"
#include "rules/index/index.h"
#include "store/work_dir.h"

namespace mnk {
namespace {

std::string FreshDir(const std::string& name) {
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/" + name;
  EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  return dir;
}

class TierStoreTest : public ::testing::Test {
 protected:
  TierStore Open(const std::string& name) {
    absl::StatusOr<WorkDir> dir =
        WorkDir::Open(FreshDir(name), "test\n", false);
    EXPECT_TRUE(dir.ok()) << dir.status();
    return TierStore(game_, index_, 64, *dir);
  }
  const Game game_ = *Game::Create(GameSpec{3, 3, 3});
  const PositionIndex index_{game_};
};

// Tic-tac-toe's layer 4 (two X, two O): C(9,4) * C(4,2) = 756 indices from
// 1 + 9 + 72 + 252 = 334: tiers of 64, the twelfth of 52.
TEST_F(TierStoreTest, RangesAndNames) {
  const TierStore store = Open("ranges");
  EXPECT_EQ(store.Tiers(0), 1);
  EXPECT_EQ(store.Tiers(4), 12);
  const TierRange last = store.Tier(4, 11);
  EXPECT_EQ(last.begin, 704u);
  EXPECT_EQ(last.end, 756u);
  EXPECT_EQ(last.first, 334u + 704u);
  EXPECT_EQ(last.count, 52u);
  EXPECT_EQ(TierStore::Name('L', 7, 3), "L07-T000003");
  EXPECT_EQ(TierStore::LayerName('D', 0), "D00");
}

// ChildTiers names exactly the tiers holding a child of a position of the
// tier: every tier of every layer of tic-tac-toe and 4x4 gravity, tiers of
// 64 indices: 587 and 18,017 tier reads in all.
TEST_F(TierStoreTest, ChildTiersAreTheTiersOfTheChildren) {
  for (const GameSpec spec : {GameSpec{3, 3, 3}, GameSpec{4, 4, 4, true}}) {
    const Game game = *Game::Create(spec);
    const PositionIndex index(game);
    absl::StatusOr<WorkDir> dir =
        WorkDir::Open(FreshDir("children"), "test\n", false);
    ASSERT_TRUE(dir.ok()) << dir.status();
    const TierStore store(game, index, 64, *dir);
    uint64_t reads = 0;
    for (int layer = 0; layer < game.cells(); ++layer) {
      for (int t = 0; t < store.Tiers(layer); ++t) {
        const TierRange r = store.Tier(layer, t);
        std::vector<bool> children(store.Tiers(layer + 1), false);
        for (uint64_t i = r.first; i < r.first + r.count; ++i) {
          const Position p = index.At(i);
          for (Mask m = game.Playable(p.occupied()); m != 0; m &= m - 1) {
            const Position child = Game::Play(p, absl::countr_zero(m));
            children[(index.Index(child) - index.layer_offset(layer + 1)) /
                     64] = true;
          }
        }
        ASSERT_EQ(store.ChildTiers(layer, r), children)
            << spec.Name() << " layer " << layer << " tier " << t;
        reads += std::count(children.begin(), children.end(), true);
      }
    }
    EXPECT_EQ(reads, spec.gravity ? 18017u : 587u) << spec.Name();
  }
}

// A window of a layer's bits (the forward pass in windows) writes the
// tiers it covers, the layer's last one shorter: tiers 8 to 11 of layer 4
// from entry 512, four words a tier but the last (52 entries, one word).
TEST_F(TierStoreTest, ReachableBitsOfAWindow) {
  const TierStore store = Open("window");
  std::vector<uint64_t> words((756 - 512 + 63) / 64, 0);
  ASSERT_EQ(words.size(), 4u);
  words[0] = 5;                  // entries 512 and 514: tier 8
  words[3] = uint64_t{1} << 51;  // entry 755: tier 11
  ASSERT_TRUE(store.PutReach(4, 512, words, 2).ok());
  EXPECT_EQ(*store.GetReach(4, 8, "solve"), std::vector<uint64_t>{5});
  EXPECT_EQ(*store.GetReach(4, 9, "solve"), std::vector<uint64_t>{0});
  EXPECT_EQ(*store.GetReach(4, 11, "solve"),
            std::vector<uint64_t>{uint64_t{1} << 51});
  EXPECT_FALSE(store.dir().Has(TierStore::Name('R', 4, 7)));
}

TEST_F(TierStoreTest, ReachableBitsRoundTrip) {
  const TierStore store = Open("reach");
  std::vector<uint64_t> words((756 + 63) / 64, 0);
  words[0] = 0x8000000000000001;
  words[11] = uint64_t{1} << 51;  // entry 755, the layer's last
  ASSERT_TRUE(store.PutReach(4, words, 2).ok());
  EXPECT_EQ(*store.GetReach(4, 0, "solve"),
            std::vector<uint64_t>{0x8000000000000001});
  EXPECT_EQ(*store.GetReach(4, 11, "solve"),
            std::vector<uint64_t>{uint64_t{1} << 51});
  EXPECT_EQ(*store.GetReach(0, 0, "solve"), std::vector<uint64_t>{1});
  ASSERT_TRUE(store.RemoveLayer('R', 4).ok());
  const absl::StatusOr<std::vector<uint64_t>> lost =
      store.GetReach(4, 3, "verify");
  EXPECT_EQ(lost.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(lost.status().message().find("R04-T000003 in " +
                                         store.dir().path() + " is lost"),
            std::string::npos)
      << lost.status();
  EXPECT_NE(lost.status().message().find(
                "start the verify again in an empty work dir"),
            std::string::npos);
}

// A cache of layer 5's tiers (C(9,5) * C(5,2) = 1260 indices, 20 tiers),
// each a 3-byte head, its bytes (entry j: j % 251) and one byte more.
TEST_F(TierStoreTest, CacheHoldsTheTiersNeeded) {
  const TierStore store = Open("cache");
  ASSERT_EQ(store.Tiers(5), 20);
  const auto payload = [&](int t) { return 3 + store.Tier(5, t).count + 1; };
  for (int t = 0; t < 20; ++t) {
    const TierRange r = store.Tier(5, t);
    std::string bytes = "hhh";
    for (uint64_t j = r.begin; j < r.end; ++j) bytes.push_back(j % 251);
    bytes.push_back('x');
    ASSERT_TRUE(store.dir().Put(TierStore::Name('E', 5, t), bytes).ok());
  }
  TierCache cache;
  std::vector<bool> needed(20, false);
  needed[0] = needed[19] = true;
  ASSERT_TRUE(cache.Hold(store, 'E', 5, needed, 3, payload, "verify").ok());
  EXPECT_EQ(cache.At(5), 5);
  EXPECT_EQ(cache.At(1259), 1259 % 251);
  needed[0] = false;
  needed[7] = true;
  ASSERT_TRUE(cache.Hold(store, 'E', 5, needed, 3, payload, "verify").ok());
  EXPECT_EQ(cache.At(7 * 64 + 10), (7 * 64 + 10) % 251);
  // A tier of the wrong size is refused.
  ASSERT_TRUE(store.dir().Put(TierStore::Name('E', 5, 3), "hhh").ok());
  needed[3] = true;
  const absl::Status wrong =
      cache.Hold(store, 'E', 5, needed, 3, payload, "verify");
  EXPECT_EQ(wrong.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(wrong.message().find("E05-T000003"), std::string::npos) << wrong;
}

}  // namespace
}  // namespace mnk
