// SDDMM on the CPU: one dot product of two dense rows per stored entry, row blocks of equal
// nonzero counts on the pool. Column indices are checked as they are read and every result is
// checked finite (a CsrMatrix holds finite values), each fault reported at its first entry.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>

#include "../thread_pool.h"
#include "dense.h"

namespace dype {

namespace {

// dot(u, v) in FP64: eight independent partial sums (the compiler keeps them in two vectors),
// added pairwise at the end. The reference sums in order; the two differ by rounding alone.
template <typename T>
inline double dot(const T* __restrict u, const T* __restrict v, int64_t k) {
  double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t t = 0;
  for (; t + 8 <= k; t += 8) {
#pragma GCC unroll 8
    for (int l = 0; l < 8; ++l) s[l] += static_cast<double>(u[t + l]) * static_cast<double>(v[t + l]);
  }
  for (; t < k; ++t) s[0] += static_cast<double>(u[t]) * static_cast<double>(v[t]);
  return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
}

std::string js_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// First row r in [lo, hi) with ptr(r + 1) > target, by bisection.
int64_t row_of(const Csr& a, int64_t lo, int64_t hi, int64_t target) {
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (a.ptr(mid + 1) <= target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <typename T>
Status sddmm_typed(const char* fn, const SddmmArgs& s) {
  const Csr& a = s.a;
  const int64_t base = a.ptr(s.row_begin);
  const int64_t nnz = a.ptr(s.row_end) - base;
  if (nnz != s.out_length) {
    return Status::invalid(std::string(fn) + ": out has length " + std::to_string(s.out_length) + ", expected the range's " +
                           std::to_string(nnz) + " entries");
  }
  const T* u = static_cast<const T*>(s.u);
  const T* v = static_cast<const T*>(s.v);
  T* out = static_cast<T*>(s.out);
  const int64_t k = s.k;
  ThreadPool& pool = ThreadPool::instance();
  const int64_t work = nnz * std::max<int64_t>(k, 1) + (s.row_end - s.row_begin);
  const int64_t chunks = work < (int64_t{1} << 16) ? 1 : std::min<int64_t>(pool.participants() * 8, std::max<int64_t>(1, nnz / 64));
  std::atomic<int64_t> bad_col(INT64_MAX), bad_value(INT64_MAX);
  auto keep_first = [](std::atomic<int64_t>& at, int64_t p) {
    int64_t cur = at.load(std::memory_order_relaxed);
    while (p < cur && !at.compare_exchange_weak(cur, p)) {
    }
  };
  pool.parallel_for(chunks, [&](int64_t c) {
    // Entries [p0, p1) of the range, extended to whole rows.
    const int64_t p0 = base + nnz / chunks * c + std::min(c, nnz % chunks);
    const int64_t p1 = p0 + nnz / chunks + (c < nnz % chunks ? 1 : 0);
    const int64_t r0 = c == 0 ? s.row_begin : row_of(a, s.row_begin, s.row_end, p0 - 1) + 1;
    const int64_t r1 = c == chunks - 1 ? s.row_end : row_of(a, s.row_begin, s.row_end, p1 - 1) + 1;
    for (int64_t r = r0; r < r1; ++r) {
      const T* ur = u + r * k;
      const int64_t stop = a.ptr(r + 1);
      for (int64_t p = a.ptr(r); p < stop; ++p) {
        const int32_t col = a.col_idx[p];
        if (col < 0 || col >= a.cols) return keep_first(bad_col, p);
        double d = dot(ur, v + static_cast<int64_t>(col) * k, k);
        if (a.values != nullptr) {
          d *= a.value_type == ValueType::kF32 ? static_cast<double>(static_cast<const float*>(a.values)[p])
                                               : static_cast<const double*>(a.values)[p];
        }
        const T stored = static_cast<T>(d);
        out[p - base] = stored;
        if (!std::isfinite(stored)) keep_first(bad_value, p);
      }
    }
  });
  if (bad_col.load() != INT64_MAX) return sddmm_column_fault(fn, s, bad_col.load());
  if (bad_value.load() != INT64_MAX) return sddmm_value_fault(fn, s, bad_value.load(), static_cast<double>(out[bad_value.load() - base]));
  return Status{};
}

}  // namespace

Status sddmm_column_fault(const char* fn, const SddmmArgs& s, int64_t p) {
  return Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(p) + "] = " + std::to_string(s.a.col_idx[p]) +
                         " is outside [0, " + std::to_string(s.a.cols) + ")");
}

Status sddmm_value_fault(const char* fn, const SddmmArgs& s, int64_t p, double value) {
  const int64_t r = row_of(s.a, s.row_begin, s.row_end, p);
  return Status::invalid(std::string(fn) + ": entry (" + std::to_string(r) + ", " + std::to_string(s.a.col_idx[p]) + ") = " +
                         js_number(value) + " is not finite in " + (s.type == DenseType::kF32 ? "f32" : "f64") +
                         "; u and v are too large for it");
}

Status sddmm(const char* fn, const SddmmArgs& s) {
  if (s.row_begin < 0 || s.row_end < s.row_begin || s.row_end > s.a.rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(s.row_begin) + ", " + std::to_string(s.row_end) +
                           ") is outside [0, " + std::to_string(s.a.rows) + "]");
  }
  Status st = check_row_ptr(fn, s.a, s.row_begin, s.row_end);
  if (!st.ok) return st;
  return s.type == DenseType::kF32 ? sddmm_typed<float>(fn, s) : sddmm_typed<double>(fn, s);
}

}  // namespace dype
