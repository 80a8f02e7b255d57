// Pre-faulting output buffers. A fresh JS typed array is backed by zero pages that fault on first
// write; when several pool threads fault the same fresh buffer at once they serialise on the
// process's memory map, and on a virtual machine each fault also exits to the hypervisor. On the
// 2-vCPU development VM this made SpMM into a fresh 5 MB output 8x slower than into a reused one.
// One madvise(MADV_POPULATE_WRITE) maps the whole range in the kernel in a single call instead.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "../prefault.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14+; older kernels answer EINVAL and nothing changes
#endif

namespace dype {

// Map the pages of [p, p + bytes) for writing before a parallel kernel writes them. Best effort:
// a failure (old kernel, not Linux) only means the kernel takes the faults as before. Pages
// already mapped cost a page-table walk, far less than the kernel's own pass over them.
inline void populate_for_write(void* p, size_t bytes) {
#if defined(__linux__)
  if (bytes < (size_t{1} << 20)) return;
  const uintptr_t page = page_bytes();
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(page - 1);
  // Calls through the async layer arrive with their outputs mapped by prefault(): skip them.
  if (end > begin && !pages_look_mapped(begin, end)) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace dype
