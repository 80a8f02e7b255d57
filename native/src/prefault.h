// Provisioning a call's output pages before its clock starts. A typed array the TypeScript layer
// has just allocated is backed by pages the kernel has not yet mapped; their first writes then
// fault inside the timed kernel. On this project's 2-vCPU virtual machine that cost 3-4 us a page:
// a 30% share of a 4elt SpMM (1.2 MB of output) took 240 us or 1.3-2.3 ms depending on whether
// the allocator handed back touched or fresh memory, a bimodal time that no model of the kernel
// explains. The simulated devices report modelled seconds that never include it, so it also
// billed the CPU alone for memory every device's output needs. The pages are mapped here,
// untimed: those not mapped yet, whole 2 MiB blocks as huge pages where the kernel offers them,
// by madvise(MADV_POPULATE_WRITE) (Linux 5.14+) and a write to each page.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#if defined(__linux__)
// Pages asked of mincore per call: 16 MiB of 4 KiB pages, its answer on the stack.
constexpr uintptr_t kResidencyWindowPages = 4096;
// A transparent huge page (x86-64 and most arm64 kernels).
constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;

// Whether fresh output memory may be asked for in huge pages: the kernel offers transparent huge
// pages on request ("always" or "madvise" mode) and DYPE_HUGE_PAGES is not 0 (to compare).
inline bool huge_pages_offered() {
  static const bool yes = [] {
#if defined(MADV_HUGEPAGE)
    const char* off = std::getenv("DYPE_HUGE_PAGES");
    if (off != nullptr && std::strcmp(off, "0") == 0) return false;
    FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f == nullptr) return false;
    char mode[128] = {0};
    const size_t n = std::fread(mode, 1, sizeof mode - 1, f);
    std::fclose(f);
    mode[n] = 0;
    return std::strstr(mode, "[never]") == nullptr;
#else
    return false;
#endif
  }();
  return yes;
}

// Map unmapped pages [run, run + bytes) for writing. The whole 2 MiB blocks inside are asked for
// as huge pages: on the Zen 5 VM a fresh 4 MiB took 0.25 ms to map so against 6 ms in 4 KiB pages (one
// guest fault and one hypervisor exit per block instead of per page). Then each page's first byte
// is written back to itself (the output belongs to this call): on a virtual machine a page the
// guest has just mapped may still have no host memory behind it, and its first write exits to the
// hypervisor. There MADV_POPULATE_WRITE alone left 6.5 us a page to the kernel's first writes (two
// threads writing a populated 4 MiB: 4.5-6.3 ms the first time, 0.6-0.9 ms the second), so an
// aggregation into a fresh output took 4x its time into a reused one.
inline void populate_run(uintptr_t run, size_t bytes) {
  const uintptr_t page = page_bytes();
#ifdef MADV_HUGEPAGE
  const uintptr_t huge_first = (run + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const uintptr_t huge_last = (run + bytes) & ~(kHugePageBytes - 1);
  if (huge_last > huge_first && huge_pages_offered()) {
    (void)madvise(reinterpret_cast<void*>(huge_first), huge_last - huge_first, MADV_HUGEPAGE);
  }
#endif
#ifdef MADV_POPULATE_WRITE
  // One system call maps the run (older kernels fault each page at the write below instead).
  (void)madvise(reinterpret_cast<void*>(run), bytes, MADV_POPULATE_WRITE);
#endif
  volatile uint8_t* at = reinterpret_cast<volatile uint8_t*>(run);
  for (size_t off = 0; off < bytes; off += page) at[off] = at[off];
}

// Map for writing the pages of [first, last) (page-aligned) that are not mapped yet, leaving the
// contents unchanged. Which are is asked of mincore over the whole range (one system call per
// 16 MiB: 4 us for 4 MiB, 25 us for 64 MiB on the Zen 5 VM), and only runs of unmapped pages are
// populated: populating pages that are mapped already still walks the page table at 20-200 ns a
// page (1.4-3 ms for a 64 MiB output, on every call that reuses it). Asking one page for the
// whole range is not enough. A buffer glibc carves from its heap has the next chunk's header
// written just past its end, so its last page is mapped while the rest is fresh: a GCN
// aggregation on wing (4 MiB output) then took its 970 faults inside the timed kernel, 3.5-3.9
// ms against 0.6 ms into a reused buffer, in runs and in the oracle but not in the probes (whose
// outputs are recycled).
inline void populate_unmapped(uintptr_t first, uintptr_t last) {
  const uintptr_t page = page_bytes();
  unsigned char resident[kResidencyWindowPages];
  for (uintptr_t window = first; window < last; window += kResidencyWindowPages * page) {
    const uintptr_t pages = std::min<uintptr_t>(kResidencyWindowPages, (last - window) / page);
    // Where mincore cannot say (never on Linux for mapped memory), every page counts as unmapped.
    const bool known = mincore(reinterpret_cast<void*>(window), pages * page, resident) == 0;
    const auto mapped = [&](uintptr_t i) { return known && (resident[i] & 1) != 0; };
    for (uintptr_t i = 0; i < pages;) {
      if (mapped(i)) {
        ++i;
        continue;
      }
      uintptr_t j = i + 1;
      while (j < pages && !mapped(j)) ++j;
      populate_run(window + i * page, (j - i) * page);
      i = j;
    }
  }
}
#endif  // __linux__

// Map the pages of [data, data + bytes) for writing, leaving their contents unchanged.
// The whole pages inside [data, data + bytes): their first and end addresses (equal where none).
inline std::pair<uintptr_t, uintptr_t> whole_pages(const void* data, size_t bytes) {
  const uintptr_t page = page_bytes();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + page - 1) & ~(page - 1);
  const uintptr_t last = (begin + bytes) & ~(page - 1);
  return {first, std::max(first, last)};
}

inline void prefault(void* data, size_t bytes) {
  if (data == nullptr || bytes < kPrefaultMinBytes) return;
  const auto [first, last] = whole_pages(data, bytes);
  if (last == first) return;
#if defined(__linux__)
  populate_unmapped(first, last);
#else
  for (uintptr_t at = first; at < last; at += page_bytes()) *reinterpret_cast<volatile uint8_t*>(at) = *reinterpret_cast<volatile uint8_t*>(at);
#endif
}

// A call's outputs: (address, bytes) spans to provision before it is timed.
using OutputSpans = std::vector<std::pair<void*, size_t>>;

inline void prefault(const OutputSpans& spans) {
  for (const auto& [data, bytes] : spans) prefault(data, bytes);
}

}  // namespace dype
