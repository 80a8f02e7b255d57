// What the kernels need to know about the machine's caches, read once per process.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "thread_pool.h"

namespace dype {

// The boundary dense data dype allocates starts on (src/data/aligned.ts: DENSE_ALIGN_BYTES): a
// cache line, and a 512-bit vector.
constexpr uintptr_t kDenseAlignBytes = 64;

// One core's L2 in bytes (2 MiB where sysconf does not know).
inline int64_t l2_cache_bytes() {
  static const int64_t l2 = [] {
    int64_t bytes = 0;
#if defined(_SC_LEVEL2_CACHE_SIZE)
    bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return bytes > 0 ? bytes : int64_t{2} << 20;
  }();
  return l2;
}

// Bytes of last-level cache this process can count on keeping its data in. The reported L3 is
// the whole socket's (300 MiB on the 2-vCPU cloud machine this was tuned on, shared with every
// other tenant of the host), so the share is capped at L2 plus kL3PerCore for each core the pool
// uses: about what a core owns on current server parts (AMD Zen 4 MiB of L3 a core, Intel 2 MiB
// of L2 and about 2 MiB of L3). Where sysconf knows no L2 or L3, 2 MiB and 32 MiB are assumed.
inline int64_t cache_share_bytes() {
  static const int64_t share = [] {
    constexpr int64_t kL3PerCore = int64_t{4} << 20;
    const int64_t l2 = l2_cache_bytes();
    int64_t l3 = 0;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    if (l3 <= 0) l3 = int64_t{32} << 20;
    const int64_t cores = std::max(1, usable_cores());
    return std::min<int64_t>(l3 + l2 * cores, cores * (l2 + kL3PerCore));
  }();
  return share;
}

}  // namespace dype
