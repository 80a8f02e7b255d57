// Two scans inside a bottom-up BFS step, vectorised where the build has AVX-512: which vertices
// of a 64-vertex word are still to be found, and, where gathers pay (gathers_pay in
// bfs_search.h), the first in-edge in the rest of a long row whose source is in the frontier.
// Included by bfs_steps.h only.
#pragma once

#include <algorithm>
#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace dype {
namespace search {

// Bit i set when vertex 64 * w + i is below n and holds a mark below `skip_from` (an unvisited
// vertex with in-edges to scan). Iterating the set bits replaces a branch per vertex that a
// half-visited word mispredicts about every other vertex.
inline uint64_t unvisited_in_word(const int32_t* depth, int64_t w, int64_t n, int32_t skip_from) {
  const int64_t v0 = w * 64;
  const int64_t count = std::min<int64_t>(64, n - v0);
  uint64_t mask = 0;
#if defined(__AVX512F__)
  const __m512i limit = _mm512_set1_epi32(skip_from);
  for (int64_t q = 0; q * 16 < count; ++q) {
    const int64_t left = count - q * 16;
    const __mmask16 live = left >= 16 ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << left) - 1);
    const __m512i marks = _mm512_maskz_loadu_epi32(live, depth + v0 + q * 16);
    mask |= static_cast<uint64_t>(_mm512_mask_cmplt_epi32_mask(live, marks, limit)) << (16 * q);
  }
#else
  for (int64_t i = 0; i < count; ++i) mask |= static_cast<uint64_t>(depth[v0 + i] < skip_from) << i;
#endif
  return mask;
}

// Edges a bottom-up scan with gathers reads one at a time before handing the rest of a row to
// rest_in_frontier: most vertices of a small-world graph find their parent among the first few
// in-edges, where one edge's load and bit test cost less than a gather.
constexpr int64_t kScalarInEdges = 4;

// The first in-edge of [p, e) whose source is in the frontier bitmap `front` (bit u of the
// 64-bit words), for the rest of a row the scalar head of the scan (bottom_up_words) did not
// settle. Returns its position, with its source in *u; e when there is none; or -(position + 1)
// of a source outside [0, n) met before any hit, where a scalar scan would stop. Where the build
// has AVX-512 the loop checks 16 sources against n in one compare and gathers only the bitmap
// words of those in range (a masked gather reads nothing for the others), so an index, even one
// changed under the search, never reads outside the bitmap. Out of line: inlined into the scan
// it left the hot loop short of registers (it spilled), and a row reaches it only when its first
// few edges found no parent.
__attribute__((noinline)) inline int64_t rest_in_frontier(const int32_t* ci, int64_t p, int64_t e, const uint64_t* front, int64_t n,
                                                         int32_t* u) {
#if defined(__AVX512F__)
  // Shifts and masks through GCC's vector extension (the casts reinterpret the same 512 bits):
  // GCC 12's intrinsics for them warn of an uninitialised operand that is not one.
  typedef uint32_t lanes16 __attribute__((vector_size(64)));
  const __m512i bound = _mm512_set1_epi32(static_cast<int32_t>(std::min<int64_t>(n, INT32_MAX)));
  const __m512i one = _mm512_set1_epi32(1);
  for (; p < e; p += 16) {
    const __mmask16 live = e - p >= 16 ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << (e - p)) - 1);
    const __m512i sources = _mm512_maskz_loadu_epi32(live, ci + p);
    const __mmask16 in_range = _mm512_mask_cmplt_epu32_mask(live, sources, bound);
    // Bit s of the 64-bit words is bit (s & 31) of 32-bit word s >> 5 (little-endian x86).
    const lanes16 s = (lanes16)sources;
    const lanes16 word_index = s >> 5;
    const __m512i words =
        _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), in_range, (__m512i)word_index, front, 4);
    const lanes16 bit = (lanes16)words >> (s & 31);
    const unsigned hit = _mm512_mask_test_epi32_mask(in_range, (__m512i)bit, one);
    const unsigned bad = static_cast<unsigned>(live & ~in_range);
    if ((hit | bad) == 0) continue;
    const int first_hit = hit != 0 ? __builtin_ctz(hit) : 16;
    const int first_bad = bad != 0 ? __builtin_ctz(bad) : 16;
    if (first_bad < first_hit) return -(p + first_bad) - 1;
    // The source from the loaded vector, not a second read of ci that could differ.
    alignas(64) int32_t lanes[16];
    _mm512_store_si512(lanes, sources);
    *u = lanes[first_hit];
    return p + first_hit;
  }
  return e;
#else
  const uint64_t limit = static_cast<uint64_t>(n);
  for (; p < e; ++p) {
    const int32_t s = ci[p];
    if (static_cast<uint64_t>(static_cast<uint32_t>(s)) >= limit) return -p - 1;
    if ((front[s >> 6] >> (s & 63)) & 1u) return (*u = s), p;
  }
  return e;
#endif
}

}  // namespace search
}  // namespace dype
