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
#include <vector>

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

// A long range is read as this many streams at once, each at least this many four-row groups
// (small ranges stay in cache anyway).
constexpr int64_t kStreams = 4;
constexpr int64_t kStreamGroups = 512;

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
  std::fill(acc, acc + cols, 0.0);
  // Four rows per pass over acc: short rows (GNN widths of 16-64) spent more on the loop around
  // each row and on acc's loads and stores than on the data. The four are added pairwise first,
  // a different order from the reference's, within the suite's summation bound.
  const bool squares = op == ReduceOp::kNorm2;
  auto term = [squares](T v) {
    const double d = static_cast<double>(v);
    return squares ? d * d : d;
  };
  auto four = [&](double* __restrict into, int64_t r) {
    const T* __restrict a = x + r * cols;
    const T* __restrict b = a + cols;
    const T* __restrict c = b + cols;
    const T* __restrict d = c + cols;
    for (int64_t j = 0; j < cols; ++j) into[j] += (term(a[j]) + term(b[j])) + (term(c[j]) + term(d[j]));
  };
  int64_t r = r0;
  // A long range is read as kStreams streams at once, its parts side by side: one sequential
  // read stream left a core's memory-level parallelism unused (the column sum read 54-59% of
  // the triad's bandwidth in FP32, where the triad's three streams keep more lines in flight).
  const int64_t groups = (r1 - r0) / 4;
  if (groups >= kStreams * kStreamGroups) {
    std::vector<double> others(static_cast<size_t>((kStreams - 1) * cols), 0.0);
    const int64_t part = groups / kStreams;
    for (int64_t g = 0; g < part; ++g) {
      four(acc, r0 + 4 * g);
      for (int64_t k = 1; k < kStreams; ++k) four(others.data() + (k - 1) * cols, r0 + 4 * (k * part + g));
    }
    for (int64_t k = 1; k < kStreams; ++k)
      for (int64_t j = 0; j < cols; ++j) acc[j] += others[static_cast<size_t>((k - 1) * cols + j)];
    r = r0 + 4 * kStreams * part;
  }
  for (; r + 4 <= r1; r += 4) four(acc, r);
  for (; r < r1; ++r) {
    const T* row = x + r * cols;
    for (int64_t j = 0; j < cols; ++j) acc[j] += term(row[j]);
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
