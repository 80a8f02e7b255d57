// dype's CUDA kernels: SpMM/SpMV in two strategies (row split and nnz split), direction-optimising
// BFS and bit-parallel multi-source BFS. See kernels.cuh for the contracts.
#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>

#include "kernels.cuh"

namespace cg = cooperative_groups;

namespace dype {
namespace cuda {
namespace {

constexpr int kBlock = 256;

// Streaming multiprocessors of the current device, read once per device.
int current_sms() {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 1;
  static int cached[64] = {0};
  if (dev >= 0 && dev < 64 && cached[dev] > 0) return cached[dev];
  int sms = 1;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1) sms = 1;
  if (dev >= 0 && dev < 64) cached[dev] = sms;
  return sms;
}

// Blocks for `threads` threads in a grid-stride loop: enough to fill every SM several times.
unsigned blocks_for(int64_t threads) {
  const int64_t want = (threads + kBlock - 1) / kBlock;
  const int64_t cap = static_cast<int64_t>(current_sms()) * 16;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(want, cap)));
}

int pow2_at_least(int64_t v, int lo, int hi) {
  int g = lo;
  while (g < hi && g < v) g *= 2;
  return g;
}

__device__ __forceinline__ bool bad_column(int32_t c, int64_t cols) {
  return static_cast<uint64_t>(static_cast<uint32_t>(c)) >= static_cast<uint64_t>(cols);
}

// The lanes of this thread's group of G inside its warp, as a shuffle/ballot mask.
template <int G>
__device__ __forceinline__ unsigned group_mask() {
  if constexpr (G == 32) {
    return 0xffffffffu;
  } else {
    const unsigned lane = threadIdx.x & 31u;
    return ((1u << G) - 1u) << (lane & ~(G - 1u));
  }
}

// Add a per-thread count into *total with one atomic per warp. Every lane of the warp must call.
__device__ __forceinline__ void warp_add(unsigned long long* total, unsigned long long v) {
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31u) == 0 && v != 0) atomicAdd(total, v);
}

// ---- Vector loads of X and Y ------------------------------------------------------------------
//
// Where k allows, a lane loads V consecutive columns of an X row in one instruction (float4,
// double2): a quarter of the load instructions for the same bytes, so more gathers in flight per
// warp on latency-bound power-law inputs. The kernels below work on "vector columns" of type
// Vec<T, V>::type; V = 1 is the scalar case.
template <typename T, int V>
struct Vec;
template <>
struct Vec<float, 1> {
  using type = float;
};
template <>
struct Vec<float, 4> {
  using type = float4;
};
template <>
struct Vec<double, 1> {
  using type = double;
};
template <>
struct Vec<double, 2> {
  using type = double2;
};

__device__ __forceinline__ void vzero(float& a) { a = 0.f; }
__device__ __forceinline__ void vzero(double& a) { a = 0.0; }
__device__ __forceinline__ void vzero(float4& a) { a = make_float4(0.f, 0.f, 0.f, 0.f); }
__device__ __forceinline__ void vzero(double2& a) { a = make_double2(0.0, 0.0); }
__device__ __forceinline__ void vfma(float& acc, float a, float x) { acc += a * x; }
__device__ __forceinline__ void vfma(double& acc, double a, double x) { acc += a * x; }
__device__ __forceinline__ void vfma(float4& acc, float a, float4 x) {
  acc.x += a * x.x;
  acc.y += a * x.y;
  acc.z += a * x.z;
  acc.w += a * x.w;
}
__device__ __forceinline__ void vfma(double2& acc, double a, double2 x) {
  acc.x += a * x.x;
  acc.y += a * x.y;
}
__device__ __forceinline__ void vatomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void vatomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void vatomic_add(float4* p, float4 v) {
  float* q = reinterpret_cast<float*>(p);
  atomicAdd(q, v.x);
  atomicAdd(q + 1, v.y);
  atomicAdd(q + 2, v.z);
  atomicAdd(q + 3, v.w);
}
__device__ __forceinline__ void vatomic_add(double2* p, double2 v) {
  double* q = reinterpret_cast<double*>(p);
  atomicAdd(q, v.x);
  atomicAdd(q + 1, v.y);
}

// ---- SpMM / SpMV, row split -------------------------------------------------------------------

