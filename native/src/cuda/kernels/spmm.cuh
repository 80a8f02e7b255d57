// SpMM and SpMV on the GPU in two strategies, row split (a group of lanes per row) and nnz split
// (equal nonzeros per group, rows crossing a chunk boundary added atomically), and the plan that
// chooses between them. Part of the kernels' one translation unit (kernels.cu).
#pragma once

#include "common.cuh"

namespace dype {
namespace cuda {
namespace {

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

// Each group of G lanes takes `chunk` consecutive nonzeros, finds the row of its first one (from
// `first_row`, or by binary search over the row pointers where there is no table), and walks them
// in order. A row wholly inside the chunk is stored; a row that crosses a chunk boundary is shared
// with a neighbour and added atomically (such rows start zeroed). Lanes split the columns as in
// the row split.
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
                                                          XT* __restrict__ y, int* err, int64_t chunk,
                                                          const int64_t* __restrict__ first_row) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / G;
  const int64_t chunks = (nnz + chunk - 1) / chunk;
  for (int64_t q = t / G; q < chunks; q += groups) {
    const int64_t j0 = q * chunk;
    const int64_t j1 = nnz < j0 + chunk ? nnz : j0 + chunk;
    // The last row starting at or before j0 is the one holding nonzero j0 (empty rows share its
    // start and come before it).
    int64_t lo = 0;
    if (first_row) {
      lo = first_row[q];
    } else {
      int64_t hi = m - 1;
      while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (rp[mid] <= j0) lo = mid;
        else hi = mid - 1;
      }
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

// Before an nnz-split SpMM: each chunk's first row, found from the rows' side with no search (a
// row writes the chunks that start inside it, its lanes taking every lanes-th one), so a chunk
// starts after one load instead of a binary search of tens of dependent loads: on small graphs
// that search was most of the kernel's time. Zeroes the rows the main kernel adds to atomically
// (a chunk starts strictly inside them) and the empty rows (no chunk visits them); every other
// row is stored whole by the one chunk holding it, so Y is not cleared in full.
template <typename T>
__global__ void __launch_bounds__(kBlock) spmm_nnz_prepare_kernel(int64_t m, const int64_t* __restrict__ rp, int64_t chunk,
                                                                  int64_t k, int lanes_log2, T* __restrict__ y,
                                                                  int64_t* __restrict__ first_row) {
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lanes = 1 << lanes_log2;
  const int lane = static_cast<int>(t & (lanes - 1));
  const int64_t stride = (static_cast<int64_t>(gridDim.x) * blockDim.x) >> lanes_log2;
  for (int64_t r = t >> lanes_log2; r < m; r += stride) {
    const int64_t b = rp[r], e = rp[r + 1];
    for (int64_t q = (b + chunk - 1) / chunk + lane; q * chunk < e; q += lanes) first_row[q] = r;
    if (e == b || (b / chunk + 1) * chunk < e) {
      for (int64_t c = lane; c < k; c += lanes) y[r * k + c] = T(0);
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
void launch_nnz(cudaStream_t s, const LocalCsr& a, const T* val, const XT* x, int64_t k, XT* y, int* err, int64_t chunk,
                const int64_t* first_row) {
  const int64_t chunks = (a.nnz + chunk - 1) / chunk;
  const unsigned blocks = blocks_for(chunks * G);
  if (G < 32 || k <= 32)
    spmm_nnz_kernel<T, XT, G, 1><<<blocks, kBlock, 0, s>>>(a.m, a.nnz, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err, chunk, first_row);
  else if (k <= 64)
    spmm_nnz_kernel<T, XT, G, 2><<<blocks, kBlock, 0, s>>>(a.m, a.nnz, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err, chunk, first_row);
  else
    spmm_nnz_kernel<T, XT, G, 4><<<blocks, kBlock, 0, s>>>(a.m, a.nnz, a.cols, a.row_ptr, a.col_idx, val, x, k, y, err, chunk, first_row);
}

// Launch with X and Y seen as V-wide vectors: `k` is in scalars and divisible by V, `group` is
// the plan's lanes per row or chunk, for vector columns.
template <typename T, int V>
void launch_spmm(cudaStream_t s, const LocalCsr& a, const T* values, const T* x, int64_t k, T* y, int* err, int strategy,
                 int group, int64_t chunk, const int64_t* first_row) {
  using XT = typename Vec<T, V>::type;
  const XT* xv = reinterpret_cast<const XT*>(x);
  XT* yv = reinterpret_cast<XT*>(y);
  const int64_t kv = k / V;
  if (strategy == kNnzSplit) {
    switch (group) {
      case 1: launch_nnz<T, XT, 1>(s, a, values, xv, kv, yv, err, chunk, first_row); break;
      case 2: launch_nnz<T, XT, 2>(s, a, values, xv, kv, yv, err, chunk, first_row); break;
      case 4: launch_nnz<T, XT, 4>(s, a, values, xv, kv, yv, err, chunk, first_row); break;
      case 8: launch_nnz<T, XT, 8>(s, a, values, xv, kv, yv, err, chunk, first_row); break;
      case 16: launch_nnz<T, XT, 16>(s, a, values, xv, kv, yv, err, chunk, first_row); break;
      default: launch_nnz<T, XT, 32>(s, a, values, xv, kv, yv, err, chunk, first_row); break;
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

SpmmPlan plan_spmm(int64_t m, int64_t nnz, int64_t max_row, int64_t k, int sms, int strategy, int value_bytes) {
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
    p.chunk = static_cast<int64_t>(std::min(64.0, std::max(8.0, std::floor(static_cast<double>(nnz) / (4.0 * threads)))));
  } else {
    // Lanes share a row's columns: the longest row costs max_row steps.
    row_group = nnz_group = pow2_at_least(k, 2, 32);
    const double slots = threads / row_group;
    const double per_slot = static_cast<double>(nnz) / slots;
    row_steps = std::max(per_slot, static_cast<double>(max_row));
    // The nnz split's chunk, a power of two, from the lanes that share a row (vector loads give
    // fewer, launch_spmm) and a lane group's share of the nonzeros: 16 to 256 nonzeros, about a
    // quarter of the share, for groups of 16 or 32 lanes; 4 to 32 for smaller ones, about the
    // share with vector loads and a quarter of it without. A chunk's walk is one dependent chain
    // (column index, then X), so on a GPU left partly empty a smaller chunk is a shorter kernel;
    // wide groups pay more per cut row (a lane's atomics each) and want longer chunks. Each
    // chunk's row comes from a table, so there is no search to repay. The split pays a second
    // launch (the table) and the rows it cuts: about 90 steps of the row split's longest row.
    // All of it fitted to sweeps of every chunk size on the H200 (docs/gpu-measured.md).
    const int vec = value_bytes == 4 ? 4 : 2;
    const bool vector = k % vec == 0 && k / vec >= 8;
    const int lanes = vector ? pow2_at_least(k / vec, 2, 32) : row_group;
    const double share = static_cast<double>(nnz) / (threads / lanes);
    const double part = lanes >= 16 || !vector ? 4.0 : 1.0;
    int64_t chunk = lanes >= 16 ? 16 : 4;
    const int64_t most = lanes >= 16 ? 256 : 32;
    while (chunk < most && static_cast<double>(chunk) * part < share) chunk *= 2;
    p.chunk = chunk;
    nnz_steps = 1.5 * per_slot + static_cast<double>(chunk) + 90.0;
  }
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
  int64_t* first_row = nullptr;
  if (plan.strategy == kNnzSplit) {
    const size_t y_bytes = static_cast<size_t>(a.m) * static_cast<size_t>(k) * sizeof(T);
    if (a.nnz == 0) return cudaMemsetAsync(y, 0, y_bytes, s);
    const int64_t chunks = (a.nnz + plan.chunk - 1) / plan.chunk;
    first_row = plan.chunk_table ? stream_scratch<int64_t>(s, chunks) : nullptr;
    if (first_row) {
      const int lanes_log2 = k >= 32 ? 5 : k >= 8 ? 3 : 1;
      spmm_nnz_prepare_kernel<T><<<blocks_for(a.m << lanes_log2), kBlock, 0, s>>>(a.m, a.row_ptr, plan.chunk, k, lanes_log2, y,
                                                                                 first_row);
    } else {
      cudaError_t e = cudaMemsetAsync(y, 0, y_bytes, s);
      if (e != cudaSuccess) return e;
    }
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
    if constexpr (sizeof(T) == 4) launch_spmm<T, 4>(s, a, values, x, k, y, err, plan.strategy, group, plan.chunk, first_row);
    else launch_spmm<T, 2>(s, a, values, x, k, y, err, plan.strategy, group, plan.chunk, first_row);
  } else {
    launch_spmm<T, 1>(s, a, values, x, k, y, err, plan.strategy, plan.group, plan.chunk, first_row);
  }
  const cudaError_t launched = cudaGetLastError();
  if (first_row) cudaFreeAsync(first_row, s);
  return launched;
}

template cudaError_t spmm<float>(cudaStream_t, const LocalCsr&, const float*, const float*, int64_t, float*, int*,
                                 const SpmmPlan&);
template cudaError_t spmm<double>(cudaStream_t, const LocalCsr&, const double*, const double*, int64_t, double*, int*,
                                  const SpmmPlan&);

}  // namespace cuda
}  // namespace dype
