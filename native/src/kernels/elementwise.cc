// Element-wise maps (relu, affine, add) and column-reduction partials over a range of rows, on the
// pool. The maps are single streaming passes, so they are split into a few equal spans of
// elements per participant and left to the compiler to vectorise; they equal the TypeScript
// reference bit for bit. The reductions keep one FP64 accumulator row per chunk (max exactly as
// the reference; sums four rows at a time) and add the chunks' rows in order, so sums differ from
// the reference's single pass only by rounding.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__AVX__)
#include <immintrin.h>
#endif

#include "../thread_pool.h"
#include "dense.h"
#include "populate.h"

// GCC contracts a * b + c into one fused multiply-add in C++ by default; the TypeScript reference
// rounds the product first, and affine is specified to equal it exactly.
#pragma GCC optimize("fp-contract=off")

namespace dype {

namespace {

// Elements below which a pass runs on the calling thread alone: 64 Ki elements stream in tens of
// microseconds, about what handing chunks to another thread costs on a VM.
constexpr int64_t kParallelElements = int64_t{1} << 16;

// Split [0, n) into equal spans and run body(begin, end) for each on the pool.
template <class F>
void spans(int64_t n, F&& body) {
  ThreadPool& pool = ThreadPool::instance();
  const int64_t chunks = n < kParallelElements ? 1 : std::min<int64_t>(pool.participants() * 4, n / (kParallelElements / 4));
  pool.parallel_for(chunks, [&](int64_t c) {
    const int64_t b = n / chunks * c + std::min(c, n % chunks);
    body(b, b + n / chunks + (c < n % chunks ? 1 : 0));
  });
}

template <typename T>
void map_typed(const MapArgs& a) {
  const int64_t n = (a.row_end - a.row_begin) * a.x.cols;
  const T* __restrict x = static_cast<const T*>(a.x.data) + a.row_begin * a.x.cols;
  const T* __restrict z = static_cast<const T*>(a.z) + (a.z ? a.row_begin * a.x.cols : 0);
  T* __restrict y = static_cast<T*>(a.y);
  if (n == 0) return;
  populate_for_write(y, static_cast<size_t>(n) * sizeof(T));
  switch (a.op) {
    case MapOp::kRelu:
      // Negative values become +0; -0 and NaN pass through unchanged (neither is < 0).
      spans(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) y[i] = x[i] < T(0) ? T(0) : x[i];
      });
      break;
    case MapOp::kAffine: {
      const double s = a.scale, t = a.shift;
      spans(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) y[i] = static_cast<T>(s * static_cast<double>(x[i]) + t);
      });
      break;
    }
    case MapOp::kAdd:
      // An FP32 sum rounded once equals the FP64 sum rounded to FP32 (the reference's), exactly.
      spans(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) y[i] = x[i] + z[i];
      });
      break;
  }
}

// Four rows added into acc[j, j + 4): each row's four values widened to FP64 (a 128-bit load
// converted in one instruction for FP32), squared for norm2, the four added pairwise, then added
// to the accumulator. Written with AVX intrinsics because GCC's own vectorisation of the same loop
// (a 256-bit load split by vextractf128 before two conversions) ran the FP32 column sum at 7 GB/s
// on one Zen 3 core where this form reads 12.5, 85% of a plain read of the same array.
#if defined(__AVX__)
template <typename T, bool kSquares>
inline __m256d widened(const T* p) {
  __m256d v;
  if constexpr (std::is_same_v<T, float>) {
    v = _mm256_cvtps_pd(_mm_loadu_ps(p));
  } else {
    v = _mm256_loadu_pd(p);
  }
  return kSquares ? _mm256_mul_pd(v, v) : v;
}

template <typename T, bool kSquares>
inline int64_t four_rows_vector(const T* __restrict a, int64_t cols, double* __restrict into) {
  int64_t j = 0;
  for (; j + 4 <= cols; j += 4) {
    const __m256d ab = _mm256_add_pd(widened<T, kSquares>(a + j), widened<T, kSquares>(a + cols + j));
    const __m256d cd = _mm256_add_pd(widened<T, kSquares>(a + 2 * cols + j), widened<T, kSquares>(a + 3 * cols + j));
    _mm256_storeu_pd(into + j, _mm256_add_pd(_mm256_loadu_pd(into + j), _mm256_add_pd(ab, cd)));
  }
  return j;
}
#endif

// Columns [j, cols) of four rows, one at a time (the vector loop's tail, or all without AVX).
template <typename T, bool kSquares>
inline void four_rows_scalar(const T* __restrict a, int64_t cols, int64_t j, double* __restrict into) {
  auto term = [](T v) {
    const double d = static_cast<double>(v);
    return kSquares ? d * d : d;
  };
  for (; j < cols; ++j) into[j] += (term(a[j]) + term(a[cols + j])) + (term(a[2 * cols + j]) + term(a[3 * cols + j]));
}

