// cuBLAS for GEMM on the card, loaded with dlopen the first time it is asked for (cublas.cu), so
// the addon never needs it to load and a machine without it still runs every other operator.
// Only the few entry points dype calls are declared here, by their documented C signatures.
#pragma once

#include <cuda_runtime.h>

#include <mutex>
#include <string>
#include <vector>

#include "runtime_internal.cuh"

namespace dype {
namespace gpu {
namespace rt {

class Blas {
 public:
  using Handle = void*;
  // Entry points, resolved at load (cublasStatus_t is an int; 0 is success).
  int (*create)(Handle*) = nullptr;
  int (*set_stream)(Handle, cudaStream_t) = nullptr;
  int (*set_math_mode)(Handle, int) = nullptr;
  int (*sgemm)(Handle, int, int, int, int, int, const float*, const float*, int, const float*, int, const float*, float*, int) = nullptr;
  int (*dgemm)(Handle, int, int, int, int, int, const double*, const double*, int, const double*, int, const double*, double*,
               int) = nullptr;

  // Column-major C (m x n) = A (m x k) * B (k x n), no transposes, on `stream`, on a handle of
  // the pool (one operator at a time per handle: cuBLAS handles are not shared across threads).
  template <typename T>
  Status gemm(const char* fn, cudaStream_t stream, int m, int n, int k, const T* a, const T* b, T* c) {
    Handle h = nullptr;
    DYPE_OK(take(fn, &h));
    const T one = 1, zero = 0;
    int st = set_stream(h, stream);
    if (st == 0) {
      if constexpr (sizeof(T) == 4) st = sgemm(h, 0, 0, m, n, k, &one, a, m, b, k, &zero, c, m);
      else st = dgemm(h, 0, 0, m, n, k, &one, a, m, b, k, &zero, c, m);
    }
    give(h);
    if (st != 0) return Status{false, "ERR_NATIVE", std::string(fn) + ": cuBLAS GEMM failed (cublasStatus " + std::to_string(st) + ")"};
    return Status{};
  }

 private:
  friend Blas& cublas();
  Status take(const char* fn, Handle* out);
  void give(Handle h);
  std::mutex mu_;
  std::vector<Handle> idle_;
};

// The process's cuBLAS (loaded on first use; see blas_probe() for whether it was found).
Blas& cublas();

}  // namespace rt
}  // namespace gpu
}  // namespace dype