// Accumulate nonzeros [jb, je) of one row into acc: this lane's CPT columns c0, c0 + G, ...
// Four nonzeros at a time, their column indices and values loaded first, so each lane has 4 * CPT
// independent loads of X in flight instead of one: SpMM is bound by the latency of those loads.
template <typename T, typename XT, int G, int CPT>
__device__ __forceinline__ void accumulate(int64_t jb, int64_t je, const int32_t* __restrict__ ci, const T* __restrict__ val,
                                           const XT* __restrict__ x, int64_t k, int64_t c0, int64_t cols, int* err,
                                           XT (&acc)[CPT]) {
  int64_t j = jb;
  for (; j + 4 <= je; j += 4) {
    int32_t cc[4];
    T vv[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      cc[u] = __ldg(ci + j + u);
      vv[u] = val ? __ldg(val + j + u) : T(1);
      if (bad_column(cc[u], cols)) {
        atomicOr(err, kErrColumnOutOfRange);
        cc[u] = 0;
        vv[u] = 0;
      }
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const XT* xr = x + static_cast<int64_t>(cc[u]) * k;
#pragma unroll
      for (int t = 0; t < CPT; ++t) {
        const int64_t c = c0 + static_cast<int64_t>(t) * G;
        if (c < k) vfma(acc[t], vv[u], __ldg(xr + c));
      }
    }
  }
  for (; j < je; ++j) {
    const int32_t col = __ldg(ci + j);
    if (bad_column(col, cols)) {
      atomicOr(err, kErrColumnOutOfRange);
      continue;
    }
    const T a = val ? __ldg(val + j) : T(1);
    const XT* xr = x + static_cast<int64_t>(col) * k;
#pragma unroll
    for (int t = 0; t < CPT; ++t) {
      const int64_t c = c0 + static_cast<int64_t>(t) * G;
      if (c < k) vfma(acc[t], a, __ldg(xr + c));
    }
  }
}

// k > 1: a group of G lanes per row, each lane CPT columns (c, c + G, ...): the G lanes read one
// row of X together, coalesced.
// X and Y are in vector columns of type XT (k of them per row).
template <typename T, typename XT, int G, int CPT>
__global__ void __launch_bounds__(kBlock) spmm_row_kernel(int64_t m, int64_t cols, const int64_t* __restrict__ rp,
                                                          const int32_t* __restrict__ ci, const T* __restrict__ val,
                                                          const XT* __restrict__ x, int64_t k, XT* __restrict__ y, int* err) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / G;
  for (int64_t row = t / G; row < m; row += groups) {
    const int64_t b = rp[row], e = rp[row + 1];
    for (int64_t c0 = lane; c0 < k; c0 += static_cast<int64_t>(G) * CPT) {
      XT acc[CPT];
#pragma unroll
      for (int i = 0; i < CPT; ++i) vzero(acc[i]);
      accumulate<T, XT, G, CPT>(b, e, ci, val, x, k, c0, cols, err, acc);
#pragma unroll
      for (int i = 0; i < CPT; ++i) {
        const int64_t c = c0 + static_cast<int64_t>(i) * G;
        if (c < k) y[row * k + c] = acc[i];
      }
    }
  }
}

// k = 1: a group of G lanes shares each row's nonzeros and reduces with shuffles. The loop runs
// per warp (32 / G rows at a time) so every lane reaches the shuffles.
template <typename T, int G>
__global__ void __launch_bounds__(kBlock) spmv_row_kernel(int64_t m, int64_t cols, const int64_t* __restrict__ rp,
                                                          const int32_t* __restrict__ ci, const T* __restrict__ val,
                                                          const T* __restrict__ x, T* __restrict__ y, int* err) {
  constexpr int kRowsPerWarp = 32 / G;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t warp = t / 32, warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const int sub = static_cast<int>((threadIdx.x & 31) / G);
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const unsigned mask = group_mask<G>();
  for (int64_t base = warp * kRowsPerWarp; base < m; base += warps * kRowsPerWarp) {
    const int64_t row = base + sub;
    T acc = 0;
    if (row < m) {
      const int64_t e = rp[row + 1];
      for (int64_t j = rp[row] + lane; j < e; j += G) {
        const int32_t col = __ldg(ci + j);
        if (bad_column(col, cols)) {
          atomicOr(err, kErrColumnOutOfRange);
          continue;
        }
        acc += (val ? __ldg(val + j) : T(1)) * __ldg(x + col);
      }
    }
    for (int off = G / 2; off > 0; off /= 2) acc += __shfl_down_sync(mask, acc, off, G);
    if (row < m && lane == 0) y[row] = acc;
  }
}

// ---- SpMM / SpMV, nnz split -------------------------------------------------------------------

// Each group of G lanes takes `chunk` consecutive nonzeros, finds the row of its first one by
// binary search over the row pointers, and walks them in order. A row wholly inside the chunk is
// stored; a row that crosses a chunk boundary is shared with a neighbour and added atomically
// (Y starts zeroed). Lanes split the columns as in the row split.
template <typename XT, int G, int CPT>
__device__ __forceinline__ void flush_row(XT* __restrict__ y, int64_t r, int64_t k, int64_t c0, bool whole, XT (&acc)[CPT]) {
#pragma unroll
  for (int i = 0; i < CPT; ++i) {
    const int64_t c = c0 + static_cast<int64_t>(i) * G;
    if (c < k) {
      if (whole) y[r * k + c] = acc[i];
      else vatomic_add(y + r * k + c, acc[i]);
    }
    vzero(acc[i]);
  }
}

