// Inputs resident on the device: prefetch copies host buffers once, release drops them, and
// an operator's Context reads a resident copy where its operand is exactly that buffer.
#include <cuda_runtime.h>

#include <chrono>
#include <memory>
#include <vector>

#include "runtime_internal.cuh"

namespace dype {
namespace gpu {
namespace rt {

ResidentStore& resident() {
  static ResidentStore* store = new ResidentStore;  // never destroyed: see StagePool
  return *store;
}

}  // namespace rt

using namespace rt;

Status prefetch(const char* fn, const std::vector<HostSpan>& spans, PrefetchResult* result) {
  Context ctx(fn);
  DYPE_OK(ctx.open());
  double need = 0;
  for (const HostSpan& h : spans)
    if (h.bytes > 0 && !resident().find(h.data, h.bytes)) need += static_cast<double>(h.bytes);
  DYPE_OK(ctx.reserve(need));
  DYPE_OK(ctx.mark(0));
  std::vector<ResidentEntry> fresh;
  for (const HostSpan& h : spans) {
    if (h.bytes == 0) continue;
    bool seen = resident().find(h.data, h.bytes) != nullptr;
    for (const ResidentEntry& f : fresh) seen = seen || (f.host == h.data && f.bytes == h.bytes);
    if (seen) {
      ++result->already;
      continue;
    }
    ResidentEntry e;
    e.host = h.data;
    e.bytes = h.bytes;
    e.dev = std::make_shared<DeviceBuffer>();
    DYPE_CUDA_TRY(fn, "allocating device memory for a prefetch", cudaMalloc(&e.dev->p, h.bytes));
    DYPE_OK(ctx.to_device(e.dev->p, h.data, h.bytes));
    fresh.push_back(std::move(e));
  }
  DYPE_OK(ctx.mark(1));
  DYPE_OK(ctx.sync());
  result->seconds = ctx.elapsed(0, 1);
  result->bytes = ctx.h2d_bytes();
  // Only whole, finished copies become resident.
  for (ResidentEntry& e : fresh) {
    if (resident().add(std::move(e))) ++result->copied;
    else ++result->already;
  }
  return Status{};
}

void release(const std::vector<HostSpan>& spans, double* freed_bytes) {
  double freed = 0;
  for (const HostSpan& h : spans) freed += static_cast<double>(resident().remove(h.data, h.bytes));
  if (freed_bytes) *freed_bytes = freed;
}

void expect_outputs(const std::vector<HostSpan>& spans, bool defer) {
  for (const HostSpan& h : spans) {
    if (h.bytes == 0) continue;
    PendingOutput p;
    p.host = h.data;
    p.bytes = h.bytes;
    p.defer = defer;
    resident().expect(p);
  }
}

Status fetch(const char* fn, const std::vector<HostSpan>& spans, PrefetchResult* result) {
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.mark(0));
  const auto t0 = std::chrono::steady_clock::now();
  for (const HostSpan& h : spans) {
    const double before = ctx.d2h_bytes();
    if (h.bytes > 0) DYPE_OK(ctx.refresh_host(h.data, h.bytes));
    if (ctx.d2h_bytes() > before) ++result->copied;
    else ++result->already;
  }
  result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result->bytes = ctx.d2h_bytes();
  return Status{};
}

void resident_stats(double* count, double* bytes) {
  size_t c = 0, b = 0;
  resident().stats(&c, &b);
  *count = static_cast<double>(c);
  *bytes = static_cast<double>(b);
}

}  // namespace gpu
}  // namespace dype
