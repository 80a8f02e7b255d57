// The built-in GEMM's packing and micro-kernel (see gemm_builtin.h).
#include "gemm_builtin.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace dype {

template <typename T>
BuiltinGemm<T>::BuiltinGemm(const T* w, int64_t k, int64_t n)
    : k_(k), n_(n), vectors_(n <= kLanes ? 1 : 2), strip_(vectors_ * kLanes), strips_((n + strip_ - 1) / strip_),
      packed_(static_cast<size_t>(strips_ * k * strip_ + kLanes), T(0)) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(packed_.data());
  base_ = packed_.data() + ((DYPE_GEMM_VECTOR_BYTES - at % DYPE_GEMM_VECTOR_BYTES) % DYPE_GEMM_VECTOR_BYTES) / sizeof(T);
  for (int64_t s = 0; s < strips_; ++s) {
    const int64_t c0 = s * strip_;
    const int64_t width = std::min<int64_t>(strip_, n - c0);
    T* dst = base_ + s * k * strip_;
    for (int64_t p = 0; p < k; ++p) std::memcpy(dst + p * strip_, w + p * n + c0, static_cast<size_t>(width) * sizeof(T));
  }
}

// R rows of x against one strip: the accumulators stay in registers for the whole k loop and are
// written once (partially in the last strip, where the padding's zeros were multiplied too).
template <typename T>
template <int R, int NV>
void BuiltinGemm<T>::block(const T* x, int64_t strip, T* y) const {
  constexpr int kStrip = NV * kLanes;
  vec acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = vec{};
  const T* b = base_ + strip * k_ * kStrip;
  for (int64_t p = 0; p < k_; ++p) {
    vec bv[NV];
    for (int v = 0; v < NV; ++v) std::memcpy(&bv[v], b + p * kStrip + v * kLanes, sizeof(vec));
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      const T a = x[r * k_ + p];
      for (int v = 0; v < NV; ++v) acc[r][v] += a * bv[v];
    }
  }
  const int64_t c0 = strip * kStrip;
  const int64_t width = std::min<int64_t>(kStrip, n_ - c0);
  for (int r = 0; r < R; ++r) {
    T* dst = y + r * n_ + c0;
    if (width == kStrip) {
      for (int v = 0; v < NV; ++v) std::memcpy(dst + v * kLanes, &acc[r][v], sizeof(vec));
    } else {
      T tmp[kStrip];
      for (int v = 0; v < NV; ++v) std::memcpy(tmp + v * kLanes, &acc[r][v], sizeof(vec));
      std::memcpy(dst, tmp, static_cast<size_t>(width) * sizeof(T));
    }
  }
}

template <typename T>
template <int NV>
void BuiltinGemm<T>::rows_of(const T* x, int64_t rows, T* y) const {
  constexpr int kRows = 12 / NV;
  int64_t i = 0;
  for (; i + kRows <= rows; i += kRows) {
    for (int64_t s = 0; s < strips_; ++s) block<kRows, NV>(x + i * k_, s, y + i * n_);
  }
  for (; i < rows; ++i) {
    for (int64_t s = 0; s < strips_; ++s) block<1, NV>(x + i * k_, s, y + i * n_);
  }
}

template <typename T>
void BuiltinGemm<T>::rows(const T* x, int64_t rows, T* y) const {
  if (vectors_ == 1) return rows_of<1>(x, rows, y);
  rows_of<2>(x, rows, y);
}

template class BuiltinGemm<float>;
template class BuiltinGemm<double>;

}  // namespace dype
