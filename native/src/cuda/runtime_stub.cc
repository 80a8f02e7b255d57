// The CUDA backend where CUDA was not built in (no nvcc or CUDA runtime at build time, or
// DYPE_CUDA=0): the probe says why, and every operator is refused with that reason.
#include "gpu.h"

#ifndef DYPE_CUDA_OFF
#define DYPE_CUDA_OFF 1
#endif

namespace dype {
namespace gpu {

const Probe& probe() {
  static const Probe p = [] {
    Probe q;
    q.built = false;
    q.available = false;
    switch (DYPE_CUDA_OFF) {
      case 1: q.reason = "dype was built without CUDA: nvcc was not found at build time"; break;
      case 2: q.reason = "dype was built without CUDA: libcudart_static.a was not found at build time"; break;
      default: q.reason = "dype was built without CUDA: DYPE_CUDA=0 at build time"; break;
    }
    return q;
  }();
  return p;
}

namespace {
Status unavailable(const char* fn) {
  return Status{false, "ERR_UNSUPPORTED", std::string(fn) + ": no CUDA device (" + probe().reason + ")"};
}
}  // namespace

Status spmm(const char* fn, const SpmmArgs&, int, Run*) { return unavailable(fn); }
Status bfs(const char* fn, const BfsArgs&, BfsStats*, Run*) { return unavailable(fn); }
Status msbfs(const char* fn, const MsBfsArgs&, int64_t*, Run*) { return unavailable(fn); }
Status gemm(const char* fn, const GemmArgs&, Run*) { return unavailable(fn); }
Status map(const char* fn, const MapArgs&, Run*) { return unavailable(fn); }
Status reduce_partial(const char* fn, const ReduceArgs&, Run*) { return unavailable(fn); }
Status sddmm(const char* fn, const SddmmArgs&, Run*) { return unavailable(fn); }
const BlasProbe& blas_probe() {
  static const BlasProbe b{false, "cuBLAS was not looked for: no CUDA device (" + probe().reason + ")", ""};
  return b;
}
Status prefetch(const char* fn, const std::vector<HostSpan>&, PrefetchResult*) { return unavailable(fn); }
void release(const std::vector<HostSpan>&, double* freed_bytes) {
  if (freed_bytes) *freed_bytes = 0;
}
void expect_outputs(const std::vector<HostSpan>&, bool) {}
Status fetch(const char* fn, const std::vector<HostSpan>&, PrefetchResult*) { return unavailable(fn); }
void resident_stats(double* count, double* bytes) {
  *count = 0;
  *bytes = 0;
}

}  // namespace gpu
}  // namespace dype
