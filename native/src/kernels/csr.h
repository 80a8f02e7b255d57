// The flat-array contract between JavaScript and the kernels: a CSR matrix is borrowed as raw
// pointers into JS typed arrays (never copied), and a kernel reports bad input as a Status
// instead of reading out of bounds or aborting.
#pragma once

#include <cstdint>
#include <string>

namespace dype {

enum class ValueType { kNone, kF32, kF64 };
enum class DenseType { kF32, kF64 };

struct Csr {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  const void* row_ptr = nullptr;  // int32_t[rows + 1] or int64_t[rows + 1]
  bool wide_row_ptr = false;
  const int32_t* col_idx = nullptr;  // [nnz]
  const void* values = nullptr;      // float/double[nnz], or null for a pattern matrix
  ValueType value_type = ValueType::kNone;

  int64_t ptr(int64_t r) const {
    return wide_row_ptr ? static_cast<const int64_t*>(row_ptr)[r] : static_cast<const int32_t*>(row_ptr)[r];
  }
};

struct Status {
  bool ok = true;
  std::string code;  // a DypeError code when !ok, e.g. "ERR_INVALID_ARGUMENT"
  std::string message;

  static Status invalid(std::string msg) { return Status{false, "ERR_INVALID_ARGUMENT", std::move(msg)}; }
  static Status aborted(std::string msg) { return Status{false, "ERR_ABORTED", std::move(msg)}; }
};

// Check that row pointers [row_begin, row_end] are non-decreasing and within [0, nnz]. Runs in
// parallel on the pool for long ranges. Column indices are checked inside each kernel as they
// are read, so they are never trusted even if JS mutated them after validation.
Status check_row_ptr(const char* fn, const Csr& a, int64_t row_begin, int64_t row_end);

}  // namespace dype
