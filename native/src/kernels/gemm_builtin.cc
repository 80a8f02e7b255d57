// The built-in GEMM's packing and micro-kernel (see gemm_builtin.h).
#include "gemm_builtin.h"

#include <algorithm>
#include <cstring>

namespace dype {

template <typename T>
BuiltinGemm<T>::BuiltinGemm(const T* w, int64_t k, int64_t n)
    : k_(k), n_(n), strips_((n + kStrip - 1) / kStrip), packed_(static_cast<size_t>(strips_ * k * kStrip), T(0)) {
  for (int64_t s = 0; s < strips_; ++s) {
    const int64_t c0 = s * kStrip;
    const int64_t width = std::min<int64_t>(kStrip, n - c0);
    T* dst = packed_.data() + s * k * kStrip;
    for (int64_t p = 0; p < k; ++p) std::memcpy(dst + p * kStrip, w + p * n + c0, static_cast<size_t>(width) * sizeof(T));
  }
}

// R rows of x against one strip: the accumulators stay in registers for the whole k loop and are
// written once (partially in the last strip, where the padding's zeros were multiplied too).
template <typename T>
template <int R>
void BuiltinGemm<T>::block(const T* x, int64_t strip, T* y) const {
  vec acc[R][2];
  for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = vec{};
  const T* b = packed_.data() + strip * k_ * kStrip;
  for (int64_t p = 0; p < k_; ++p) {
    vec b0, b1;
    std::memcpy(&b0, b + p * kStrip, sizeof(vec));
    std::memcpy(&b1, b + p * kStrip + kLanes, sizeof(vec));
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const T a = x[r * k_ + p];
      acc[r][0] += a * b0;
      acc[r][1] += a * b1;
    }
  }
  const int64_t c0 = strip * kStrip;
  const int64_t width = std::min<int64_t>(kStrip, n_ - c0);
  for (int r = 0; r < R; ++r) {
    T* dst = y + r * n_ + c0;
    if (width == kStrip) {
      std::memcpy(dst, &acc[r][0], sizeof(vec));
      std::memcpy(dst + kLanes, &acc[r][1], sizeof(vec));
    } else {
      T tmp[kStrip];
      std::memcpy(tmp, &acc[r][0], sizeof(vec));
      std::memcpy(tmp + kLanes, &acc[r][1], sizeof(vec));
      std::memcpy(dst, tmp, static_cast<size_t>(width) * sizeof(T));
    }
  }
}

template <typename T>
void BuiltinGemm<T>::rows(const T* x, int64_t rows, T* y) const {
  int64_t i = 0;
  for (; i + kRows <= rows; i += kRows) {
    for (int64_t s = 0; s < strips_; ++s) block<kRows>(x + i * k_, s, y + i * n_);
  }
  for (; i < rows; ++i) {
    for (int64_t s = 0; s < strips_; ++s) block<1>(x + i * k_, s, y + i * n_);
  }
}

template class BuiltinGemm<float>;
template class BuiltinGemm<double>;

}  // namespace dype
