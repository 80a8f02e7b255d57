// Pre-faulting output buffers. A fresh JS typed array is backed by zero pages that fault on first
// write; when several pool threads fault the same fresh buffer at once they serialise on the
// process's memory map, and on a virtual machine each fault also exits to the hypervisor. On the
// 2-vCPU development VM this made SpMM into a fresh 5 MB output 8x slower than into a reused one.
// One madvise(MADV_POPULATE_WRITE) maps the whole range in the kernel in a single call instead.
#pragma once

#include <cstddef>

#include "../prefault.h"

namespace dype {

// Map the pages of [p, p + bytes) for writing before a parallel kernel writes them.
inline void populate_for_write(void* p, size_t bytes) {
  // The same mapping as prefault() (skipped where the pages are mapped already, as for every
  // call through the async layer), for kernels called directly, above a larger floor.
  if (bytes >= (size_t{1} << 20)) prefault(p, bytes);
}

}  // namespace dype
