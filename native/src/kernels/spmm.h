// Sparse times dense (SpMM) and sparse times vector (SpMV, the k = 1 case) on the CPU.
#pragma once

#include "csr.h"

namespace dype {

struct SpmmArgs {
  Csr a;
  // Output rows [row_begin, row_end) of A * X; the scheduler splits one product across devices
  // by row ranges.
  int64_t row_begin = 0;
  int64_t row_end = 0;
  const void* x = nullptr;  // a.cols x k, row-major
  DenseType type = DenseType::kF32;
  int64_t k = 0;
  void* y = nullptr;  // (row_end - row_begin) x k, row-major, same type as x; fully overwritten
};

// Y = A[row_begin:row_end, :] * X. Work is partitioned by merge path over rows and nonzeros, so a
// row of a million nonzeros is shared between threads instead of serialising one of them.
Status spmm(const char* fn, const SpmmArgs& args);

}  // namespace dype