// Sum (or sum of squares) of rows [r0, r1) into acc, four rows per pass over acc: short rows (GNN
// widths of 16-64) spent more on the loop around each row and on acc's loads and stores than on
// the data. The four are added pairwise first, a different order from the reference's, within
// the suite's summation bound. One sequential stream: on the Zen 3 VM, two or four streams side
// by side (which helped the compiler-vectorised loop on the Intel VM) read 10-25% slower at one
// thread and two.
template <typename T, bool kSquares>
void sum_rows(const T* __restrict x, int64_t cols, int64_t r0, int64_t r1, double* __restrict acc) {
  std::fill(acc, acc + cols, 0.0);
  int64_t r = r0;
  for (; r + 4 <= r1; r += 4) {
    const T* a = x + r * cols;
#if defined(__AVX__)
    four_rows_scalar<T, kSquares>(a, cols, four_rows_vector<T, kSquares>(a, cols, acc), acc);
#else
    four_rows_scalar<T, kSquares>(a, cols, 0, acc);
#endif
  }
  for (; r < r1; ++r) {
    const T* row = x + r * cols;
    for (int64_t j = 0; j < cols; ++j) {
      const double d = static_cast<double>(row[j]);
      acc[j] += kSquares ? d * d : d;
    }
  }
}

template <typename T>
void reduce_rows(ReduceOp op, const T* __restrict x, int64_t cols, int64_t r0, int64_t r1, double* __restrict acc) {
  if (op == ReduceOp::kMax) {
    std::fill(acc, acc + cols, -std::numeric_limits<double>::infinity());
    // NaN never replaces a maximum (v > acc is false), as in the reference.
    for (int64_t r = r0; r < r1; ++r) {
      const T* row = x + r * cols;
      for (int64_t j = 0; j < cols; ++j) {
        const double v = static_cast<double>(row[j]);
        acc[j] = v > acc[j] ? v : acc[j];
      }
    }
    return;
  }
  if (op == ReduceOp::kNorm2) {
    sum_rows<T, true>(x, cols, r0, r1, acc);
  } else {
    sum_rows<T, false>(x, cols, r0, r1, acc);
  }
}

template <typename T>
void reduce_typed(const ReduceArgs& a) {
  const int64_t rows = a.row_end - a.row_begin;
  const int64_t cols = a.x.cols;
  const T* x = static_cast<const T*>(a.x.data) + a.row_begin * cols;
  ThreadPool& pool = ThreadPool::instance();
  const int64_t elements = rows * cols;
  const int64_t chunks = elements < kParallelElements || rows < 2 ? 1 : std::min<int64_t>(pool.participants() * 2, rows);
  if (chunks == 1) {
    reduce_rows(a.op, x, cols, 0, rows, a.acc);
    return;
  }
  std::vector<double> parts(static_cast<size_t>(chunks * cols));
  pool.parallel_for(chunks, [&](int64_t c) {
    const int64_t r0 = rows / chunks * c + std::min(c, rows % chunks);
    const int64_t r1 = r0 + rows / chunks + (c < rows % chunks ? 1 : 0);
    reduce_rows(a.op, x, cols, r0, r1, parts.data() + c * cols);
  });
  std::copy(parts.begin(), parts.begin() + cols, a.acc);
  for (int64_t c = 1; c < chunks; ++c) {
    const double* p = parts.data() + c * cols;
    if (a.op == ReduceOp::kMax) {
      for (int64_t j = 0; j < cols; ++j) a.acc[j] = p[j] > a.acc[j] ? p[j] : a.acc[j];
    } else {
      for (int64_t j = 0; j < cols; ++j) a.acc[j] += p[j];
    }
  }
}

Status check_range(const char* fn, int64_t begin, int64_t end, int64_t rows) {
  if (begin < 0 || end < begin || end > rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(begin) + ", " + std::to_string(end) +
                           ") is outside [0, " + std::to_string(rows) + "]");
  }
  return Status{};
}

}  // namespace

Status map(const char* fn, const MapArgs& a) {
  Status st = check_range(fn, a.row_begin, a.row_end, a.x.rows);
  if (!st.ok) return st;
  if (a.op == MapOp::kAdd && a.z == nullptr && a.row_end > a.row_begin && a.x.cols > 0) return Status::invalid(std::string(fn) + ": y is missing");
  if (a.op == MapOp::kAffine && !(std::isfinite(a.scale) && std::isfinite(a.shift))) {
    return Status::invalid(std::string(fn) + ": scale and shift must be finite");
  }
  if (a.type == DenseType::kF32) {
    map_typed<float>(a);
  } else {
    map_typed<double>(a);
  }
  return Status{};
}

Status reduce_partial(const char* fn, const ReduceArgs& a) {
  Status st = check_range(fn, a.row_begin, a.row_end, a.x.rows);
  if (!st.ok) return st;
  if (a.type == DenseType::kF32) {
    reduce_typed<float>(a);
  } else {
    reduce_typed<double>(a);
  }
  return Status{};
}

}  // namespace dype
