// The CUDA backend as the addon sees it: plain C++ (no CUDA headers), so the Node-API binding
// compiles with the host compiler whether or not CUDA was built. runtime.cu implements it where
// nvcc and the CUDA runtime were found at build time; runtime_stub.cc everywhere else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../kernels/bfs.h"
#include "../kernels/dense.h"
#include "../kernels/spmm.h"

namespace dype {
namespace gpu {

// What `dype system` and the backend's probe report. `available` is false with a `reason` when
// CUDA was not built in, when there is no driver (libcuda is only looked for here, never at load
// time), or when the driver sees no device.
struct Probe {
  bool built = false;
  bool available = false;
  std::string reason;
  std::string name;
  int devices = 0;
  int cc_major = 0;
  int cc_minor = 0;
  int sms = 0;
  double total_bytes = 0;
  double free_bytes = 0;
  double l2_bytes = 0;
  double clock_mhz = 0;
  double memory_clock_mhz = 0;
  int bus_width_bits = 0;
  int runtime_version = 0;
  int driver_version = 0;
  bool nvml = false;            // energy from NVML power readings
  double power_limit_watts = 0;  // from NVML, 0 when unknown
};

// Probed once; later calls return the first answer.
const Probe& probe();

// cuBLAS, for GEMM on the card: loaded with dlopen when first asked (never needed to load the
// addon), from $DYPE_CUBLAS, else libcublas.so.13, .12 or plain on the library path, else the
// toolkit's lib64. `available` is false with a `reason` where it is not found or no device is.
struct BlasProbe {
  bool available = false;
  std::string reason;
  std::string library;  // "cuBLAS 13.0.2 (/usr/local/cuda/lib64/libcublas.so.13)"
};
const BlasProbe& blas_probe();

// One operator's costs. Times come from CUDA events on the operator's own stream.
struct Run {
  double kernel_s = 0;  // the kernels alone (what the device reports as its time)
  double h2d_s = 0;     // copying the inputs to the device
  double d2h_s = 0;     // copying the result back
  double h2d_bytes = 0;
  double d2h_bytes = 0;
  double watts = 0;     // NVML board power after the kernels; 0 without NVML
  bool energy_measured = false;
  int strategy = 0;     // SpMM: 1 row split, 2 nnz split
  int group = 0;        // lanes per row or chunk
  int64_t levels = 0;   // BFS levels
  double resident_bytes = 0;  // inputs read from resident (prefetched) copies, not copied
};

// A host buffer, as prefetch and release name it: its address and length in bytes.
struct HostSpan {
  const void* data = nullptr;
  size_t bytes = 0;
};

struct PrefetchResult {
  double seconds = 0;  // the copies, from CUDA events
  double bytes = 0;    // bytes copied
  int copied = 0;      // buffers made resident by this call
  int already = 0;     // buffers that were resident already (not copied again)
};

// strategy: 0 auto (from the row lengths), 1 row split, 2 nnz split.
Status spmm(const char* fn, const SpmmArgs& args, int strategy, Run* run);
Status bfs(const char* fn, const BfsArgs& args, BfsStats* stats, Run* run);
Status msbfs(const char* fn, const MsBfsArgs& args, int64_t* edges_examined, Run* run);

// The dense operators on the card, over the same arguments as the CPU's (dense.h, checked by
// the same binding): GEMM through cuBLAS, element-wise maps, column-reduction partials and SDDMM
// as CUDA kernels, each over a range of output rows. Results equal the CPU kernels' exactly for
// relu, affine and add, and within rounding for the sums (other summation orders).
Status gemm(const char* fn, const GemmArgs& a, Run* run);
Status map(const char* fn, const MapArgs& a, Run* run);
Status reduce_partial(const char* fn, const ReduceArgs& a, Run* run);
Status sddmm(const char* fn, const SddmmArgs& a, Run* run);

// Copy these host buffers to the device, where later operators that read exactly these
// buffers (same address and length) find them instead of copying again. The device copy keeps
// the contents as they were at prefetch time until release(). The caller keeps the host buffers
// alive (and their addresses unreused) while they are resident.
Status prefetch(const char* fn, const std::vector<HostSpan>& spans, PrefetchResult* result);
// Drop the device copies of these buffers; memory is freed once no running operator reads it.
void release(const std::vector<HostSpan>& spans, double* freed_bytes);
// Buffers resident now, and their bytes.
void resident_stats(double* count, double* bytes);
// Announce outputs: the next operator that writes exactly one of these host buffers keeps its
// device result as the buffer's resident copy (read in place by later operators, dropped by
// release()); with `defer`, the host buffer is not written until fetch().
void expect_outputs(const std::vector<HostSpan>& spans, bool defer);
// Copy deferred outputs home (those already home, or not resident, cost nothing).
Status fetch(const char* fn, const std::vector<HostSpan>& spans, PrefetchResult* result);

}  // namespace gpu
}  // namespace dype
