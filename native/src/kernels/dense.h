// The dense operators of workload DAGs on the CPU: GEMM (OpenBLAS where it was found at build
// time, else a blocked kernel of our own), element-wise maps, column-reduction partials and SDDMM.
// Each computes a range of output rows, so one operator splits across devices as SpMM does. Sizes
// are checked by the binding (dense_binding.cc) before any pointer reaches these functions.
#pragma once

#include <string>

#include "csr.h"

namespace dype {

// One dense row-major operand: `rows x cols` elements of `type` at `data`.
struct DenseView {
  const void* data = nullptr;
  int64_t rows = 0;
  int64_t cols = 0;
};

// Y = X[row_begin:row_end, :] * W, X m x k, W k x n, Y (row_end - row_begin) x n, all of `type`.
// FP32 accumulates in FP32 (as any BLAS sgemm does), FP64 in FP64.
struct GemmArgs {
  DenseView x;
  DenseView w;
  DenseType type = DenseType::kF32;
  int64_t row_begin = 0;
  int64_t row_end = 0;
  void* y = nullptr;
};

Status gemm(const char* fn, const GemmArgs& a);

// Which GEMM this build has, for `dype system`: library ("openblas" or "builtin"), its version,
// the threads one call uses and how they are organised.
struct GemmInfo {
  std::string library;
  std::string version;
  std::string threading;
  std::string config;  // the library's own build summary (openblas_get_config)
  int threads = 1;
  std::string reason;  // why there is no BLAS, for the built-in kernel
};
GemmInfo gemm_info();

enum class MapOp { kRelu, kAffine, kAdd };

// y = op(x[, z]) over rows [row_begin, row_end) of rows x cols operands; y holds those rows only.
// affine computes scale * x + shift in FP64 and rounds once, as the TypeScript reference does.
struct MapArgs {
  MapOp op = MapOp::kRelu;
  DenseView x;
  const void* z = nullptr;  // add's second operand, x's shape
  DenseType type = DenseType::kF32;
  double scale = 1;
  double shift = 0;
  int64_t row_begin = 0;
  int64_t row_end = 0;
  void* y = nullptr;
};

Status map(const char* fn, const MapArgs& a);

enum class ReduceOp { kSum, kMax, kNorm2 };

// acc (cols doubles) = the column sums, maxima or sums of squares of rows [row_begin, row_end):
// the accumulator of reducePartial, in FP64 whatever x's precision.
struct ReduceArgs {
  ReduceOp op = ReduceOp::kSum;
  DenseView x;
  DenseType type = DenseType::kF32;
  int64_t row_begin = 0;
  int64_t row_end = 0;
  double* acc = nullptr;
};

Status reduce_partial(const char* fn, const ReduceArgs& a);

// For each stored (i, j) of a in rows [row_begin, row_end): out[p] = dot(u[i, :], v[j, :]) * a(i, j)
// (times 1 for a pattern matrix), the dot product summed in FP64 and rounded once. out holds the
// range's entries, rebased to 0.
struct SddmmArgs {
  Csr a;
  const void* u = nullptr;  // a.rows x k
  const void* v = nullptr;  // a.cols x k
  int64_t k = 0;
  DenseType type = DenseType::kF32;
  int64_t row_begin = 0;
  int64_t row_end = 0;
  void* out = nullptr;
  int64_t out_length = 0;
};

Status sddmm(const char* fn, const SddmmArgs& a);

// The faults every SDDMM (CPU or GPU) reports at the first faulty entry p (an index into
// a.col_idx): a column index outside [0, cols), or a result that is not finite in the type.
Status sddmm_column_fault(const char* fn, const SddmmArgs& s, int64_t p);
Status sddmm_value_fault(const char* fn, const SddmmArgs& s, int64_t p, double value);

// Bytes of a dense element.
inline int64_t element_bytes(DenseType t) { return t == DenseType::kF32 ? 4 : 8; }

}  // namespace dype
