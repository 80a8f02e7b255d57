// Bit-parallel multi-source BFS on the GPU: 64 sources per word, every batch advanced one level
// per launch by pulling frontier bits over in-edges. Part of the kernels' one translation unit
// (kernels.cu).
#pragma once

#include "common.cuh"

namespace dype {
namespace cuda {

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
