// The exact Connect-style search's transposition table: what is known of
// a position's score (bounds, the move that last refuted a window there,
// how deep its search went), by the position's key, in buckets of two
// entries. Shared by the search's threads when there are several (each
// bucket then a seqlock: a reader never pairs one entry's key with another
// entry's bounds).
//
//   ConnectTable table(/*bits=*/22, /*shared=*/false);
//   if (!table.ok()) ...;                           // no memory
//   table.Prefetch(key);                            // on the way in
//   table.Store(key, /*work=*/18, lower, upper, /*refutation=*/4);
//   std::optional<ConnectTable::Entry> e = table.Find(key);
//
// A bucket, 32 bytes:
//   bytes 0-15   key[0], key[1] (0: empty)
//   bytes 16-23  data[0], data[1]: byte 0 the lower bound, byte 1 the
//                upper bound (two's complement), byte 2 1 + the column of
//                the move that last refuted a window there (0: none; a
//                column of the key's orientation), byte 3 the empty cells
//                when stored (how deep its search went)
//   bytes 24-27  version: odd while a thread writes the bucket
// The first entry keeps the position that took the most plies to search;
// the second takes any other. Atomics accessed relaxed: plain loads and
// stores on x86.
#ifndef MNK_SEARCH_CONNECT_TABLE_H_
#define MNK_SEARCH_CONNECT_TABLE_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace mnk {

class ConnectTable {
 public:
  static constexpr uint64_t kEntryBytes = 16;  // half a bucket

  struct Entry {
    int lower;
    int upper;
    int refutation;  // 1 + a column, 0: none
    int work;        // empty cells when stored
  };

  // 2^bits entries, zeroed pages mapped (in huge pages where the kernel
  // allows) that cost nothing until used; ok() is false without the
  // memory. `shared`: threads read and write it at once.
  ConnectTable(int bits, bool shared);
  bool ok() const { return buckets_ != nullptr; }
  int bits() const { return 64 - shift_; }
  // Forgets every entry.
  void Clear();

  // Starts reading the key's bucket into the cache.
  void Prefetch(uint64_t key) const { __builtin_prefetch(BucketOf(key)); }

  // The key's entry; nullopt when it has none, or (shared) when its bucket
  // is being written.
  std::optional<Entry> Find(uint64_t key) const {
    const Bucket& bucket = *BucketOf(key);
    uint32_t version = 0;
    if (shared_) {
      version = bucket.version.load(std::memory_order_acquire);
      if ((version & 1) != 0) return std::nullopt;  // being written
    }
    uint32_t data;
    if (bucket.key[0].load(kRelaxed) == key) {
      data = bucket.data[0].load(kRelaxed);
    } else if (bucket.key[1].load(kRelaxed) == key) {
      data = bucket.data[1].load(kRelaxed);
    } else {
      return std::nullopt;
    }
    if (shared_) {
      std::atomic_thread_fence(std::memory_order_acquire);
      if (bucket.version.load(kRelaxed) != version) return std::nullopt;
    }
    return Unpack(data);
  }

  // Records bounds for the key: tightened with those it has, or in a new
  // entry (the first when `work` is at least the first one's).
  void Store(uint64_t key, int work, int lower, int upper, int refutation) {
    Bucket& bucket = *BucketOf(key);
    uint32_t version = 0;
    if (shared_) {  // take the bucket: make its version odd
      for (;;) {
        version = bucket.version.load(kRelaxed);
        if ((version & 1) == 0 &&
            bucket.version.compare_exchange_weak(version, version + 1,
                                                 std::memory_order_acquire)) {
          break;
        }
      }
    }
    Write(bucket, key, work, lower, upper, refutation);
    if (shared_) bucket.version.store(version + 2, std::memory_order_release);
  }

 private:
  static constexpr auto kRelaxed = std::memory_order_relaxed;
  struct Bucket {
    std::atomic<uint64_t> key[2];
    std::atomic<uint32_t> data[2];
    std::atomic<uint32_t> version;
    uint32_t unused;
  };
  static_assert(sizeof(Bucket) == 2 * kEntryBytes);
  struct Unmap {
    size_t bytes;
    void operator()(Bucket* b) const;
  };

  Bucket* BucketOf(uint64_t key) const {
    return &buckets_[(key * 0x9E3779B97F4A7C15ull) >> (shift_ + 1)];
  }
  static uint32_t Pack(int lower, int upper, int refutation, int work) {
    return static_cast<uint8_t>(lower) | static_cast<uint8_t>(upper) << 8 |
           static_cast<uint32_t>(refutation) << 16 |
           static_cast<uint32_t>(work) << 24;
  }
  static Entry Unpack(uint32_t data) {
    return {static_cast<int8_t>(data & 0xff), static_cast<int8_t>(data >> 8),
            static_cast<int>(data >> 16 & 0xff), static_cast<int>(data >> 24)};
  }
  // Store's write, with the bucket held.
  static void Write(Bucket& bucket, uint64_t key, int work, int lower,
                    int upper, int refutation) {
    for (int i = 0; i < 2; ++i) {
      if (bucket.key[i].load(kRelaxed) == key) {
        // Both bounds hold: keep the tighter of each.
        const Entry e = Unpack(bucket.data[i].load(kRelaxed));
        bucket.data[i].store(
            Pack(std::max(e.lower, lower), std::min(e.upper, upper),
                 refutation != 0 ? refutation : e.refutation, e.work),
            kRelaxed);
        return;
      }
    }
    const uint32_t data = Pack(lower, upper, refutation, work);
    const uint32_t first = bucket.data[0].load(kRelaxed);
    if (work >= static_cast<int>(first >> 24)) {
      bucket.key[1].store(bucket.key[0].load(kRelaxed), kRelaxed);
      bucket.data[1].store(first, kRelaxed);
      bucket.key[0].store(key, kRelaxed);
      bucket.data[0].store(data, kRelaxed);
    } else {
      bucket.key[1].store(key, kRelaxed);
      bucket.data[1].store(data, kRelaxed);
    }
  }

  std::unique_ptr<Bucket[], Unmap> buckets_;
  int shift_;
  bool shared_;
};

}  // namespace mnk

#endif  // MNK_SEARCH_CONNECT_TABLE_H_
