// Element-wise maps (relu, affine, add) and column-reduction partials over a range of rows, on the
// pool. The maps are single streaming passes, so they are split into a few equal spans of
// elements per participant and left to the compiler to vectorise; they equal the TypeScript
// reference bit for bit. The reductions keep one FP64 accumulator row per chunk (max exactly as
// the reference; sums by blocks of columns held in registers over tiles of rows) and add the
// chunks' rows in order, so sums differ from the reference's single pass only by rounding.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
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

// Columns [j0, cols) of rows [r0, r1) added into acc, up to eight at a time, summed over the rows
// in locals and added to acc once: what the vector blocks leave (fewer columns than the narrowest
// vector's lanes), or every column where the build has no AVX. Adding into acc row by row made
// two threads' partial rows, a few bytes apart in one cache line when the matrix is narrow, take
// that line from each other on every row (a 3-column sum ran 4x slower at two threads than at one).
template <typename T, bool kSquares>
void sum_columns_scalar(const T* __restrict x, int64_t cols, int64_t j0, int64_t r0, int64_t r1, double* __restrict acc) {
  constexpr int64_t kGroup = 8;
  auto term = [](T v) {
    const double d = static_cast<double>(v);
    return kSquares ? d * d : d;
  };
  for (; j0 < cols; j0 += kGroup) {
    const int64_t g = std::min(kGroup, cols - j0);
    double t[kGroup] = {};
    // Four rows added pairwise before each sum, so the sums' chains are a quarter as long.
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {
      const T* a = x + r * cols + j0;
      for (int64_t k = 0; k < g; ++k) t[k] += (term(a[k]) + term(a[cols + k])) + (term(a[2 * cols + k]) + term(a[3 * cols + k]));
    }
    for (; r < r1; ++r) {
      const T* row = x + r * cols + j0;
      for (int64_t k = 0; k < g; ++k) t[k] += term(row[k]);
    }
    for (int64_t k = 0; k < g; ++k) acc[j0 + k] += t[k];
  }
}

