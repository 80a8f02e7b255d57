// One output row of SpMM accumulated in registers: the inner loop of spmm.cc's merge-path
// kernel, with the vector width and strip size chosen per row width. Included by spmm.cc only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace dype {
namespace spmm_row {

struct Pattern {};  // value type of a matrix without stored values: every entry is 1

template <typename V, typename T>
inline T value_at(const V* vals, int64_t p) {
  if constexpr (std::is_same_v<V, Pattern>) {
    (void)vals;
    (void)p;
    return T(1);
  } else {
    return static_cast<T>(vals[p]);
  }
}

// Accumulate acc += a * x_row over one width-K strip. K == 0 means the width is the runtime k.
template <int K, typename T>
inline void axpy(T* __restrict acc, const T* __restrict xr, T a, int64_t k) {
  if constexpr (K > 0) {
    (void)k;
#pragma GCC unroll 16
    for (int j = 0; j < K; ++j) acc[j] += a * xr[j];
  } else {
    for (int64_t j = 0; j < k; ++j) acc[j] += a * xr[j];
  }
}

constexpr int64_t kPrefetchDistance = 8;

// How much of an upcoming X row to prefetch, chosen per call by spmm.cc.
enum class Prefetch {
  kNone,      // rows of at most 32 bytes (SpMV, FP32 k = 8): extra loads only slow the loop (spmm.cc)
  kFirstLine, // rows of at most 128 bytes, or gathers that mostly hit (spmm.cc says when)
  kWholeRow,  // every line of the row (up to kPrefetchRowBytes): a gather of a wide row from
              // L3 or memory is several line misses the hardware prefetchers do not foresee
};
constexpr int kPrefetchRowBytes = 1024;

// One output row: dst = sum over nonzeros [p, stop) of value * x[col, :]. Returns the new p, or
// -1 after recording the position of an out-of-range column in *bad.
//
// For widths that are a multiple of a vector the row lives in vector registers for the whole
// row (GCC vector extensions; a plain array accumulator ended up in memory behind a `rep stos`
// and a load/store per nonzero), and is written to dst once. A row wider than kStripBytes (FP64
// at k = 128: 32 vectors, twice the 16 registers of AVX2) would spill its accumulators on every
// nonzero, so it is done in strips of kStripBytes, each a pass over the row's nonzeros (their
// indices and values are in L1 after the first) with its accumulators held in registers; only
// the first pass prefetches the gathers.
constexpr int kStripBytes = 512;

// Where the build has AVX-512, a row of 64 to 256 bytes that is a whole number of 512-bit
// vectors is accumulated in those: FP32 at k = 32 in 2 registers instead of 4, FP64 in 4
// instead of 8, half the loads and multiply-adds per nonzero. Both builds called in alternation
// on the SpMM suite's six CI inputs, one thread: 1.06-1.54x faster at k = 32 (FP32 and FP64),
// bit-identical results. Wider rows stay on 256-bit vectors: at k = 128 the 512-bit version was
// 0.90-1.31x, slower on four of twelve inputs (x rows are only as aligned as a JS typed array,
// so most 512-bit loads span two cache lines).
//
// Rows wider than a strip (FP64 at k = 128) are the exception: AVX-512 has 32 vector registers,
// enough for 16 accumulators of 512 bits, so a 1024-byte row is one strip and one pass over its
// nonzeros instead of two passes of 16 256-bit accumulators. Both builds alternated in one C++
// process on the SpMM suite's CI inputs and Kronecker 16 (Zen 5 VM, 30 November 2026): 1.11-1.31x
// at one thread on all seven (bcsstk16, below Eigen before, 1.13-1.17x), at two 0.95-1.24x
// (Kronecker 14 0.95-0.97, the grid 0.97-0.99, the rest 1.0-1.24).
//
// And rows of exactly 512 bytes (FP32 at k = 128, FP64 at k = 64) when X starts on a 64-byte
// boundary (`AlignedX`; dype's own arrays do, src/data/aligned.ts): each row is then 8 whole
// lines, one 512-bit load each. Same harness, X and Y aligned: FP32 k = 128 1.11-1.51x at one
// thread and 1.12-1.45x at two on the seven inputs, FP64 k = 64 1.09-1.47x; on X 16 bytes past a
// line it was 0.96-1.17x (Kronecker 14 the loss), so misaligned X keeps 256-bit vectors.
#if defined(__AVX512F__)
constexpr int kWideVectorBytes = 64;
#else
constexpr int kWideVectorBytes = 32;
#endif
constexpr int kWideRowBytes = 256;
constexpr int kWideStripBytes = 1024;

template <int K, typename T, bool AlignedX>
constexpr int row_vector_bytes() {
  constexpr int bytes = K * static_cast<int>(sizeof(T));
  constexpr bool wide = kWideVectorBytes == 64 && (bytes > kStripBytes || (bytes == kStripBytes && AlignedX));
  return K > 0 && bytes % kWideVectorBytes == 0 && (bytes <= kWideRowBytes || wide) ? kWideVectorBytes : 32;
}

// Whether the choice of vector width depends on X's alignment at this width (spmm.cc then
// instantiates both).
template <int K, typename T>
constexpr bool width_depends_on_alignment() {
  return row_vector_bytes<K, T, true>() != row_vector_bytes<K, T, false>();
}

// Bytes of a row accumulated per pass over its nonzeros: kWideStripBytes where the row is wider
// than kStripBytes and held in 512-bit vectors, else kStripBytes.
template <int K, typename T, bool AlignedX>
constexpr int strip_bytes() {
  return row_vector_bytes<K, T, AlignedX>() == 64 && K * static_cast<int>(sizeof(T)) > kStripBytes ? kWideStripBytes : kStripBytes;
}

template <int K, typename V, typename T, bool AlignedX>
inline int64_t accumulate_row(T* __restrict dst, const int32_t* __restrict cols_of, const V* vals,
                              const T* __restrict x, int64_t p, int64_t stop, uint64_t cols, int64_t k,
                              Prefetch prefetch, int64_t nz_end, int64_t* bad) {
  constexpr int kVectorBytes = row_vector_bytes<K, T, AlignedX>();
  constexpr int kLanes = static_cast<int>(kVectorBytes / sizeof(T));
  if constexpr (K > 0 && K % kLanes == 0) {
    typedef T vec __attribute__((vector_size(kVectorBytes)));
    constexpr int kStrip = std::min<int>(K, strip_bytes<K, T, AlignedX>() / static_cast<int>(sizeof(T)));
    static_assert(K % kStrip == 0 && kStrip % kLanes == 0, "strips must tile the row");
    constexpr int kVectors = kStrip / kLanes;
    constexpr int kRowPrefetchBytes = std::min<int>(K * static_cast<int>(sizeof(T)), kPrefetchRowBytes);
    const int64_t first = p;
    for (int strip = 0; strip < K / kStrip; ++strip) {
      vec acc[kVectors];
#pragma GCC unroll 16
      for (int i = 0; i < kVectors; ++i) acc[i] = vec{};
      for (p = first; p < stop; ++p) {
        if (prefetch != Prefetch::kNone && strip == 0 && p + kPrefetchDistance < nz_end) {
          const uint32_t pc = static_cast<uint32_t>(cols_of[p + kPrefetchDistance]);
          if (pc < cols) {
            const char* line = reinterpret_cast<const char*>(x + static_cast<int64_t>(pc) * K);
            if (prefetch == Prefetch::kWholeRow) {
#pragma GCC unroll 16
              for (int b = 0; b < kRowPrefetchBytes; b += 64) __builtin_prefetch(line + b);
            } else {
              __builtin_prefetch(line);
            }
          }
        }
        const int32_t col = cols_of[p];
        if (static_cast<uint64_t>(static_cast<uint32_t>(col)) >= cols) return (*bad = p), -1;
        const T a = value_at<V, T>(vals, p);
        const T* xr = x + static_cast<int64_t>(col) * K + strip * kStrip;
#pragma GCC unroll 16
        for (int i = 0; i < kVectors; ++i) {
          vec xv;
          std::memcpy(&xv, xr + i * kLanes, sizeof(vec));
          acc[i] += a * xv;
        }
      }
#pragma GCC unroll 16
      for (int i = 0; i < kVectors; ++i) std::memcpy(dst + strip * kStrip + i * kLanes, &acc[i], sizeof(vec));
    }
    return p;
  } else {
    for (int64_t j = 0; j < k; ++j) dst[j] = T(0);
    for (; p < stop; ++p) {
      if (prefetch != Prefetch::kNone && p + kPrefetchDistance < nz_end) {
        const uint32_t pc = static_cast<uint32_t>(cols_of[p + kPrefetchDistance]);
        if (pc < cols) __builtin_prefetch(x + static_cast<int64_t>(pc) * k);
      }
      const int32_t col = cols_of[p];
      if (static_cast<uint64_t>(static_cast<uint32_t>(col)) >= cols) return (*bad = p), -1;
      axpy<K>(dst, x + static_cast<int64_t>(col) * k, value_at<V, T>(vals, p), k);
    }
    return p;
  }
}

}  // namespace spmm_row
}  // namespace dype
