// SpMM (and SpMV, k = 1) on the simulated CGRA. The kernel is a row loop over CSR with an inner
// loop over a row's nonzeros, modulo-scheduled with u nonzeros and w columns of X per iteration;
// the driver picks (u, w) among precompiled configurations from the row-length profile. Rows are
// cut into tiles that fit the scratchpad with double-buffered DMA; X is either resident or
// gathered through a direct-mapped line buffer flushed per tile, so every tile is independent
// and the totals do not depend on the thread count.
#include <algorithm>
#include <atomic>
#include <type_traits>

#include "cgra.h"
#include "thread_pool.h"

namespace dype {
namespace cgra {

namespace {

struct Pattern {};

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// acc += a * x_row over k lanes: one definition for the simulation and for a result computed
// without it, so both give the same bits.
template <typename T>
inline void add_scaled(T* __restrict acc, T a, const T* __restrict xr, int64_t k) {
  for (int64_t j = 0; j < k; ++j) acc[j] += a * xr[j];
}

// Words of one element: X/Y elements (xw) and A values (vw, 0 for a pattern matrix).
struct Shape {
  int64_t k = 0, xw = 1, vw = 1, fslots = 1;
};

// The inner loop's dataflow graph for u nonzeros x w lanes per iteration.
LoopDfg spmm_dfg(const Params& p, const Shape& sh, int64_t u, int64_t w) {
  LoopDfg d;
  // Per nonzero: load colIdx[p], load A's value (vw words), gather w elements of X (xw words each).
  d.mem_ops = u * (1 + sh.vw) + u * w * sh.xw;
  // Per nonzero: X row address col * stride + strip offset (a shift/multiply and an add);
  // per lane and nonzero one multiply-add (fslots issue slots); loop increment and exit test.
  d.alu_ops = 2 * u + u * w * sh.fslots + 2;
  // Each lane's accumulator is the one loop-carried value; u multiply-adds chain into it.
  d.rec_mii = u * p.fp_latency;
  // load col -> address -> load x -> u multiply-adds -> (store at the row switch)
  d.depth = 3 + u * p.fp_latency + 1;
  return d;
}

// Cycles of a row switch per strip: store w lanes of Y and load the next row pointer, on the
// memory ports; the loop nest is flattened, so the pipeline does not drain between rows.
int64_t row_switch_mem(const Shape& sh, int64_t w) { return w * sh.xw + 1; }

struct Choice {
  int64_t u = 1, w = 1, ii = 1;
  LoopDfg dfg;
};

// Pick the configuration that minimises the estimated issue cycles (bank conflicts and DMA are
// not known before running, as for a compiler). iters[i] = sum over rows of ceil(len / (1 << i)).
Choice choose(const Params& p, const Shape& sh, int64_t rows, const int64_t iters[3]) {
  Choice best;
  int64_t best_cycles = -1;
  std::vector<int64_t> widths;
  for (int64_t w = 1; w <= std::min<int64_t>(sh.k, 64); w *= 2) widths.push_back(w);
  if (sh.k <= 64 && (sh.k & (sh.k - 1)) != 0) widths.push_back(sh.k);
  for (int ui = 0; ui < 3; ++ui) {
    const int64_t u = int64_t(1) << ui;
    for (int64_t w : widths) {
      const LoopDfg d = spmm_dfg(p, sh, u, w);
      const int64_t ii = d.ii(p);
      const int64_t strips = ceil_div(sh.k, w);
      const int64_t est = strips * (iters[ui] * ii + rows * ceil_div(row_switch_mem(sh, w), p.mem_ports));
      if (best_cycles < 0 || est < best_cycles) {
        best_cycles = est;
        best = Choice{u, w, ii, d};
      }
    }
  }
  return best;
}

struct Tile {
  int64_t r0 = 0, r1 = 0;
  int64_t chunks = 1;  // > 1 for a single row too large for one buffer, streamed in pieces
};

// Per-tile timing, combined serially afterwards into the double-buffered pipeline.
struct TileTime {
  int64_t busy = 0;   // compute + bank stalls + blocking X-line misses
  int64_t in = 0;     // DMA cycles of the tile's inputs
  int64_t out = 0;    // DMA cycles of the tile's Y write-back
};

struct Layout {
  bool x_resident = true;
  int64_t x_base = 0;         // word address of X (resident) or of its line buffer
  int64_t x_region = 0;       // bytes
  int64_t tile_budget = 0;    // bytes of one of the two tile buffers
};

template <typename P, typename V, typename T>
class SpmmSim {
 public:
  SpmmSim(const char* fn, const Params& p, const SpmmArgs& s, const Shape& sh)
      : fn_(fn), p_(p), s_(s), sh_(sh), rp_(static_cast<const P*>(s.a.row_ptr)) {}

