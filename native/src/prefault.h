// Provisioning a call's output pages before its clock starts. A typed array the TypeScript layer
// has just allocated is backed by pages the kernel has not yet mapped; their first writes then
// fault inside the timed kernel. On this project's 2-vCPU virtual machine that cost 3-4 us a page:
// a 30% share of a 4elt SpMM (1.2 MB of output) took 240 us or 1.3-2.3 ms depending on whether
// the allocator handed back touched or fresh memory, a bimodal time that no model of the kernel
// explains. The simulated devices report modelled seconds that never include it, so it also
// billed the CPU alone for memory every device's output needs. The pages are mapped here,
// untimed, by one madvise(MADV_POPULATE_WRITE) (Linux 5.14+), or by touching each page.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dype {

// Outputs smaller than this fault a handful of pages at most: not worth a system call.
constexpr size_t kPrefaultMinBytes = size_t{64} << 10;

inline uintptr_t page_bytes() {
  static const uintptr_t page = [] {
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<uintptr_t>(p) : uintptr_t{4096};
  }();
  return page;
}

// Whether the whole pages in [first, last) look mapped already: the last page, asked of mincore
// (one system call; populating pages that are already mapped still walks the page table at
// 100-200 ns a page: 1.6-3 ms for a 64 MiB output, on every call that reuses it). An output is
// either fresh (none of its pages mapped: the allocator's new mmap) or reused (all of them
// written by an earlier call), and a buffer written only in part was written from its start, so
// the last page tells them apart. The first, middle and last page were asked before: each
// mincore costs about 0.63 us on the Zen 5 VM, and the two extra calls were a third of an inline
// kernel call's cost over its kernel (an SpMM of cora's size, k = 16: 3.5 us). A buffer whose
// last page alone is mapped takes its remaining faults in the kernel, as before any of this.
inline bool pages_look_mapped(uintptr_t first, uintptr_t last) {
#if defined(__linux__)
  const uintptr_t page = page_bytes();
  if (last <= first) return true;
  unsigned char resident = 0;
  return mincore(reinterpret_cast<void*>(last - page), page, &resident) == 0 && (resident & 1) != 0;
#else
  (void)first;
  (void)last;
  return false;
#endif
}

// Map the pages of [data, data + bytes) for writing, leaving their contents unchanged.
inline void prefault(void* data, size_t bytes) {
  if (data == nullptr || bytes < kPrefaultMinBytes) return;
  const uintptr_t page = page_bytes();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + page - 1) & ~(page - 1);
  const uintptr_t last = (begin + bytes) & ~(page - 1);
  if (pages_look_mapped(first, last)) return;
#ifdef MADV_POPULATE_WRITE
  if (last > first && madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE) == 0) return;
#endif
  // Older kernels: write each page's first byte back to itself (the output belongs to this call).
  volatile uint8_t* bytes_at = static_cast<volatile uint8_t*>(data);
  for (uintptr_t at = first; at < last; at += page) {
    const size_t i = at - begin;
    bytes_at[i] = bytes_at[i];
  }
}

// A call's outputs: (address, bytes) spans to provision before it is timed.
using OutputSpans = std::vector<std::pair<void*, size_t>>;

inline void prefault(const OutputSpans& spans) {
  for (const auto& [data, bytes] : spans) prefault(data, bytes);
}

}  // namespace dype
