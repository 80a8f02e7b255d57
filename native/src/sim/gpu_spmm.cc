// gpu-sim SpMM/SpMV trace: both classic decompositions are replayed over the actual rows and
// column indices, each warp's instructions and sectors counted, and the faster one reported.
//
// Lanes of a warp are laid out as p items x s lanes, s = min(32, nextpow2(k)) lanes across the
// k columns of X and p = 32 / s items (nonzeros) side by side. Row-split gives each item a row
// of its own (a sub-warp per row; for SpMV a thread per row), so a warp runs as long as its
// longest row. Nnz-split (merge path) gives each warp an equal share of rows + nonzeros and its
// items are consecutive nonzeros; rows cut by a warp boundary leave carries that a second,
// fix-up kernel adds in.
#include <algorithm>
#include <string>
#include <vector>

#include "../thread_pool.h"
#include "gpu_model.h"

namespace dype {
namespace gpusim {
namespace {

struct Layout {
  int64_t k = 0;
  uint64_t eb = 4;      // bytes per X/Y element
  uint64_t vb = 0;      // bytes per stored value (0 for a pattern matrix)
  uint64_t pb = 4;      // bytes per row pointer
  int s = 32;           // lanes across k
  int p = 1;            // items per warp step
  int64_t chunks = 1;   // passes of s lanes over k
  uint64_t row_bytes = 0;  // k * eb
  bool one_sector = false; // every item's slice lies within one sector (k * eb divides 32)

  Layout(int64_t k_, int elem, const Csr& a) : k(k_), eb(static_cast<uint64_t>(elem)) {
    vb = a.value_type == ValueType::kNone ? 0 : (a.value_type == ValueType::kF32 ? 4 : 8);
    pb = a.wide_row_ptr ? 8 : 4;
    s = 1;
    while (s < k && s < 32) s <<= 1;
    p = 32 / s;
    chunks = (k + s - 1) / s;
    row_bytes = static_cast<uint64_t>(k) * eb;
    one_sector = row_bytes <= 32 && 32 % row_bytes == 0;
  }

  // Sectors of X row c read by one item over all its chunks (p == 1: a whole warp per item).
  // Chunk starts differ by s * eb, a multiple of 32, so every chunk has the same alignment.
  uint64_t slice_sectors(uint64_t c) const {
    const uint64_t base = c * row_bytes;
    const uint64_t o = base & 31;
    const uint64_t full = static_cast<uint64_t>(s) * eb;
    const uint64_t last_bytes = row_bytes - static_cast<uint64_t>(chunks - 1) * full;
    return static_cast<uint64_t>(chunks - 1) * (full / 32 + (o != 0 ? 1 : 0)) + ((o + last_bytes - 1) >> 5) + 1;
  }
  SectorRange slice_range(uint64_t c) const {
    const uint64_t base = c * row_bytes;
    return SectorRange{base >> 5, (base + row_bytes - 1) >> 5};
  }
  // Sectors of A's colIdx and values for entries [b, e).
  uint64_t a_sectors(int64_t b, int64_t e) const {
    const auto ub = static_cast<uint64_t>(b), ue = static_cast<uint64_t>(e);
    return range_sectors(ub * 4, ue * 4) + (vb ? range_sectors(ub * vb, ue * vb) : 0);
  }
};

// The items of one warp step (p > 1), reduced to the distinct sectors they touch. Slices that
// fit a sector are counted as ids, the cheap common case (SpMV, small k).
struct Step {
  const Layout& L;
  SectorRange ranges[32];
  uint64_t ids[32];
  int n = 0;
  explicit Step(const Layout& l) : L(l) {}
  inline void add(uint64_t c) {
    if (L.one_sector) {
      ids[n++] = (c * L.row_bytes) >> 5;
    } else {
      ranges[n++] = L.slice_range(c);
    }
  }
  uint64_t take() {
    const uint64_t v = L.one_sector ? static_cast<uint64_t>(distinct_sectors(ids, n)) : union_sectors(ranges, n);
    n = 0;
    return v;
  }
};

// Reads row bounds and column indices, refusing anything out of range as it goes. The checks
// inline; the messages are built out of line (a call per nonzero was a seventh of the replay).
template <typename P>
struct Reader {
  const Csr& a;
  const P* rp;
  const char* fn;
  Status bad;