  Status run(Counters* out) {
    if (!s_.timing) return values_only();
    const int64_t rows = s_.row_end - s_.row_begin;
    const int64_t x_bytes = s_.a.cols * sh_.k * sh_.xw * 4;
    lay_.x_resident = x_bytes <= p_.spm_bytes / 2;
    lay_.x_region = lay_.x_resident ? x_bytes : (p_.spm_bytes / 2) / p_.line_bytes * p_.line_bytes;
    lay_.x_base = region_base(p_, 0, 0);
    lay_.tile_budget = std::max<int64_t>(64, (p_.spm_bytes - lay_.x_region) / 2);

    int64_t iters[3] = {0, 0, 0};
    build_tiles(iters);
    ch_ = choose(p_, sh_, rows, iters);

    std::vector<TileTime> times(tiles_.size());
    const int64_t nt = static_cast<int64_t>(tiles_.size());
    ThreadPool& pool = ThreadPool::instance();
    const int64_t chunks = s_.a.nnz * sh_.k < (1 << 16) ? 1 : std::min<int64_t>(nt, pool.participants() * 8);
    std::vector<Counters> parts(static_cast<size_t>(std::max<int64_t>(chunks, 1)));
    pool.parallel_for(chunks, [&](int64_t c) {
      BankCounter banks(p_.spm_banks);
      LineBuffer xbuf(lay_.x_base, lay_.x_region, p_.line_bytes);
      std::vector<T> acc(static_cast<size_t>(sh_.k));
      for (int64_t t = nt * c / chunks, end = nt * (c + 1) / chunks; t < end; ++t) {
        if (bad_.load(std::memory_order_relaxed) >= 0) return;
        run_tile(t, times[t], parts[c], banks, xbuf, acc);
      }
    });
    if (bad_.load() >= 0) return bad_status();

    Counters& c = *out;
    for (const Counters& part : parts) c.add(part);
    Dma setup;
    c.config_cycles = config_cycles(p_, ch_.ii, &setup);
    int64_t prologue = 0;
    if (lay_.x_resident && x_bytes > 0) {
      Dma x;
      x.add(x_bytes);
      setup.add(x.bytes, x.transactions);
      prologue += x.cycles(p_);
    }
    c.dram_bytes += setup.bytes;
    c.dma_transactions += setup.transactions;
    c.spm_accesses += setup.bytes / 4;
    // Double buffering: while tile t computes, tile t + 1 streams in and tile t - 1 streams out.
    int64_t pipeline = nt > 0 ? times[0].in + times[nt - 1].out : 0;
    for (int64_t t = 0; t < nt; ++t) {
      const int64_t dma = (t + 1 < nt ? times[t + 1].in : 0) + (t > 0 ? times[t - 1].out : 0);
      pipeline += std::max(times[t].busy, dma);
    }
    c.cycles = c.config_cycles + prologue + pipeline;
    c.dma_stall_cycles = c.cycles - c.config_cycles - c.compute_cycles - c.bank_stall_cycles;
    c.ii = ch_.ii;
    c.unroll_lanes = ch_.w;
    c.unroll_nonzeros = ch_.u;
    c.tiles = nt;
    c.resident = lay_.x_resident && nt <= 1 ? 1 : 0;
    finish(p_, c);
    return Status{};
  }

