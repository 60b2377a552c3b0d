#include "base/parallel/malloc_arena.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "gtest/gtest.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

// AddressSanitizer's malloc replaces glibc's, arenas and all.
#if defined(__SANITIZE_ADDRESS__)
#define MNK_GLIBC_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MNK_GLIBC_MALLOC 0
#endif
#endif
#if !defined(MNK_GLIBC_MALLOC) && defined(__GLIBC__)
#define MNK_GLIBC_MALLOC 1
#endif

namespace mnk {
namespace {

#if MNK_GLIBC_MALLOC
// The malloc arenas made so far: malloc_info lists each as <heap nr="N">.
int MallocArenas() {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  std::fclose(out);
  const std::string info(text, size);
  std::free(text);
  int arenas = 0;
  for (size_t at = info.find("<heap nr="); at != std::string::npos;
       at = info.find("<heap nr=", at + 1)) {
    ++arenas;
  }
  return arenas;
}

// The only test of this program: no thread may start before it.
TEST(UseOneMallocArenaTest, AThreadAllocatesFromTheMainArena) {
  ASSERT_EQ(MallocArenas(), 1);
  UseOneMallocArena();
  // Without it, glibc gives this thread an arena of its own.
  std::thread([] {
    void* volatile block = std::malloc(1000);
    std::free(block);
  }).join();
  EXPECT_EQ(MallocArenas(), 1);
}
#else
TEST(UseOneMallocArenaTest, AThreadAllocatesFromTheMainArena) {
  GTEST_SKIP() << "malloc is not glibc's";
}
#endif

}  // namespace
}  // namespace mnk
