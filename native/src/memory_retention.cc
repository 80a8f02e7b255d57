// Freed memory kept in the process. glibc serves an allocation of 128 KiB or more (its default
// threshold; it rises with what is freed, up to 32 MiB) by a fresh mapping, and hands freed memory
// at the heap's top back to the system once 128 KiB or more is free there. Every run's outputs are
// fresh memory then: a 4 MiB output's pages are backed by the system again at their first write,
// and on a virtual machine that reports freed memory to its host each page costs a guest fault and
// a hypervisor exit (2-12 us a page on this project's VMs, huge pages included: a 4 MiB array
// took 11 ms to map on the AMD EPYC VM). A `runPlan` of one SpMM on wing (k = 16, 4 MiB out) spent
// 2.2 ms a run against its 0.6 ms kernel, half of it in the system. So when the addon loads,
// allocations up to 32 MiB (glibc's largest threshold) come from the heap, and the heap keeps up
// to 256 MiB free at its top: an output freed is the next one's memory, its pages already backed
// (calloc clears it, at memory speed). Above 32 MiB arrays are mapped fresh, as before, and
// retention is bounded. DYPE_KEEP_FREED_MEMORY=0, or malloc thresholds in GLIBC_TUNABLES, leave
// glibc's own settings alone.
#include <napi.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "napi_util.h"

// AddressSanitizer's allocator stands in for glibc's (its mallopt refuses everything).
#if defined(__SANITIZE_ADDRESS__)
#define DYPE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DYPE_UNDER_ASAN 1
#endif
#endif

namespace dype {
namespace {

using namespace napi;

// glibc's largest M_MMAP_THRESHOLD on 64-bit systems (half its 64 MiB heap size).
constexpr int kHeapBelowBytes = 32 << 20;
// Free memory at the heap's top kept before it is handed back.
constexpr int kKeepFreeBytes = 256 << 20;

struct Retention {
  bool applied = false;
  std::string reason;
};

Retention apply_retention() {
#if defined(DYPE_UNDER_ASAN)
  return {false, "the addon is built with AddressSanitizer, whose allocator stands in for glibc's"};
#elif defined(__GLIBC__)
  const char* off = std::getenv("DYPE_KEEP_FREED_MEMORY");
  if (off != nullptr && std::strcmp(off, "0") == 0) return {false, "DYPE_KEEP_FREED_MEMORY=0"};
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr && (std::strstr(tunables, "mmap_threshold") != nullptr || std::strstr(tunables, "trim_threshold") != nullptr)) {
    return {false, "GLIBC_TUNABLES sets malloc's thresholds"};
  }
  if (mallopt(M_MMAP_THRESHOLD, kHeapBelowBytes) != 1 || mallopt(M_TRIM_THRESHOLD, kKeepFreeBytes) != 1) {
    return {false, "glibc refused the thresholds (mallopt)"};
  }
  return {true, ""};
#else
  return {false, "the process's allocator is not glibc's"};
#endif
}

// Applied once per process, however many times (threads, environments) the addon loads.
const Retention& retention() {
  static std::once_flag once;
  static Retention r;
  std::call_once(once, [] { r = apply_retention(); });
  return r;
}

// memoryRetention(): { applied, heapBelowBytes, keepFreeBytes, reason }: whether freed memory is
// kept (allocations under heapBelowBytes from the heap, up to keepFreeBytes free kept at its top),
// and why not where it is not.
Napi::Value MemoryRetention(const Napi::CallbackInfo& info) {
  const Retention& r = retention();
  Napi::Object o = Napi::Object::New(info.Env());
  set_booleans(o, {{"applied", r.applied}});
  o.Set("heapBelowBytes", Napi::Number::New(info.Env(), r.applied ? kHeapBelowBytes : 0));
  o.Set("keepFreeBytes", Napi::Number::New(info.Env(), r.applied ? kKeepFreeBytes : 0));
  set_strings(o, {{"reason", r.reason}});
  return o;
}

void register_memory_retention(Napi::Env env, Napi::Object exports) {
  (void)retention();
  export_functions(env, exports, {{"memoryRetention", MemoryRetention}});
}

const ExportRegistrar reg(register_memory_retention);

}  // namespace
}  // namespace dype