 private:
  int64_t ptr(int64_t r) const { return static_cast<int64_t>(rp_[r]); }

  // Greedy row blocks whose A slice, row pointers and Y rows fit one tile buffer; also sums
  // ceil(len / u) for the configuration choice in the same pass.
  void build_tiles(int64_t iters[3]) {
    const int64_t per_nz = 4 + 4 * sh_.vw;
    const int64_t per_row = 4 + sh_.k * sh_.xw * 4;
    const int64_t budget = lay_.tile_budget;
    int64_t r0 = s_.row_begin, bytes = 4;
    for (int64_t r = s_.row_begin; r < s_.row_end; ++r) {
      const int64_t len = ptr(r + 1) - ptr(r);
      iters[0] += len;
      iters[1] += (len + 1) / 2;
      iters[2] += (len + 3) / 4;
      const int64_t rb = per_row + len * per_nz;
      if (r > r0 && bytes + rb > budget) {
        tiles_.push_back(Tile{r0, r, 1});
        r0 = r;
        bytes = 4;
      }
      bytes += rb;
      if (bytes > budget) {  // one row alone overflows a buffer: stream it in pieces
        tiles_.push_back(Tile{r0, r + 1, ceil_div(bytes, budget)});
        r0 = r + 1;
        bytes = 4;
      }
    }
    if (r0 < s_.row_end) tiles_.push_back(Tile{r0, s_.row_end, 1});
  }