template <typename T, typename XT, int G, int CPT>
__global__ void __launch_bounds__(kBlock) spmm_nnz_kernel(int64_t m, int64_t nnz, int64_t cols,
                                                          const int64_t* __restrict__ rp, const int32_t* __restrict__ ci,
                                                          const T* __restrict__ val, const XT* __restrict__ x, int64_t k,
                                                          XT* __restrict__ y, int* err, int64_t chunk) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / G;
  const int64_t chunks = (nnz + chunk - 1) / chunk;
  for (int64_t q = t / G; q < chunks; q += groups) {
    const int64_t j0 = q * chunk;
    const int64_t j1 = nnz < j0 + chunk ? nnz : j0 + chunk;
    // The last row starting at or before j0 is the one holding nonzero j0 (empty rows share its
    // start and come before it).
    int64_t lo = 0, hi = m - 1;
    while (lo < hi) {
      const int64_t mid = (lo + hi + 1) / 2;
      if (rp[mid] <= j0) lo = mid;
      else hi = mid - 1;
    }
    for (int64_t c0 = lane; c0 < k; c0 += static_cast<int64_t>(G) * CPT) {
      int64_t r = lo, rbeg = rp[lo], rend = rp[lo + 1];
      XT acc[CPT];
#pragma unroll
      for (int i = 0; i < CPT; ++i) vzero(acc[i]);
      int64_t j = j0;
      while (j < j1) {
        while (j >= rend) {
          flush_row<XT, G, CPT>(y, r, k, c0, rbeg >= j0 && rend <= j1, acc);
          ++r;
          rbeg = rend;
          rend = rp[r + 1];
        }
        const int64_t stop = rend < j1 ? rend : j1;
        accumulate<T, XT, G, CPT>(j, stop, ci, val, x, k, c0, cols, err, acc);
        j = stop;
      }
      flush_row<XT, G, CPT>(y, r, k, c0, rbeg >= j0 && rend <= j1, acc);
    }
  }
}

// Columns per lane: a full group of 32 lanes takes up to 4 (vector) columns each (k = 128 in one
// pass). `k` counts vector columns of XT.
template <typename T, typename XT, int G>
void launch_row(cudaStream_t s, const LocalCsr& a, const T* val, const XT* x, int64_t k, XT* y, int* err) {
  const unsigned blocks = blocks_for(a.m * G);
  if (G < 32 || k <= 32) spmm_row_kernel<T, XT, G, 1><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err);
  else if (k <= 64) spmm_row_kernel<T, XT, G, 2><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err);
  else spmm_row_kernel<T, XT, G, 4><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err);
}

template <typename T, typename XT, int G>
void launch_nnz(cudaStream_t s, const LocalCsr& a, const T* val, const XT* x, int64_t k, XT* y, int* err, int64_t chunk) {
  const int64_t chunks = (a.nnz + chunk - 1) / chunk;
  const unsigned blocks = blocks_for(chunks * G);
  if (G < 32 || k <= 32)
    spmm_nnz_kernel<T, XT, G, 1><<<blocks, kBlock, 0, s>>>(a.m, a.nnz, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err, chunk);
  else if (k <= 64)
    spmm_nnz_kernel<T, XT, G, 2><<<blocks, kBlock, 0, s>>>(a.m, a.nnz, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err, chunk);
  else
    spmm_nnz_kernel<T, XT, G, 4><<<blocks, kBlock, 0, s>>>(a.m, a.nnz, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err, chunk);
}

// Launch with X and Y seen as V-wide vectors: `k` is in scalars and divisible by V, `group` is
// the plan's lanes per row or chunk, for vector columns.
template <typename T, int V>
void launch_spmm(cudaStream_t s, const LocalCsr& a, const T* values, const T* x, int64_t k, T* y, int* err, int strategy,
                 int group, int64_t chunk) {
  using XT = typename Vec<T, V>::type;
  const XT* xv = reinterpret_cast<const XT*>(x);
  XT* yv = reinterpret_cast<XT*>(y);
  const int64_t kv = k / V;
  if (strategy == kNnzSplit) {
    switch (group) {
      case 1: launch_nnz<T, XT, 1>(s, a, values, xv, kv, yv, err, chunk); break;
      case 2: launch_nnz<T, XT, 2>(s, a, values, xv, kv, yv, err, chunk); break;
      case 4: launch_nnz<T, XT, 4>(s, a, values, xv, kv, yv, err, chunk); break;
      case 8: launch_nnz<T, XT, 8>(s, a, values, xv, kv, yv, err, chunk); break;
      case 16: launch_nnz<T, XT, 16>(s, a, values, xv, kv, yv, err, chunk); break;
      default: launch_nnz<T, XT, 32>(s, a, values, xv, kv, yv, err, chunk); break;
    }
  } else {
    switch (group) {
      case 2: launch_row<T, XT, 2>(s, a, values, xv, kv, yv, err); break;
      case 4: launch_row<T, XT, 4>(s, a, values, xv, kv, yv, err); break;
      case 8: launch_row<T, XT, 8>(s, a, values, xv, kv, yv, err); break;
      case 16: launch_row<T, XT, 16>(s, a, values, xv, kv, yv, err); break;
      default: launch_row<T, XT, 32>(s, a, values, xv, kv, yv, err); break;
    }
  }
}

}  // namespace