#if defined(__AVX__)
// FP64 vectors of four lanes (AVX) and of eight (AVX-512), as the column blocks use them.
struct Lanes4 {
  using V = __m256d;
  static constexpr int64_t kLanes = 4;
  static V zero() { return _mm256_setzero_pd(); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static V load(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
  static void store(double* p, V v) { _mm256_storeu_pd(p, v); }
};

#if defined(__AVX512F__)
struct Lanes8 {
  using V = __m512d;
  static constexpr int64_t kLanes = 8;
  static V zero() { return _mm512_setzero_pd(); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  // The zero-masked form with every lane selected is the same instruction; the plain intrinsic's
  // undefined pass-through makes GCC 12 warn of an uninitialised value.
  static V load(const float* p) { return _mm512_maskz_cvtps_pd(static_cast<__mmask8>(0xFF), _mm256_loadu_ps(p)); }
  static void store(double* p, V v) { _mm512_storeu_pd(p, v); }
};
// Vectors one column block keeps as sums in registers, the rest of the registers for the loads'
// temporaries: 16 of AVX-512's 32; 12 of AVX's 16 (on the Zen 5 VM built without AVX-512, 12 read
// 1.1-1.35x faster than 8 on one thread, which split 64 FP64 columns into two blocks).
constexpr int kBlockVectors = 16;
#else
constexpr int kBlockVectors = 12;
#endif

// Columns [j0, j0 + kVectors * lanes) of rows [r0, r1) added into acc: each row's values widened
// to FP64 (squared for norm2) and summed in registers over the rows, then added to acc once.
// A block of fewer than four vectors keeps kRows sums per vector, one per row of each group of
// kRows, so that four additions are in flight and not one chain waiting on its last (a 13-column
// sum took one vector of 8 and one of 4, each a chain, and read at half the earlier form's speed).
template <class L, typename T, bool kSquares, int kVectors>
void column_block(const T* __restrict x, int64_t cols, int64_t r0, int64_t r1, int64_t j0, double* __restrict acc) {
  constexpr int kRows = kVectors >= 4 ? 1 : 4 / kVectors;
  typename L::V s[kRows][kVectors];
  for (int u = 0; u < kRows; ++u)
    for (int v = 0; v < kVectors; ++v) s[u][v] = L::zero();
  auto add_row = [&](int u, int64_t r) {
    const T* row = x + r * cols + j0;
    for (int v = 0; v < kVectors; ++v) {
      const typename L::V d = L::load(row + L::kLanes * v);
      s[u][v] = L::add(s[u][v], kSquares ? L::mul(d, d) : d);
    }
  };
  int64_t r = r0;
  for (; r + kRows <= r1; r += kRows)
    for (int u = 0; u < kRows; ++u) add_row(u, r + u);
  for (; r < r1; ++r) add_row(0, r);
  for (int u = 1; u < kRows; ++u)
    for (int v = 0; v < kVectors; ++v) s[0][v] = L::add(s[0][v], s[u][v]);
  for (int v = 0; v < kVectors; ++v) L::store(acc + j0 + L::kLanes * v, L::add(L::load(acc + j0 + L::kLanes * v), s[0][v]));
}

// Every whole vector of columns from j0 on, in blocks of kVectors vectors and then of fewer;
// returns the first column left (fewer than L's lanes remain).
template <class L, typename T, bool kSquares, int kVectors>
int64_t column_blocks(const T* __restrict x, int64_t cols, int64_t r0, int64_t r1, int64_t j0, double* __restrict acc) {
  for (; j0 + kVectors * L::kLanes <= cols; j0 += kVectors * L::kLanes) column_block<L, T, kSquares, kVectors>(x, cols, r0, r1, j0, acc);
  if constexpr (kVectors > 1) return column_blocks<L, T, kSquares, kVectors - 1>(x, cols, r0, r1, j0, acc);
  return j0;
}
#endif

// Rows a tile holds: every column block of a tile reads it while it is still in the nearest caches
// (64 rows of 256 FP64 columns are 128 KB), so the array streams from memory once however many
// blocks its rows take.
constexpr int64_t kTileRows = 64;

// Sum (or sum of squares) of rows [r0, r1) into acc, a tile of rows at a time. With AVX, columns go
// in blocks whose sums stay in registers over the tile's rows and reach acc once per tile: the
// earlier form, four rows at a time added into acc in memory (its loads and stores on every
// pass), read the FP32 column sum at 12-16 GB/s on one Zen 5 core, 35% of the triad; this form
// reads 32-40 (docs/dense.md, bench/dense/reduce-builds.ts). Sums differ from the reference's
// single pass in row order only by rounding (tile sums are added), within the suite's bound.
template <typename T, bool kSquares>
void sum_rows(const T* __restrict x, int64_t cols, int64_t r0, int64_t r1, double* __restrict acc) {
  std::fill(acc, acc + cols, 0.0);
  for (int64_t t0 = r0; t0 < r1; t0 += kTileRows) {
    const int64_t t1 = std::min(r1, t0 + kTileRows);
    int64_t j = 0;
#if defined(__AVX512F__)
    // Eight-lane vectors where every row starts on one (16, 64, 256 columns: 1.1-2.9x the earlier
    // form on one Zen 5 core); otherwise most of their loads straddle cache lines, and a 13-column
    // FP64 sum read at 0.6x the four-lane vectors' speed.
    j = cols % Lanes8::kLanes == 0 ? column_blocks<Lanes8, T, kSquares, kBlockVectors>(x, cols, t0, t1, 0, acc)
                                   : column_blocks<Lanes4, T, kSquares, kBlockVectors>(x, cols, t0, t1, 0, acc);
#elif defined(__AVX__)
    j = column_blocks<Lanes4, T, kSquares, kBlockVectors>(x, cols, t0, t1, 0, acc);
#endif
    sum_columns_scalar<T, kSquares>(x, cols, j, t0, t1, acc);
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