  void run_tile(int64_t t, TileTime& time, Counters& c, BankCounter& banks, LineBuffer& xbuf, std::vector<T>& acc) {
    const Tile& tile = tiles_[t];
    const int64_t k = sh_.k, xw = sh_.xw, vw = sh_.vw, u = ch_.u, w = ch_.w, ii = ch_.ii;
    const int64_t strips = ceil_div(k, w);
    const int64_t p0 = ptr(tile.r0), p1 = ptr(tile.r1), rows = tile.r1 - tile.r0;
    const int64_t nnz = p1 - p0;
    // The tile buffer this tile lands in (alternating), and its arrays' staggered bases.
    const int64_t buf = lay_.x_region + (t & 1) * lay_.tile_budget;
    const int64_t cap_nz = std::max<int64_t>(1, lay_.tile_budget / (4 + 4 * vw) / tile.chunks);
    const int64_t col_base = region_base(p_, buf, 1);
    const int64_t val_base = region_base(p_, buf + std::min(nnz, cap_nz) * 4, 2);
    const uint64_t cols = static_cast<uint64_t>(s_.a.cols);
    const T* x = static_cast<const T*>(s_.x);
    T* y = static_cast<T*>(s_.y);
    const V* vals = static_cast<const V*>(s_.a.values);
    const int32_t* ci = s_.a.col_idx;
    const int64_t row_words = k * xw;

    Dma miss;
    int64_t misses = 0, busy = 0, stall = 0, mem = 0, iterations = 0;
    // The scratchpad accesses of nonzero q in strip s, added to this iteration's bank counts.
    auto access = [&](int64_t q, int64_t col, int64_t s, int64_t lanes) {
      int64_t off = q - p0;
      if (off >= cap_nz) off %= cap_nz;  // only in a row streamed in pieces
      banks.word(col_base + off);
      if (vw > 0) banks.run(val_base + off * vw, vw);
      const int64_t xa = col * row_words + s * w * xw;
      if (lay_.x_resident) {
        banks.run(lay_.x_base + xa, lanes * xw);
      } else {
        // The gather may straddle lines: each piece is served by its own line.
        int64_t at = xa, left = lanes * xw;
        while (left > 0) {
          const int64_t in_line = std::min(left, xbuf.left_in_line(at));
          banks.run(xbuf.access(at, false, miss, misses), in_line);
          at += in_line;
          left -= in_line;
        }
      }
      mem += 1 + vw + lanes * xw;
    };
    // One modulo-scheduled iteration ends: it takes II cycles, more if a bank is oversubscribed.
    auto close = [&]() {
      const int64_t cyc = std::max(ii, banks.max());
      busy += cyc;
      stall += cyc - ii;
      ++iterations;
      banks.clear();
    };
    auto row_switch = [&](int64_t lanes) {
      busy += ceil_div(lanes * xw + 1, p_.mem_ports);  // store the strip of Y, load the next row pointer
      mem += lanes * xw + 1;
    };
    banks.clear();
    for (int64_t r = tile.r0; r < tile.r1; ++r) {
      const int64_t b = ptr(r), e = ptr(r + 1);
      // The real result, in the order the CGRA accumulates it (nonzero order per lane), fused
      // with the timing of the first strip so each nonzero is read once.
      const int64_t lanes0 = std::min(w, k);
      std::fill(acc.begin(), acc.end(), T(0));
      int64_t in_group = 0;
      for (int64_t q = b; q < e; ++q) {
        // The gathers of X miss the host's caches once X outgrows them; fetch a few ahead.
        if (q + 8 < p1) {
          const uint32_t ahead = static_cast<uint32_t>(ci[q + 8]);
          if (ahead < cols) __builtin_prefetch(x + static_cast<int64_t>(ahead) * k);
        }
        const int32_t col = ci[q];
        if (static_cast<uint64_t>(static_cast<uint32_t>(col)) >= cols) return record_bad(q);
        T a;
        if constexpr (std::is_same_v<V, Pattern>) a = T(1); else a = static_cast<T>(vals[q]);
        add_scaled(acc.data(), a, x + static_cast<int64_t>(col) * k, k);
        access(q, col, 0, lanes0);
        if (++in_group == u || q + 1 == e) {
          close();
          in_group = 0;
        }
      }
      std::copy(acc.begin(), acc.end(), y + (r - s_.row_begin) * k);
      row_switch(lanes0);
      // The remaining strips of w lanes re-read the row's nonzeros.
      for (int64_t s = 1; s < strips; ++s) {
        const int64_t lanes = std::min(w, k - s * w);
        for (int64_t g = b; g < e; g += u) {
          for (int64_t q = g, g_end = std::min(e, g + u); q < g_end; ++q) access(q, ci[q], s, lanes);
          close();
        }
        row_switch(lanes);
      }
    }
    if (!lay_.x_resident) xbuf.flush(miss);  // X is read-only: nothing dirty, only the reset
    busy += ch_.dfg.depth;  // one pipeline fill per tile: the row loop is flattened

    Dma in, wb;
    const int64_t in_streams = 2 + (vw > 0 ? 1 : 0);
    in.add((rows + 1) * 4 + nnz * (4 + 4 * vw), in_streams * tile.chunks);
    wb.add(rows * k * xw * 4, tile.chunks);
    const int64_t miss_cycles = miss.cycles(p_);
    time.busy = busy + miss_cycles;
    time.in = in.cycles(p_);
    time.out = wb.cycles(p_);

    c.compute_cycles += busy - stall;
    c.bank_stall_cycles += stall;
    c.iterations += iterations;
    c.alu_ops += iterations * ch_.dfg.alu_ops + rows * strips;
    c.pe_mem_ops += mem;
    const int64_t dram = in.bytes + wb.bytes + miss.bytes;
    c.dram_bytes += dram;
    c.dma_transactions += in.transactions + wb.transactions + miss.transactions;
    c.spm_accesses += mem + dram / 4;
    c.line_misses += misses;
  }