SpmmPlan plan_spmm(int64_t m, int64_t nnz, int64_t max_row, int64_t k, int sms, int strategy) {
  SpmmPlan p;
  const double threads = static_cast<double>(std::max(sms, 1)) * 2048.0;
  const double mean = m > 0 ? static_cast<double>(nnz) / static_cast<double>(m) : 0.0;
  int row_group, nnz_group;
  double row_steps, nnz_steps;
  if (k == 1) {
    // Lanes share a row: the longest row costs max_row / G steps.
    row_group = pow2_at_least(static_cast<int64_t>(std::ceil(mean)), 2, 32);
    nnz_group = 1;
    row_steps = std::max(static_cast<double>(nnz) / threads, static_cast<double>(max_row) / row_group);
    // One thread per chunk reads uncoalesced: count each of its steps three times.
    nnz_steps = 3.0 * static_cast<double>(nnz) / threads + 8.0;
  } else {
    // Lanes share a row's columns: the longest row costs max_row steps.
    row_group = nnz_group = pow2_at_least(k, 2, 32);
    const double slots = threads / row_group;
    row_steps = std::max(static_cast<double>(nnz) / slots, static_cast<double>(max_row));
    nnz_steps = 2.0 * static_cast<double>(nnz) / slots + 32.0;
  }
  // Enough chunks to fill every lane group about four times, each long enough to repay its
  // binary search (tens of dependent loads) many times over.
  const double target = static_cast<double>(nnz) / (4.0 * threads / nnz_group);
  p.chunk = static_cast<int64_t>(std::min(k == 1 ? 64.0 : 256.0, std::max(k == 1 ? 8.0 : 32.0, std::floor(target))));
  if (strategy == kRowSplit || (strategy == kAuto && (row_steps <= nnz_steps || nnz == 0))) {
    p.strategy = kRowSplit;
    p.group = row_group;
  } else {
    p.strategy = kNnzSplit;
    p.group = nnz_group;
  }
  return p;
}

template <typename T>
cudaError_t spmm(cudaStream_t s, const LocalCsr& a, const T* values, const T* x, int64_t k, T* y, int* err,
                 const SpmmPlan& plan) {
  // A launch reports its own error: clear any an earlier runtime call on this thread left.
  cudaGetLastError();
  if (a.m == 0 || k == 0) return cudaSuccess;
  if (plan.strategy == kNnzSplit) {
    cudaError_t e = cudaMemsetAsync(y, 0, static_cast<size_t>(a.m) * static_cast<size_t>(k) * sizeof(T), s);
    if (e != cudaSuccess) return e;
    if (a.nnz == 0) return cudaSuccess;
  }
  if (k == 1 && plan.strategy != kNnzSplit) {
    const unsigned blocks = blocks_for(a.m * plan.group);
    switch (plan.group) {
      case 2: spmv_row_kernel<T, 2><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, values, x, y, err); break;
      case 4: spmv_row_kernel<T, 4><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, values, x, y, err); break;
      case 8: spmv_row_kernel<T, 8><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, values, x, y, err); break;
      case 16: spmv_row_kernel<T, 16><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, values, x, y, err); break;
      default: spmv_row_kernel<T, 32><<<blocks, kBlock, 0, s>>>(a.m, a.cols, a.row_ptr, a.col_idx, values, x, y, err); break;
    }
    return cudaGetLastError();
  }
  // Vector loads where k divides into at least 8 vectors and X and Y are aligned for them.
  constexpr int V = sizeof(T) == 4 ? 4 : 2;
  const bool aligned = reinterpret_cast<uintptr_t>(x) % (V * sizeof(T)) == 0 && reinterpret_cast<uintptr_t>(y) % (V * sizeof(T)) == 0;
  if (plan.vector && k % V == 0 && k / V >= 8 && aligned) {
    const int group = pow2_at_least(k / V, 2, 32);
    if constexpr (sizeof(T) == 4) launch_spmm<T, 4>(s, a, values, x, k, y, err, plan.strategy, group, plan.chunk);
    else launch_spmm<T, 2>(s, a, values, x, k, y, err, plan.strategy, group, plan.chunk);
  } else {
    launch_spmm<T, 1>(s, a, values, x, k, y, err, plan.strategy, plan.group, plan.chunk);
  }
  return cudaGetLastError();
}

template cudaError_t spmm<float>(cudaStream_t, const LocalCsr&, const float*, const float*, int64_t, float*, int*,
                                 const SpmmPlan&);
template cudaError_t spmm<double>(cudaStream_t, const LocalCsr&, const double*, const double*, int64_t, double*, int*,
                                  const SpmmPlan&);

// ---- BFS ------------------------------------------------------------------------------------

