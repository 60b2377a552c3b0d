#include "base/parallel/malloc_arena.h"

#include <cstdlib>  // defines __GLIBC__ with glibc

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace mnk {

void UseOneMallocArena() {
#ifdef __GLIBC__
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace mnk