  // The result alone, row by row in nonzero order as run_tile accumulates it.
  Status values_only() {
    const int64_t rows = s_.row_end - s_.row_begin, k = sh_.k;
    const uint64_t cols = static_cast<uint64_t>(s_.a.cols);
    const T* x = static_cast<const T*>(s_.x);
    T* y = static_cast<T*>(s_.y);
    const V* vals = static_cast<const V*>(s_.a.values);
    const int32_t* ci = s_.a.col_idx;
    ThreadPool& pool = ThreadPool::instance();
    const int64_t chunks = s_.a.nnz * k < (1 << 16) ? 1 : std::min<int64_t>(rows, pool.participants() * 8);
    pool.parallel_for(chunks, [&](int64_t c) {
      std::vector<T> acc(static_cast<size_t>(k));
      for (int64_t r = s_.row_begin + rows * c / chunks, end = s_.row_begin + rows * (c + 1) / chunks; r < end; ++r) {
        std::fill(acc.begin(), acc.end(), T(0));
        for (int64_t q = ptr(r), e = ptr(r + 1); q < e; ++q) {
          const int32_t col = ci[q];
          if (static_cast<uint64_t>(static_cast<uint32_t>(col)) >= cols) return record_bad(q);
          T a;
          if constexpr (std::is_same_v<V, Pattern>) a = T(1); else a = static_cast<T>(vals[q]);
          add_scaled(acc.data(), a, x + static_cast<int64_t>(col) * k, k);
        }
        std::copy(acc.begin(), acc.end(), y + (r - s_.row_begin) * k);
      }
    });
    return bad_status();
  }

  Status bad_status() const {
    const int64_t at = bad_.load();
    if (at < 0) return Status{};
    return Status::invalid(std::string(fn_) + ": colIdx[" + std::to_string(at) + "] = " + std::to_string(s_.a.col_idx[at]) +
                           " is outside [0, " + std::to_string(s_.a.cols) + ")");
  }

  void record_bad(int64_t q) {
    // Keep the smallest position so the message does not depend on thread timing.
    int64_t cur = bad_.load();
    while ((cur < 0 || q < cur) && !bad_.compare_exchange_weak(cur, q)) {
    }
  }

  const char* fn_;
  const Params& p_;
  const SpmmArgs& s_;
  Shape sh_;
  const P* rp_;
  Layout lay_;
  Choice ch_;
  std::vector<Tile> tiles_;
  std::atomic<int64_t> bad_{-1};
};

template <typename P, typename T>
Status dispatch_values(const char* fn, const Params& p, const SpmmArgs& s, const Shape& sh, Counters* c) {
  switch (s.a.value_type) {
    case ValueType::kF32: return SpmmSim<P, float, T>(fn, p, s, sh).run(c);
    case ValueType::kF64: return SpmmSim<P, double, T>(fn, p, s, sh).run(c);
    default: return SpmmSim<P, Pattern, T>(fn, p, s, sh).run(c);
  }
}

template <typename P>
Status dispatch_dense(const char* fn, const Params& p, const SpmmArgs& s, const Shape& sh, Counters* c) {
  return s.f64 ? dispatch_values<P, double>(fn, p, s, sh, c) : dispatch_values<P, float>(fn, p, s, sh, c);
}

}  // namespace

Status spmm(const char* fn, const Params& p, const SpmmArgs& s, Counters* out) {
  *out = Counters{};
  if (s.row_begin < 0 || s.row_end < s.row_begin || s.row_end > s.a.rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(s.row_begin) + ", " + std::to_string(s.row_end) +
                           ") is outside [0, " + std::to_string(s.a.rows) + "]");
  }
  Status st = check_row_ptr(fn, s.a, s.row_begin, s.row_end);
  if (!st.ok) return st;
  // Nothing to launch: no configuration is loaded and no cycle passes.
  if (s.row_end == s.row_begin || s.k == 0) return Status{};
  Shape sh;
  sh.k = s.k;
  sh.xw = s.f64 ? 2 : 1;
  sh.vw = s.a.value_type == ValueType::kNone ? 0 : (s.a.value_type == ValueType::kF64 ? 2 : 1);
  sh.fslots = s.f64 ? p.fp64_op_slots : 1;
  return s.a.wide_row_ptr ? dispatch_dense<int64_t>(fn, p, s, sh, out) : dispatch_dense<int32_t>(fn, p, s, sh, out);
}

}  // namespace cgra
}  // namespace dype