namespace {

// counters: [0] vertices discovered, [1] their out-edges (the next frontier's scout count),
// [2] edges examined.
// `n_in_dev`, when given, holds the frontier's size as the previous level's kernel counted it
// (counters[0] of that level), so that levels can be launched back to back without the host
// reading each size first.
// A frontier larger than `cap` is not expanded: the kernel marks its level kSkipped (and so
// every later level of the batch skips too), and the host takes over from the level before.
constexpr unsigned long long kSkipped = ~0ULL;

template <int G>
__global__ void __launch_bounds__(kBlock) bfs_top_down_kernel(const int32_t* __restrict__ q_in, int64_t n_in,
                                                              const unsigned long long* n_in_dev, unsigned long long cap,
                                                              const int64_t* __restrict__ rp, const int32_t* __restrict__ ci,
                                                              int64_t n, int32_t* __restrict__ depth, int32_t next_level,
                                                              int32_t* __restrict__ q_out, unsigned long long* counters,
                                                              int* err) {
  if (n_in_dev) {
    const unsigned long long size = *n_in_dev;
    if (size > cap) {  // the whole grid returns here, before any warp-wide step
      if (blockIdx.x == 0 && threadIdx.x == 0) counters[0] = kSkipped;
      return;
    }
    n_in = static_cast<int64_t>(size);
  }
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / G;
  unsigned long long examined = 0;
  // Whole-warp trip counts differ between groups; only warp_add at the end needs every lane.
  for (int64_t i = t / G; i < n_in; i += groups) {
    const int32_t u = q_in[i];
    const int64_t b = rp[u], e = rp[u + 1];
    if (lane == 0) examined += static_cast<unsigned long long>(e - b);
    for (int64_t j = b + lane; j < e; j += G) {
      const int32_t v = __ldg(ci + j);
      if (bad_column(v, n)) {
        atomicOr(err, kErrColumnOutOfRange);
        continue;
      }
      if (depth[v] == -1 && atomicCAS(depth + v, -1, next_level) == -1) {
        cg::coalesced_group found = cg::coalesced_threads();
        unsigned long long slot = 0;
        if (found.thread_rank() == 0) slot = atomicAdd(counters, static_cast<unsigned long long>(found.size()));
        slot = found.shfl(slot, 0);
        q_out[slot + found.thread_rank()] = v;
        atomicAdd(counters + 1, static_cast<unsigned long long>(rp[v + 1] - rp[v]));
      }
    }
  }
  warp_add(counters + 2, examined);
}

// Every unvisited vertex looks for a parent among its in-neighbours at depth `level`; a group of
// G lanes scans one vertex's in-edges G at a time and stops at the first hit.
template <int G>
__global__ void __launch_bounds__(kBlock) bfs_bottom_up_kernel(int64_t n, const int64_t* __restrict__ irp,
                                                               const int32_t* __restrict__ ici,
                                                               const int64_t* __restrict__ rp, int32_t* __restrict__ depth,
                                                               int32_t level, int32_t* __restrict__ q_out,
                                                               unsigned long long* counters, int* err) {
  constexpr int kPerWarp = 32 / G;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t warp = t / 32, warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const int sub = static_cast<int>((threadIdx.x & 31) / G);
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const unsigned mask = group_mask<G>();
  unsigned long long examined = 0;
  for (int64_t base = warp * kPerWarp; base < n; base += warps * kPerWarp) {
    const int64_t v = base + sub;
    if (v < n && depth[v] == -1) {
      const int64_t b = irp[v], e = irp[v + 1];
      bool found = false;
      for (int64_t off = b; off < e && !found; off += G) {
        const int64_t j = off + lane;
        bool hit = false;
        if (j < e) {
          const int32_t u = __ldg(ici + j);
          if (bad_column(u, n)) atomicOr(err, kErrColumnOutOfRange);
          else hit = depth[u] == level;
        }
        // Every lane of the group runs the same trips (same b, e), so the group ballot is safe.
        const unsigned hits = __ballot_sync(mask, hit);
        if (lane == 0) examined += static_cast<unsigned long long>(e - off < G ? e - off : G);
        found = hits != 0;
      }
      if (found && lane == 0) {
        depth[v] = level + 1;
        const unsigned long long slot = atomicAdd(counters, 1ULL);
        q_out[slot] = static_cast<int32_t>(v);
        atomicAdd(counters + 1, static_cast<unsigned long long>(rp[v + 1] - rp[v]));
      }
    }
  }
  warp_add(counters + 2, examined);
}

__global__ void bfs_seed_kernel(int32_t* depth, int32_t* queue, int32_t source) {
  depth[source] = 0;
  queue[0] = source;
}

template <int G>
void top_down(cudaStream_t s, const LocalCsr& out, const int32_t* q_in, int64_t n_in, int32_t* depth, int32_t next_level,
              int32_t* q_out, unsigned long long* counters, int* err, const unsigned long long* n_in_dev, int64_t grid_items) {
  // In a batch the grid covers 4x the frontier the host last saw; larger frontiers go back to it.
  const unsigned long long cap = static_cast<unsigned long long>(grid_items);
  bfs_top_down_kernel<G><<<blocks_for(grid_items * G), kBlock, 0, s>>>(q_in, n_in, n_in_dev, cap, out.row_ptr, out.col_idx,
                                                                       out.m, depth, next_level, q_out, counters, err);
}

void top_down_any(int group, cudaStream_t s, const LocalCsr& out, const int32_t* q_in, int64_t n_in, int32_t* depth,
                  int32_t next_level, int32_t* q_out, unsigned long long* counters, int* err,
                  const unsigned long long* n_in_dev = nullptr, int64_t grid_items = -1) {
  // The grid covers `grid_items` frontier vertices (the loop strides over more); by default the
  // frontier's size, known on the host.
  if (grid_items < 0) grid_items = n_in;
  switch (group) {
    case 32: top_down<32>(s, out, q_in, n_in, depth, next_level, q_out, counters, err, n_in_dev, grid_items); break;
    case 8: top_down<8>(s, out, q_in, n_in, depth, next_level, q_out, counters, err, n_in_dev, grid_items); break;
    default: top_down<1>(s, out, q_in, n_in, depth, next_level, q_out, counters, err, n_in_dev, grid_items); break;
  }
}

template <int G>
void bottom_up(cudaStream_t s, const LocalCsr& out, const LocalCsr& in, int32_t* depth, int32_t level, int32_t* q_out,
               unsigned long long* counters, int* err) {
  bfs_bottom_up_kernel<G><<<blocks_for(out.m * G), kBlock, 0, s>>>(out.m, in.row_ptr, in.col_idx, out.row_ptr, depth, level,
                                                                   q_out, counters, err);
}

int graph_group(const LocalCsr& g) {
  const double mean = g.m > 0 ? static_cast<double>(g.nnz) / static_cast<double>(g.m) : 0.0;
  return mean >= 24 ? 32 : mean >= 6 ? 8 : 1;
}

}  // namespace

