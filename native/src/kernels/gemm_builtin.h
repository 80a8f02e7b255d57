// dype's own GEMM, for builds without a BLAS and for a BLAS that chose kernels older than the
// CPU: W packed once into column strips, then a register-blocked micro-kernel (rows x one strip
// of one or two vectors) over each block of rows. Written for the GNN shapes (tall X, W of at
// most a few hundred columns, which stays in L2 once packed).
#pragma once

#include <cstdint>
#include <vector>

// The widest vectors the build targets: 512 bits where AVX-512 is on (-march=native on such a
// CPU), where 256 bits reached half of a modern BLAS on one core; 256 bits otherwise (AVX2 on
// x86, two NEON registers on Arm).
#if defined(__AVX512F__)
#define DYPE_GEMM_VECTOR_BYTES 64
#else
#define DYPE_GEMM_VECTOR_BYTES 32
#endif

namespace dype {

template <typename T>
class BuiltinGemm {
 public:
  // The vectors of GCC's vector extension.
  typedef T vec __attribute__((vector_size(DYPE_GEMM_VECTOR_BYTES)));
  static constexpr int kLanes = static_cast<int>(DYPE_GEMM_VECTOR_BYTES / sizeof(T));

  // Pack w (k x n, row-major) into ceil(n / strip) strips of k x strip, zero-padded, a strip
  // being two vectors wide, or one where a single vector covers every column (n <= kLanes: a
  // GCN's 16 hidden units in FP32 would otherwise multiply as many padding zeros as weights).
  BuiltinGemm(const T* w, int64_t k, int64_t n);

  // y[i, :] = x[i, :] * w for rows [0, rows) of x (k wide) and y (n wide).
  void rows(const T* x, int64_t rows, T* y) const;

 private:
  // R rows x NV vectors: 6 x 2 or 12 x 1, twelve accumulators either way.
  template <int R, int NV>
  void block(const T* x, int64_t strip, T* y) const;
  template <int NV>
  void rows_of(const T* x, int64_t rows, T* y) const;

  int64_t k_, n_, vectors_, strip_, strips_;
  // The strips, from a vector-aligned start within packed_'s storage: a 512-bit load that
  // crosses a cache line costs two.
  std::vector<T> packed_;
  T* base_;
};

extern template class BuiltinGemm<float>;
extern template class BuiltinGemm<double>;

}  // namespace dype
