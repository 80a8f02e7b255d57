// SpMM by merge path (Merrill and Garland's merge-based decomposition applied to k columns):
// each chunk owns an equal share of rows + nonzeros; rows cut by a chunk boundary leave a
// partial sum (a carry) that one cheap serial pass adds in afterwards.
#include "spmm.h"
#include "populate.h"
#include "../machine.h"
#include "spmm_row.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../thread_pool.h"

namespace dype {

namespace {

using spmm_row::accumulate_row;
using spmm_row::Prefetch;
using spmm_row::Pattern;

// Smallest x in [lo, hi] with ends[x] > diagonal - x - 1, i.e. the row coordinate where the
// merge path crosses `diagonal` (rows consumed, nonzeros consumed = diagonal - x).
template <typename P>
inline int64_t merge_path_search(int64_t diagonal, const P* ends, int64_t base, int64_t rows, int64_t nnz) {
  int64_t lo = std::max<int64_t>(diagonal - nnz, 0);
  int64_t hi = std::min<int64_t>(diagonal, rows);
  while (lo < hi) {
    int64_t mid = lo + ((hi - lo) >> 1);
    if (static_cast<int64_t>(ends[mid]) - base <= diagonal - mid - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Exponent bits of each precision: all ones exactly for infinities and NaN.
template <typename T>
struct FloatBits;
template <>
struct FloatBits<float> {
  using U = uint32_t;
  static constexpr U kExponent = 0x7f800000u;
};
template <>
struct FloatBits<double> {
  using U = uint64_t;
  static constexpr U kExponent = 0x7ff0000000000000ull;
};

// Fold a row's exponent fields into `acc` with an integer max, which (unlike a floating-point
// test) vectorises: the row is still in L1, so checking it for NaN/infinity costs two or three
// vector instructions. acc reaches kExponent iff some element was not finite.
template <int K, typename T>
inline typename FloatBits<T>::U fold_exponents(typename FloatBits<T>::U acc, const T* v, int64_t k) {
  using U = typename FloatBits<T>::U;
  const int64_t n = K > 0 ? K : k;
  for (int64_t j = 0; j < n; ++j) {
    U bits;
    std::memcpy(&bits, v + j, sizeof(U));
    const U e = bits & FloatBits<T>::kExponent;
    acc = e > acc ? e : acc;
  }
  return acc;
}

template <int K, typename T>
inline bool all_finite(const T* v, int64_t k) {
  return fold_exponents<K, T>(0, v, k) != FloatBits<T>::kExponent;
}

// A number as JavaScript prints it, so native messages read like the TypeScript ones.
std::string js_number(double v) {
  if (v != v) return "NaN";
  if (v == std::numeric_limits<double>::infinity()) return "Infinity";
  if (v == -std::numeric_limits<double>::infinity()) return "-Infinity";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

template <typename T>
Status non_finite_status(const char* fn, const SpmmArgs& s, int64_t row) {
  const T* x = static_cast<const T*>(s.x);
  const int64_t n = s.a.cols * s.k;
  for (int64_t i = 0; i < n; ++i) {
    if (!((x[i] - x[i]) == T(0))) {
      const std::string where = s.k == 1 ? "x[" + std::to_string(i) + "]"
                                         : "x element (" + std::to_string(i / s.k) + ", " + std::to_string(i % s.k) + ")";
      return Status::invalid(std::string(fn) + ": " + where + " = " + js_number(static_cast<double>(x[i])) + " is not finite");
    }
  }
  return Status::invalid(std::string(fn) + ": the result is not finite in row " + std::to_string(s.row_begin + row) +
                         " (overflow, or values changed after validation)");
}

template <typename P, typename V, typename T, int K, bool AlignedX>
Status spmm_impl(const char* fn, const SpmmArgs& s) {
  const P* rp = static_cast<const P*>(s.a.row_ptr);
  const int32_t* ci = s.a.col_idx;
  const int64_t k = K > 0 ? K : s.k;
  const int64_t rows = s.row_end - s.row_begin;
  const int64_t base = static_cast<int64_t>(rp[s.row_begin]);
  const int64_t nnz = static_cast<int64_t>(rp[s.row_end]) - base;
  const int64_t total = rows + nnz;

  ThreadPool& pool = ThreadPool::instance();
  // Enough chunks to balance dynamically, few enough that the carry pass stays negligible;
  // small products run on the calling thread alone. The bound is where two threads start to win
  // on a 2-vCPU VM (SpMV rows of bcsstk13: 19.4 us alone against 17.5 at 33k units of work, 10.3
  // against 12.2 at 17k); at 2^16 a part just under it took 38 us and one just over 28 us, a
  // cliff that priced the CPU's parts near a split's balance point 1.6x high.
  const int64_t work = nnz * k + rows;
  int64_t chunks = 1;
  if (work >= (1 << 15)) {
    chunks = std::min<int64_t>(pool.participants() * 16, std::max<int64_t>(1, total / 256));
  }

  // Prefetching pays when each gathered row of x spans cache lines of its own (not for SpMV, nor
  // for rows of 32 bytes: FP32 at k = 8 is one vector a nonzero, so the out-of-order window
  // already holds dozens of upcoming gathers, and the prefetch's index load, test and hint only
  // take issue slots; without it, both builds alternated in one C++ process, Zen 5 VM: 1.07-1.39x
  // at one thread and 1.09-1.36x at two on six of the CI inputs and Kronecker 16, roads 0.98-1.02).
  // Every line of a row wider than the 128-byte pair the hardware fetches together, where the
  // gathers miss: X beyond L2 and under 16 entries a row (roads, meshes, email-Enron). With more
  // entries a row each X row serves many nearby output rows or is a hub's (FEM, banded,
  // Kronecker), the gathers mostly hit or stream in order, and the extra prefetches cost 5-14%.
  // Builds alternated in one process, one thread (bench/kernels/spmm-builds.ts --batch 4):
  // 1.06-1.70x on luxembourg_osm and the grid at FP32 k = 128 and FP64 k = 32 and 128
  // (luxembourg_osm FP64 k = 128 1.60-1.70x), 1.08-1.13x on email-Enron.
  const int64_t row_bytes = k * static_cast<int64_t>(sizeof(T));
  const bool gathers_miss = s.a.cols * row_bytes > l2_cache_bytes() && nnz < 16 * rows;
  const Prefetch prefetch_extent = row_bytes <= 32                    ? Prefetch::kNone
                                   : row_bytes > 128 && gathers_miss ? Prefetch::kWholeRow
                                                                     : Prefetch::kFirstLine;

  std::vector<int64_t> carry_row(chunks, -1);
  std::vector<T> carry(static_cast<size_t>(chunks * k));
  std::atomic<int64_t> bad_col(-1);
  std::atomic<int64_t> bad_row(-1);

  auto body = [&](int64_t c) {
    // Locals, not captures: the compiler keeps them in registers across the stores to y.
    const P* ends = rp + s.row_begin + 1;
    const int32_t* cols_of = ci + base;
    const V* vals = static_cast<const V*>(s.a.values) + (std::is_same_v<V, Pattern> ? 0 : base);
    const T* __restrict x = static_cast<const T*>(s.x);
    T* __restrict y = static_cast<T*>(s.y);
    const uint64_t cols = static_cast<uint64_t>(s.a.cols);
    const int64_t nz_end = nnz;
    const Prefetch prefetch = prefetch_extent;

    const int64_t d0 = total / chunks * c + std::min(c, total % chunks);
    const int64_t d1 = d0 + total / chunks + (c < total % chunks ? 1 : 0);
    const int64_t x0 = merge_path_search(d0, ends, base, rows, nnz);
    const int64_t x1 = merge_path_search(d1, ends, base, rows, nnz);
    const int64_t y1 = d1 - x1;
    int64_t p = d0 - x0;

    // Rows this chunk finishes are written straight to y; a row cut by the chunk's end goes to
    // carry. accumulate_to returns false when a column index is out of range.
    auto accumulate_to = [&](T* __restrict dst, int64_t stop) -> bool {
      int64_t at = -1;
      p = accumulate_row<K, V, T, AlignedX>(dst, cols_of, vals, x, p, stop, cols, k, prefetch, nz_end, &at);
      if (p >= 0) return true;
      int64_t expected = -1;
      bad_col.compare_exchange_strong(expected, base + at);
      return false;
    };

    typename FloatBits<T>::U exponents = 0;
    for (int64_t r = x0; r < x1; ++r) {
      T* yr = y + r * k;
      if (!accumulate_to(yr, static_cast<int64_t>(ends[r]) - base)) return;
      exponents = fold_exponents<K, T>(exponents, yr, k);
    }
    if (exponents == FloatBits<T>::kExponent) {
      // Rare: find the first non-finite row of this chunk for the error message.
      for (int64_t r = x0; r < x1; ++r) {
        if (!all_finite<K>(y + r * k, k)) {
          int64_t expected = -1;
          bad_row.compare_exchange_strong(expected, r);
          break;
        }
      }
    }
    if (x1 < rows && p < y1) {
      if (!accumulate_to(carry.data() + c * k, y1)) return;
      carry_row[c] = x1;
    }
  };
  pool.parallel_for(chunks, body);

  if (bad_col.load() >= 0) {
    const int64_t at = bad_col.load();
    return Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(at) + "] = " + std::to_string(ci[at]) +
                           " is outside [0, " + std::to_string(s.a.cols) + ")");
  }
  // A row split across chunks was written by the chunk that finished it; add the others' parts.
  T* y = static_cast<T*>(s.y);
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t r = carry_row[c];
    if (r < 0) continue;
    T* yr = y + r * k;
    const T* cr = carry.data() + c * k;
    for (int64_t j = 0; j < k; ++j) yr[j] += cr[j];
    if (!all_finite<K>(yr, k)) bad_row.store(r);
  }
  // Inputs were validated as finite, so a non-finite output means x (or values) changed since,
  // or the product overflowed; say which.
  if (bad_row.load() >= 0) return non_finite_status<T>(fn, s, bad_row.load());
  return Status{};
}

// spmm_impl at width K, instantiated for X on a 64-byte boundary and not where the vector width
// the row is accumulated in depends on it (spmm_row.h).
template <typename P, typename V, typename T, int K>
Status spmm_width(const char* fn, const SpmmArgs& s) {
  if constexpr (spmm_row::width_depends_on_alignment<K, T>()) {
    if (reinterpret_cast<uintptr_t>(s.x) % kDenseAlignBytes == 0) return spmm_impl<P, V, T, K, true>(fn, s);
  }
  return spmm_impl<P, V, T, K, false>(fn, s);
}

template <typename P, typename V, typename T>
Status dispatch_width(const char* fn, const SpmmArgs& s) {
  if constexpr (std::is_same_v<P, int32_t>) {
    switch (s.k) {
      case 1: return spmm_width<P, V, T, 1>(fn, s);
      case 2: return spmm_width<P, V, T, 2>(fn, s);
      case 4: return spmm_width<P, V, T, 4>(fn, s);
      case 8: return spmm_width<P, V, T, 8>(fn, s);
      case 16: return spmm_width<P, V, T, 16>(fn, s);
      case 32: return spmm_width<P, V, T, 32>(fn, s);
      case 64: return spmm_width<P, V, T, 64>(fn, s);
      case 128: return spmm_width<P, V, T, 128>(fn, s);
      default: return spmm_width<P, V, T, 0>(fn, s);
    }
  } else {
    // 64-bit row pointers only occur beyond 2^31 nonzeros, where memory traffic dominates and
    // unrolling for a fixed width buys little; keep the instantiation count down.
    return s.k == 1 ? spmm_width<P, V, T, 1>(fn, s) : spmm_width<P, V, T, 0>(fn, s);
  }
}

template <typename P, typename T>
Status dispatch_values(const char* fn, const SpmmArgs& s) {
  switch (s.a.value_type) {
    case ValueType::kF32: return dispatch_width<P, float, T>(fn, s);
    case ValueType::kF64: return dispatch_width<P, double, T>(fn, s);
    default: return dispatch_width<P, Pattern, T>(fn, s);
  }
}

template <typename P>
Status dispatch_dense(const char* fn, const SpmmArgs& s) {
  return s.type == DenseType::kF32 ? dispatch_values<P, float>(fn, s) : dispatch_values<P, double>(fn, s);
}

}  // namespace

Status spmm(const char* fn, const SpmmArgs& s) {
  if (s.row_begin < 0 || s.row_end < s.row_begin || s.row_end > s.a.rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(s.row_begin) + ", " +
                           std::to_string(s.row_end) + ") is outside [0, " + std::to_string(s.a.rows) + "]");
  }
  if (s.k < 0) return Status::invalid(std::string(fn) + ": k must be non-negative");
  if (s.row_end == s.row_begin || s.k == 0) return Status{};
  Status st = check_row_ptr(fn, s.a, s.row_begin, s.row_end);
  if (!st.ok) return st;
  populate_for_write(s.y, static_cast<size_t>((s.row_end - s.row_begin) * s.k) * (s.type == DenseType::kF32 ? 4 : 8));
  return s.a.wide_row_ptr ? dispatch_dense<int64_t>(fn, s) : dispatch_dense<int32_t>(fn, s);
}

namespace {

// First row r in [r0, r1] whose pointer breaks 0 <= rowPtr[r-1] <= rowPtr[r] <= nnz, or -1.
template <typename P>
int64_t first_bad_row_ptr(const P* rp, int64_t r0, int64_t r1, int64_t nnz) {
  if (rp[r0] < 0 || rp[r0] > nnz) return r0;
  bool ok = true;
  for (int64_t r = r0 + 1; r <= r1; ++r) ok &= (rp[r] >= rp[r - 1]) & (rp[r] <= nnz);
  if (ok) return -1;
  for (int64_t r = r0 + 1; r <= r1; ++r) {
    if (rp[r] < rp[r - 1] || rp[r] > nnz) return r;
  }
  return -1;
}

}  // namespace

Status check_row_ptr(const char* fn, const Csr& a, int64_t row_begin, int64_t row_end) {
  if (a.ptr(0) != 0) return Status::invalid(std::string(fn) + ": rowPtr[0] must be 0, got " + std::to_string(a.ptr(0)));
  if (a.ptr(a.rows) != a.nnz) {
    return Status::invalid(std::string(fn) + ": rowPtr[rows] = " + std::to_string(a.ptr(a.rows)) +
                           " must equal nnz = " + std::to_string(a.nnz));
  }
  const int64_t n = row_end - row_begin;
  ThreadPool& pool = ThreadPool::instance();
  const int64_t chunks = n < (1 << 16) ? 1 : pool.participants() * 4;
  std::atomic<int64_t> bad(-1);
  pool.parallel_for(chunks, [&](int64_t c) {
    const int64_t r0 = row_begin + n / chunks * c + std::min(c, n % chunks);
    const int64_t r1 = r0 + n / chunks + (c < n % chunks ? 1 : 0);
    const int64_t r = a.wide_row_ptr ? first_bad_row_ptr(static_cast<const int64_t*>(a.row_ptr), r0, r1, a.nnz)
                                     : first_bad_row_ptr(static_cast<const int32_t*>(a.row_ptr), r0, r1, a.nnz);
    if (r >= 0) {
      int64_t expected = -1;
      bad.compare_exchange_strong(expected, r);
    }
  });
  if (bad.load() >= 0) {
    const int64_t r = bad.load();
    return Status::invalid(std::string(fn) + ": rowPtr[" + std::to_string(r) + "] = " + std::to_string(a.ptr(r)) +
                           " breaks monotonicity or exceeds nnz = " + std::to_string(a.nnz));
  }
  return Status{};
}

}  // namespace dype
