// dype's own GEMM, for builds without a BLAS: W packed once into column strips, then a register-
// blocked micro-kernel (kRows rows x one strip of two vectors) over each block of rows. Written for
// the GNN shapes (tall X, W of at most a few hundred columns, which stays in L2 once packed).
#pragma once

#include <cstdint>
#include <vector>

namespace dype {

template <typename T>
class BuiltinGemm {
 public:
  // The vectors of GCC's vector extension: 256 bits (AVX2 on x86, two NEON registers on Arm).
  typedef T vec __attribute__((vector_size(32)));
  static constexpr int kLanes = static_cast<int>(32 / sizeof(T));
  static constexpr int kStrip = 2 * kLanes;  // output columns of one micro-kernel call
  static constexpr int kRows = 6;            // output rows of one micro-kernel call: 12 accumulators

  // Pack w (k x n, row-major) into ceil(n / kStrip) strips of k x kStrip, zero-padded.
  BuiltinGemm(const T* w, int64_t k, int64_t n);

  // y[i, :] = x[i, :] * w for rows [0, rows) of x (k wide) and y (n wide).
  void rows(const T* x, int64_t rows, T* y) const;

 private:
  template <int R>
  void block(const T* x, int64_t strip, T* y) const;

  int64_t k_, n_, strips_;
  std::vector<T> packed_;
};

extern template class BuiltinGemm<float>;
extern template class BuiltinGemm<double>;

}  // namespace dype