cudaError_t bfs(cudaStream_t s, const LocalCsr& out, const LocalCsr& in, int64_t source, int direction, double alpha,
                double beta, const BfsWork& w, BfsResult* result) {
  cudaGetLastError();  // as in spmm
  const int64_t n = out.m;
  cudaError_t e;
  if ((e = cudaMemsetAsync(w.depth, 0xff, static_cast<size_t>(n) * sizeof(int32_t), s)) != cudaSuccess) return e;
  bfs_seed_kernel<<<1, 1, 0, s>>>(w.depth, w.queue_a, static_cast<int32_t>(source));
  int64_t src_edges[2] = {0, 0};
  if ((e = cudaMemcpyAsync(src_edges, out.row_ptr + source, 2 * sizeof(int64_t), cudaMemcpyDeviceToHost, s)) != cudaSuccess) return e;
  if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;

  const int td_group = graph_group(out), bu_group = graph_group(in);
  const double average_degree = n > 0 ? static_cast<double>(out.nnz) / static_cast<double>(n) : 0.0;
  result->frontier.assign(1, 1);
  result->bottom_up.clear();
  result->edges_examined = 0;
  int32_t* q_cur = w.queue_a;
  int32_t* q_next = w.queue_b;
  int64_t n_front = 1;
  int64_t scout = src_edges[1] - src_edges[0];
  int64_t edges_to_check = out.nnz;
  int32_t level = 0;
  bool bottom = false;
  bool bottom_up_unprofitable = false;
  int64_t previous = 1;
  int batch = 4;
  bool force_level_step = false;  // after a batch stopped early, decide the next level on the host
  while (n_front > 0) {
    // Far from the switch to bottom-up (a road network or mesh: thin frontiers for thousands of
    // levels), launch several top-down levels back to back, each reading its frontier's size
    // from the previous level's counters on the device, and read the counters back once per
    // batch: the host round trip per level (tens of µs) is paid once per batch. Each level's
    // grid is sized for up to 4x the last frontier known on the host (the loop strides over
    // any more). The batch grows while the frontier stays thin.
    // Only while the frontier grows slowly: a power-law graph's grows a hundredfold in a level,
    // and a batch would run such a level top-down on a grid sized for the level before.
    const bool thin = n_front <= 2 * previous &&
                      static_cast<double>(scout) * alpha * 16.0 < static_cast<double>(edges_to_check) &&
                      static_cast<double>(n_front) * beta * 16.0 < static_cast<double>(n);
    if (w.batch_levels > 1 && !bottom && direction != 2 && level >= 2 && thin && !force_level_step) {
      const int steps = std::min(batch, w.batch_levels);
      if ((e = cudaMemsetAsync(w.counters, 0, 3 * static_cast<size_t>(steps) * sizeof(unsigned long long), s)) != cudaSuccess)
        return e;
      int32_t* qa = q_cur;
      int32_t* qb = q_next;
      for (int i = 0; i < steps; ++i) {
        // Level 0 of the batch expands the frontier the host knows; each later one reads its
        // size from the level before it.
        top_down_any(td_group, s, out, qa, n_front, w.depth, level + 1 + i, qb, w.counters + 3 * i, w.err,
                     i == 0 ? nullptr : w.counters + 3 * (i - 1), std::max<int64_t>(n_front, 8) * 4);
        std::swap(qa, qb);
      }
      if ((e = cudaGetLastError()) != cudaSuccess) return e;
      if ((e = cudaMemcpyAsync(w.host_counters, w.counters, 3 * static_cast<size_t>(steps) * sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, s)) != cudaSuccess)
        return e;
      if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
      bool stopped = false;
      for (int i = 0; i < steps && n_front > 0; ++i) {
        if (w.host_counters[3 * i] == kSkipped) {  // the frontier outgrew the batch: per level from here
          stopped = true;
          break;
        }
        const int64_t discovered = static_cast<int64_t>(w.host_counters[3 * i]);
        result->edges_examined += static_cast<int64_t>(w.host_counters[3 * i + 2]);
        result->frontier.push_back(discovered);
        result->bottom_up.push_back(0);
        edges_to_check -= scout;
        previous = n_front;
        n_front = discovered;
        scout = static_cast<int64_t>(w.host_counters[3 * i + 1]);
        std::swap(q_cur, q_next);
        ++level;
      }
      batch = stopped ? 4 : std::min(batch * 2, w.batch_levels);
      if (stopped) force_level_step = true;
      continue;
    }
    if (direction == 2) bottom = true;
    else if (direction == 1) bottom = false;
    else if (!bottom) bottom = !bottom_up_unprofitable && static_cast<double>(scout) > edges_to_check / alpha;
    else bottom = n_front >= previous || static_cast<double>(n_front) > static_cast<double>(n) / beta;
    if (!bottom) edges_to_check -= scout;
    if ((e = cudaMemsetAsync(w.counters, 0, 3 * sizeof(unsigned long long), s)) != cudaSuccess) return e;
    if (bottom) {
      switch (bu_group) {
        case 32: bottom_up<32>(s, out, in, w.depth, level, q_next, w.counters, w.err); break;
        case 8: bottom_up<8>(s, out, in, w.depth, level, q_next, w.counters, w.err); break;
        default: bottom_up<1>(s, out, in, w.depth, level, q_next, w.counters, w.err); break;
      }
    } else {
      top_down_any(td_group, s, out, q_cur, n_front, w.depth, level + 1, q_next, w.counters, w.err);
    }
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    if ((e = cudaMemcpyAsync(w.host_counters, w.counters, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s)) !=
        cudaSuccess)
      return e;
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
    const int64_t discovered = static_cast<int64_t>(w.host_counters[0]);
    const int64_t examined = static_cast<int64_t>(w.host_counters[2]);
    result->edges_examined += examined;
    result->frontier.push_back(discovered);
    result->bottom_up.push_back(bottom ? 1 : 0);
    // As on the CPU: in meshes and road networks a bottom-up step scans every edge of the
    // unvisited vertices and finds few parents; if it read far more than top-down would have,
    // go back and stay top-down for the rest of this search.
    if (bottom && direction == 0 && static_cast<double>(examined) > 8.0 * static_cast<double>(n_front) * average_degree) {
      bottom_up_unprofitable = true;
      bottom = false;
    }
    previous = n_front;
    n_front = discovered;
    scout = static_cast<int64_t>(w.host_counters[1]);
    std::swap(q_cur, q_next);
    ++level;
    force_level_step = false;
  }
  while (result->frontier.size() > 1 && result->frontier.back() == 0) {
    result->frontier.pop_back();
    result->bottom_up.pop_back();
  }
  return cudaSuccess;
}