  inline bool row(int64_t r, int64_t& b, int64_t& e) {
    b = static_cast<int64_t>(rp[r]);
    e = static_cast<int64_t>(rp[r + 1]);
    if (__builtin_expect(0 <= b && b <= e && e <= a.nnz, 1)) return true;
    return bad_row(r, e);
  }
  inline bool col(int64_t q, uint64_t& c) {
    const int32_t v = a.col_idx[q];
    c = static_cast<uint64_t>(v);
    if (__builtin_expect(v >= 0 && v < a.cols, 1)) return true;
    return bad_col(q, v);
  }
  [[gnu::noinline, gnu::cold]] bool bad_row(int64_t r, int64_t e) {
    bad = Status::invalid(std::string(fn) + ": rowPtr[" + std::to_string(r + 1) + "] = " + std::to_string(e) +
                          " breaks monotonicity or exceeds nnz = " + std::to_string(a.nnz));
    return false;
  }
  [[gnu::noinline, gnu::cold]] bool bad_col(int64_t q, int32_t v) {
    bad = Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(q) + "] = " + std::to_string(v) +
                          " is outside [0, " + std::to_string(a.cols) + ")");
    return false;
  }
};

// Marks the columns a pass touched, for the compulsory (first-touch) X traffic.
struct ColumnSet {
  std::vector<uint64_t> bits;
  explicit ColumnSet(int64_t cols) : bits(static_cast<size_t>((cols + 63) / 64), 0) {}
  void mark(uint64_t c) { bits[c >> 6] |= uint64_t{1} << (c & 63); }
  // Sectors of X covered by the marked rows of X, each `row_bytes` long.
  uint64_t unique_sectors(uint64_t row_bytes) const {
    uint64_t total = 0;
    bool any = false;
    uint64_t prev_last = 0;
    for (size_t w = 0; w < bits.size(); ++w) {
      for (uint64_t m = bits[w]; m != 0; m &= m - 1) {
        const uint64_t c = w * 64 + static_cast<uint64_t>(__builtin_ctzll(m));
        uint64_t first = (c * row_bytes) >> 5;
        const uint64_t last = ((c + 1) * row_bytes - 1) >> 5;
        if (any && first <= prev_last) first = prev_last + 1;
        if (last >= first) total += last - first + 1;
        if (!any || last > prev_last) prev_last = last;
        any = true;
      }
    }
    return total;
  }
};

struct Pass {
  KernelTrace main;
  KernelTrace fixup;
  double x_requested = 0;  // X sector requests, for the reuse estimate
  bool has_fixup = false;
};

constexpr int kLog2[33] = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};

// Row-split: warp g owns rows [rb + g p, rb + (g + 1) p), one item per row.
template <typename P>
bool row_split(Reader<P>& rd, const Layout& L, int64_t rb, int64_t re, const GpuParams& gp, ColumnSet& cols, Pass& out) {
  int64_t starts[32], lens[32];
  int order[32];
  Step step(L);
  const double per_step = 4.0 + 2.0 * static_cast<double>(L.chunks);
  for (int64_t r0 = rb; r0 < re; r0 += L.p) {
    const int64_t r1 = std::min<int64_t>(r0 + L.p, re);
    const int n = static_cast<int>(r1 - r0);
    uint64_t sectors = range_sectors(static_cast<uint64_t>(r0) * L.pb, static_cast<uint64_t>(r1 + 1) * L.pb) +
                       range_sectors(static_cast<uint64_t>(r0 - rb) * L.row_bytes, static_cast<uint64_t>(r1 - rb) * L.row_bytes);
    int64_t longest = 0;
    for (int i = 0; i < n; ++i) {
      int64_t b, e;
      if (!rd.row(r0 + i, b, e)) return false;
      starts[i] = b;
      lens[i] = e - b;
      order[i] = i;
      longest = std::max(longest, e - b);
      sectors += L.a_sectors(b, e);
    }
    uint64_t xs = 0;
    if (L.p == 1) {
      for (int64_t q = starts[0], e = starts[0] + lens[0]; q < e; ++q) {
        uint64_t c;
        if (!rd.col(q, c)) return false;
        cols.mark(c);
        xs += L.slice_sectors(c);
      }
    } else {
      // Items drop out as their rows end: order rows longest first and shrink the active prefix.
      std::sort(order, order + n, [&](int x, int y) { return lens[x] > lens[y] || (lens[x] == lens[y] && x < y); });
      int active = n;
      for (int64_t j = 0; j < longest; ++j) {
        while (active > 0 && lens[order[active - 1]] <= j) --active;
        for (int t = 0; t < active; ++t) {
          const int i = order[t];
          uint64_t c;
          if (!rd.col(starts[i] + j, c)) return false;
          cols.mark(c);
          step.add(c);
        }
        xs += step.take();
      }
    }
    out.x_requested += static_cast<double>(xs);
    out.main.add_warp(8.0 + static_cast<double>(longest) * per_step, static_cast<double>(sectors + xs), gp);
  }
  return true;
}

// Nnz-split: merge path over rows + nonzeros in segments of 8 p items per warp.
template <typename P>
bool nnz_split(Reader<P>& rd, const Layout& L, int64_t rb, int64_t re, const GpuParams& gp, Pass& out) {
  const int64_t seg = 8 * static_cast<int64_t>(L.p);
  const double per_step = 4.0 + 2.0 * static_cast<double>(L.chunks) + (L.p > 1 ? 2.0 * kLog2[L.p] : 0.0);
  Step step(L);
  int64_t item = 0, steps = 0, rows_done = 0, first_row = rb, q0 = -1, q1 = -1;
  uint64_t xs = 0;
  double carries = 0;
  auto flush = [&]() {
    if (step.n > 0) {
      xs += step.take();
      ++steps;
    }
  };
  // Ends the current warp after row `last_row`; the next warp starts at `next_row` (the same row
  // when the boundary cuts it, which leaves a carry for the fix-up kernel).
  auto close = [&](int64_t last_row, int64_t next_row, bool carry) {
    flush();
    uint64_t sectors = xs;
    if (q1 > q0) sectors += L.a_sectors(q0, q1);
    sectors += range_sectors(static_cast<uint64_t>(first_row) * L.pb, static_cast<uint64_t>(last_row + 2) * L.pb);
    sectors += static_cast<uint64_t>(rows_done) * range_sectors(0, L.row_bytes);
    if (carry) {
      carries += 1;
      sectors += range_sectors(0, L.row_bytes);
    }
    out.x_requested += static_cast<double>(xs);
    const double instr =
        20.0 + static_cast<double>(steps) * per_step + static_cast<double>(rows_done) * (2.0 + static_cast<double>(L.chunks));
    out.main.add_warp(instr, static_cast<double>(sectors), gp);
    item = steps = rows_done = 0;
    xs = 0;
    q0 = q1 = -1;
    first_row = next_row;
  };
  for (int64_t r = rb; r < re; ++r) {
    int64_t b, e;
    if (!rd.row(r, b, e)) return false;
    for (int64_t q = b; q < e; ++q) {
      uint64_t c;
      if (!rd.col(q, c)) return false;
      if (q0 < 0) q0 = q;
      q1 = q + 1;
      if (L.p == 1) {
        xs += L.slice_sectors(c);
        ++steps;
      } else {
        step.add(c);
        if (step.n == L.p) flush();
      }
      if (++item == seg) close(r, r, q + 1 < e);
    }
    ++rows_done;
    if (++item == seg) close(r, r + 1, false);
  }
  if (item > 0) close(re - 1, re, false);
  // The fix-up kernel: one warp step per carried row adds the partial sum into Y.
  if (out.main.warps > 1) {
    out.has_fixup = true;
    const double per_carry_sectors = 3.0 * static_cast<double>(range_sectors(0, L.row_bytes));
    // Every carry costs the same: one warp step per carried row, so the totals are closed-form.
    const double per_carry_instr = 6.0 + 2.0 * static_cast<double>(L.chunks);
    out.fixup.add_warp(per_carry_instr, per_carry_sectors, gp);
    out.fixup.warps = std::max(1.0, carries);
    out.fixup.instructions = out.fixup.warps * per_carry_instr;
    out.fixup.l2_sectors = carries * per_carry_sectors;
    out.fixup.dram_bytes = carries * 3.0 * static_cast<double>(L.row_bytes);
  }
  return true;
}

template <typename P>
Status model_typed(const char* fn, const Csr& a, int64_t rb, int64_t re, int64_t k, int elem, const GpuParams& gp, SpmmModel* m) {
  const Layout L(k, elem, a);
  Reader<P> rd{a, static_cast<const P*>(a.row_ptr), fn, Status{}};
  Reader<P> rd2 = rd;
  ColumnSet cols(a.cols);
  Pass rs, ns;
  // The two replays are independent: one each on two of the pool's threads.
  bool ok[2] = {true, true};
  ThreadPool::instance().parallel_for(2, [&](int64_t v) {
    ok[v] = v == 0 ? row_split(rd, L, rb, re, gp, cols, rs) : nnz_split(rd2, L, rb, re, gp, ns);
  });
  if (!ok[0]) return rd.bad;
  if (!ok[1]) return rd2.bad;
  int64_t b0, e0, b1, e1;
  if (!rd.row(rb, b0, e0) || !rd.row(re - 1, b1, e1)) return rd.bad;
  const double nnz = static_cast<double>(e1 - b0);
  const double unique_x = static_cast<double>(cols.unique_sectors(L.row_bytes));
  const double x_footprint = unique_x * 32.0;
  const double streamed = static_cast<double>(re - rb + 1) * static_cast<double>(L.pb) + nnz * static_cast<double>(4 + L.vb) +
                          static_cast<double>(re - rb) * static_cast<double>(L.row_bytes);
  const double flops = (L.vb ? 2.0 : 1.0) * nnz * static_cast<double>(k);
  const bool fp64 = elem == 8;
  double seconds[2];
  RunReport reports[2];
  double tails[2], bws[2];
  Pass* passes[2] = {&rs, &ns};
  for (int v = 0; v < 2; ++v) {
    Pass& ps = *passes[v];
    ps.main.dram_bytes = streamed + dram_bytes_for_reuse(unique_x, ps.x_requested, x_footprint, gp);
    ps.main.flops = flops;
    const KernelCost c = kernel_cost(ps.main, gp, fp64);
    reports[v].add(ps.main, c);
    tails[v] = c.tail_s;
    bws[v] = c.achieved_bandwidth;
    if (ps.has_fixup) {
      const KernelCost f = kernel_cost(ps.fixup, gp, fp64);
      reports[v].add(ps.fixup, f);
    }
    seconds[v] = reports[v].seconds;
  }
  m->row_split_s = seconds[0];
  m->nnz_split_s = seconds[1];
  // Ties go to row-split: one launch, no carries.
  m->variant = seconds[1] < seconds[0] ? 1 : 0;
  m->run = reports[m->variant];
  m->longest_warp_s = tails[m->variant];
  m->achieved_bandwidth = bws[m->variant];
  m->run.finish_energy(gp);
  return Status{};
}

}  // namespace

Status model_spmm(const char* fn, const Csr& a, int64_t row_begin, int64_t row_end, int64_t k, int elem_bytes,
                  const GpuParams& p, SpmmModel* out) {
  *out = SpmmModel{};
  if (row_begin < 0 || row_end < row_begin || row_end > a.rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(row_begin) + ", " + std::to_string(row_end) +
                           ") is not within [0, " + std::to_string(a.rows) + "]");
  }
  if (elem_bytes != 4 && elem_bytes != 8) return Status::invalid(std::string(fn) + ": element size must be 4 or 8 bytes");
  // Nothing to compute: the library returns without launching anything.
  if (row_end == row_begin || k <= 0) return Status{};
  return a.wide_row_ptr ? model_typed<int64_t>(fn, a, row_begin, row_end, k, elem_bytes, p, out)
                        : model_typed<int32_t>(fn, a, row_begin, row_end, k, elem_bytes, p, out);
}

}  // namespace gpusim
}  // namespace dype
