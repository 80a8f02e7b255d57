// What every CUDA kernel of dype shares: launch sizing from the device's SM count, the column
// check, warp-group masks and reductions, and the vector types through which SpMM loads X and
// stores Y. Part of the kernels' one translation unit (kernels.cu).
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "../kernels.cuh"

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

// Stream-ordered scratch from the device's default memory pool (cudaMallocAsync). The pool is
// told to keep up to 256 MiB between calls, so a kernel's small per-call scratch does not go back
// to the driver each time. Null where the device has no memory pools or the allocation fails:
// callers then take a path that needs no scratch.
template <typename U>
U* stream_scratch(cudaStream_t s, int64_t count) {
  static std::atomic<int> pools[64];  // 0 not asked yet, 1 ready, -1 none
  int dev = 0;
  if (count <= 0 || cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return nullptr;
  if (pools[dev].load() == 0) {
    int supported = 0;
    cudaMemPool_t pool;
    bool ok = cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev) == cudaSuccess && supported != 0 &&
              cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess;
    if (ok) {
      uint64_t keep = 256ull << 20;
      ok = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess;
    }
    cudaGetLastError();
    pools[dev].store(ok ? 1 : -1);
  }
  void* p = nullptr;
  if (pools[dev].load() < 0 || cudaMallocAsync(&p, static_cast<size_t>(count) * sizeof(U), s) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return static_cast<U*>(p);
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

}  // namespace
}  // namespace cuda
}  // namespace dype