// ---- multi-source BFS -----------------------------------------------------------------------

namespace {

__global__ void msbfs_seed_kernel(const int32_t* sources, int64_t num_sources, int64_t n, unsigned long long* seen,
                                  unsigned long long* frontier, int32_t* depths) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= num_sources) return;
  const int64_t v = sources[i];
  const int64_t word = (i / 64) * n + v;
  const unsigned long long bit = 1ULL << (i % 64);
  atomicOr(seen + word, bit);
  atomicOr(frontier + word, bit);
  depths[i * n + v] = 0;
}

// One level for every batch (blockIdx.y): each vertex ORs its in-neighbours' frontier words; the
// bits it had not seen are its new frontier and get depth next_level. A group of G lanes scans a
// vertex's in-edges and stops once every unseen bit is covered.
// counters: [0] vertices that gained a bit, [1] edges examined.
template <int G>
__global__ void __launch_bounds__(kBlock) msbfs_pull_kernel(int64_t n, int64_t num_sources, const int64_t* __restrict__ irp,
                                                            const int32_t* __restrict__ ici,
                                                            const unsigned long long* __restrict__ frontier,
                                                            unsigned long long* __restrict__ next,
                                                            unsigned long long* __restrict__ seen, int32_t* __restrict__ depths,
                                                            int32_t next_level, unsigned long long* counters, int* err) {
  constexpr int kPerWarp = 32 / G;
  const int64_t batch = blockIdx.y;
  const int64_t in_batch = num_sources - batch * 64 < 64 ? num_sources - batch * 64 : 64;
  const unsigned long long active = in_batch >= 64 ? ~0ULL : ((1ULL << in_batch) - 1ULL);
  const int64_t off_words = batch * n;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t warp = t / 32, warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const int sub = static_cast<int>((threadIdx.x & 31) / G);
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const unsigned mask = group_mask<G>();
  unsigned long long examined = 0, gained = 0;
  for (int64_t base = warp * kPerWarp; base < n; base += warps * kPerWarp) {
    const int64_t v = base + sub;
    if (v >= n) continue;  // the whole group skips together (same v)
    const unsigned long long unseen = active & ~seen[off_words + v];
    unsigned long long acc = 0;
    if (unseen != 0) {
      const int64_t b = irp[v], e = irp[v + 1];
      for (int64_t off = b; off < e; off += G) {
        const int64_t j = off + lane;
        if (j < e) {
          const int32_t u = __ldg(ici + j);
          if (bad_column(u, n)) atomicOr(err, kErrColumnOutOfRange);
          else acc |= frontier[off_words + u];
        }
        for (int o = G / 2; o > 0; o /= 2) acc |= __shfl_xor_sync(mask, acc, o, G);
        if (lane == 0) examined += static_cast<unsigned long long>(e - off < G ? e - off : G);
        if ((acc & unseen) == unseen) break;
      }
    }
    const unsigned long long fresh = acc & unseen;
    if (lane == 0) {
      next[off_words + v] = fresh;
      if (fresh != 0) {
        seen[off_words + v] |= fresh;
        ++gained;
        for (unsigned long long bits = fresh; bits != 0; bits &= bits - 1) {
          const int64_t s = batch * 64 + __ffsll(static_cast<long long>(bits)) - 1;
          depths[s * n + v] = next_level;
        }
      }
    }
  }
  warp_add(counters, gained);
  warp_add(counters + 1, examined);
}

template <int G>
void pull(cudaStream_t s, const LocalCsr& in, const MsBfsWork& w, int64_t batches, const unsigned long long* front,
          unsigned long long* next, unsigned long long* seen, int32_t level) {
  const dim3 grid(blocks_for(in.m * G), static_cast<unsigned>(batches));
  msbfs_pull_kernel<G><<<grid, kBlock, 0, s>>>(in.m, w.num_sources, in.row_ptr, in.col_idx, front, next, seen, w.depths, level,
                                               w.counters, w.err);
}

}  // namespace

cudaError_t msbfs(cudaStream_t s, const LocalCsr& in, const MsBfsWork& w, int64_t* levels, int64_t* edges_examined) {
  cudaGetLastError();  // as in spmm
  const int64_t n = in.m;
  const int64_t batches = (w.num_sources + 63) / 64;
  *levels = 0;
  *edges_examined = 0;
  if (w.num_sources == 0 || n == 0) return cudaSuccess;
  const size_t words = static_cast<size_t>(batches) * static_cast<size_t>(n);
  unsigned long long* seen = w.words;
  unsigned long long* front = w.words + words;
  unsigned long long* next = w.words + 2 * words;
  cudaError_t e;
  if ((e = cudaMemsetAsync(w.words, 0, 2 * words * sizeof(unsigned long long), s)) != cudaSuccess) return e;
  if ((e = cudaMemsetAsync(w.depths, 0xff, static_cast<size_t>(w.num_sources) * n * sizeof(int32_t), s)) != cudaSuccess)
    return e;
  msbfs_seed_kernel<<<static_cast<unsigned>((w.num_sources + kBlock - 1) / kBlock), kBlock, 0, s>>>(w.sources, w.num_sources, n,
                                                                                                  seen, front, w.depths);
  const int group = graph_group(in);
  for (int32_t level = 1;; ++level) {
    if ((e = cudaMemsetAsync(w.counters, 0, 2 * sizeof(unsigned long long), s)) != cudaSuccess) return e;
    switch (group) {
      case 32: pull<32>(s, in, w, batches, front, next, seen, level); break;
      case 8: pull<8>(s, in, w, batches, front, next, seen, level); break;
      default: pull<1>(s, in, w, batches, front, next, seen, level); break;
    }
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    if ((e = cudaMemcpyAsync(w.host_counters, w.counters, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s)) !=
        cudaSuccess)
      return e;
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
    *edges_examined += static_cast<int64_t>(w.host_counters[1]);
    if (w.host_counters[0] == 0) break;
    *levels = level;
    std::swap(front, next);
  }
  return cudaSuccess;
}

}  // namespace cuda
}  // namespace dype
