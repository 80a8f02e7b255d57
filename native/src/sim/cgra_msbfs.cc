// Multi-source BFS on the simulated CGRA, 32 sources per batch: one bit per source in a 32-bit
// word per vertex (the PEs' word), so one traversal of an edge serves every source whose
// frontier holds its tail (Then et al., VLDB 2014, at the width of the array's datapath). Each
// level is one pass of two loops: a push over the active vertices' out-edges, then an update
// over the vertices touched. Sequential in list order, as the array runs it, so deterministic.
#include <algorithm>

#include "cgra.h"
#include "cgra_graph.h"

namespace dype {
namespace cgra {

namespace {

constexpr int64_t kLanes = 32;
// Words of per-vertex state, interleaved so one line holds whole records: seen, visit, next.
constexpr int64_t kRecord = 3;
constexpr int64_t kSeen = 0, kVisit = 1, kNext = 2;

// Push: load the neighbour, its seen and next words; OR the fresh lanes into next and, on the
// first touch this level, append the neighbour to the touched list (the tail is the recurrence).
LoopDfg push_dfg() {
  LoopDfg d;
  d.mem_ops = 5;  // ld colIdx, ld seen, ld next, st next, st touched
  d.alu_ops = 6;  // and-not, or, first-touch test, tail increment, loop increment and exit test
  d.rec_mii = 1;
  d.depth = 5;
  return d;
}
// Update: load a touched vertex, its next and seen words; store seen, visit, and clear next.
LoopDfg update_dfg() {
  LoopDfg d;
  d.mem_ops = 6;
  d.alu_ops = 4;  // and-not, or, popcount for the depth writes, loop
  d.rec_mii = 1;
  d.depth = 4;
  return d;
}
constexpr int64_t kVertexMem = 4;  // ld active[i], two row pointers, ld visit

template <typename P>
Status msbfs_impl(const char* fn, const Params& p, const MsBfsArgs& a, Counters* out) {
  const Csr& g = a.g;
  const int64_t n = g.rows, m = g.nnz;
  Counters& c = *out;
  GraphPlacement gp;
  gp.ptr_bytes = g.wide_row_ptr ? 8 : 4;
  const int64_t graph_bytes = (n + 1) * gp.ptr_bytes + m * 4;
  const int64_t state_bytes = kRecord * n * 4;
  gp.resident = graph_bytes + state_bytes + 2 * n * 4 <= p.spm_bytes;
  const bool state_resident = gp.resident || state_bytes <= p.spm_bytes / 2;
  const SearchRegions regions = place_search(p, gp, n, graph_bytes, state_bytes, 2 * n);
  const int64_t state_base = regions.state_base, list_base = regions.list_base, list_words = regions.list_words;
  const LoopDfg push = push_dfg(), update = update_dfg();
  const int64_t ii_push = push.ii(p), ii_update = update.ii(p);
  BankCounter banks(p.spm_banks);

  Dma setup;
  c.config_cycles = config_cycles(p, ii_push + ii_update, &setup);
  int64_t cycles = c.config_cycles;
  if (gp.resident) {
    Dma load;
    load.add(graph_bytes, 2);
    cycles += load.cycles(p);
    setup.add(load.bytes, load.transactions);
  }
  // Every depth starts at -1: one DMA fill of each source's row in host memory.
  {
    Dma fill;
    fill.add(a.num_sources * n * 4, a.num_sources);
    cycles += fill.cycles(p);
    setup.add(fill.bytes, fill.transactions);
  }
  std::fill(a.depths, a.depths + a.num_sources * n, -1);

  std::vector<uint32_t> state(static_cast<size_t>(kRecord * n));
  std::vector<int32_t> active, touched;
  for (int64_t base = 0; base < a.num_sources; base += kLanes) {
    const int64_t lanes = std::min<int64_t>(kLanes, a.num_sources - base);
    std::fill(state.begin(), state.end(), 0u);
    VertexState st(p, state_resident, state_base);
    if (state_resident) {
      cycles += ceil_div(kRecord * n, p.mem_ports);
      c.pe_mem_ops += kRecord * n;
    } else {
      Dma fill;
      fill.add(state_bytes);
      cycles += fill.cycles(p);
      setup.add(fill.bytes, fill.transactions);
    }
    active.clear();
    for (int64_t l = 0; l < lanes; ++l) {
      const int32_t s = a.sources[base + l];
      if (s < 0 || s >= n) return Status::invalid(std::string(fn) + ": sources[" + std::to_string(base + l) + "] changed during the run");
      if (state[kRecord * s + kVisit] == 0) active.push_back(s);
      state[kRecord * s + kVisit] |= uint32_t(1) << l;
      state[kRecord * s + kSeen] |= uint32_t(1) << l;
      a.depths[(base + l) * n + s] = 0;
      c.pe_mem_ops += 2;
    }
    for (int32_t level = 1; !active.empty(); ++level) {
      Dma stream, miss, scatter;
      int64_t busy = 0, stall = 0, misses = 0, writes = 0;
      if (!gp.resident) stream.add(static_cast<int64_t>(active.size()) * 4);
      touched.clear();
      for (int32_t v : active) {
        int64_t b, e;
        if (!row_of<P>(g, v, b, e)) return bad_row(fn, v);
        busy += ceil_div(kVertexMem, p.mem_ports);
        c.pe_mem_ops += kVertexMem;
        c.alu_ops += 1;
        st.addr(kRecord * v + kVisit, false, miss, misses);
        if (!gp.resident) {
          stream.add(2 * gp.ptr_bytes);
          if (e > b) stream.add((e - b) * 4);
        }
        const uint32_t lanes_v = state[kRecord * v + kVisit];
        for (int64_t q = b; q < e; ++q) {
          const int32_t u = g.col_idx[q];
          if (static_cast<uint64_t>(static_cast<uint32_t>(u)) >= static_cast<uint64_t>(n)) return bad_col(fn, g, q);
          banks.clear();
          banks.word(gp.resident ? gp.col_base + q : gp.col_base + ((q - b) & (gp.edge_buffer_words - 1)));
          banks.word(st.addr(kRecord * u + kSeen, false, miss, misses));
          const int64_t next_addr = st.addr(kRecord * u + kNext, false, miss, misses);
          banks.word(next_addr);
          int64_t mem = 3;
          const uint32_t fresh = lanes_v & ~state[kRecord * u + kSeen];
          if (fresh) {
            uint32_t& next = state[kRecord * u + kNext];
            if (next == 0) {
              banks.word(list_base + (static_cast<int64_t>(touched.size()) & (list_words - 1)));
              touched.push_back(u);
              ++mem;
            }
            next |= fresh;
            banks.word(st.addr(kRecord * u + kNext, true, miss, misses));
            ++mem;
          }
          const int64_t cyc = std::max(ii_push, banks.max());
          busy += cyc;
          stall += cyc - ii_push;
          c.pe_mem_ops += mem;
        }
        c.iterations += e - b;
        c.alu_ops += (e - b) * push.alu_ops;
      }
      // The old frontier's visit words are cleared before the new ones are written.
      for (int32_t v : active) {
        state[kRecord * v + kVisit] = 0;
        st.addr(kRecord * v + kVisit, true, miss, misses);
      }
      busy += ceil_div(static_cast<int64_t>(active.size()), p.mem_ports) + push.depth;
      c.pe_mem_ops += static_cast<int64_t>(active.size());
      active.clear();
      for (size_t i = 0; i < touched.size(); ++i) {
        const int32_t u = touched[i];
        banks.clear();
        banks.word(list_base + (static_cast<int64_t>(i) & (list_words - 1)));
        uint32_t* rec = &state[kRecord * u];
        const uint32_t fresh = rec[kNext] & ~rec[kSeen];
        banks.word(st.addr(kRecord * u + kNext, false, miss, misses));
        banks.word(st.addr(kRecord * u + kSeen, false, miss, misses));
        banks.word(st.addr(kRecord * u + kSeen, true, miss, misses));
        banks.word(st.addr(kRecord * u + kVisit, true, miss, misses));
        banks.word(st.addr(kRecord * u + kNext, true, miss, misses));
        rec[kNext] = 0;
        rec[kSeen] |= fresh;
        rec[kVisit] = fresh;
        // One depth write per newly reached source, posted to the DMA engine from a memory port.
        int64_t bits = 0;
        for (uint32_t rest = fresh; rest; rest &= rest - 1) {
          const int lane = __builtin_ctz(rest);
          a.depths[(base + lane) * n + u] = level;
          ++bits;
        }
        writes += bits;
        if (fresh) active.push_back(u);
        const int64_t port_bound = ceil_div(6 + bits, p.mem_ports);
        const int64_t cyc = std::max({ii_update, banks.max(), port_bound});
        busy += cyc;
        stall += cyc - std::max(ii_update, port_bound);
        c.pe_mem_ops += 6 + bits;
        c.alu_ops += update.alu_ops;
        ++c.iterations;
      }
      busy += update.depth;
      if (!gp.resident) stream.add(static_cast<int64_t>(touched.size()) * 4);
      // Scattered depth writes leave through a write-combining buffer, a line per transaction.
      if (writes > 0) scatter.add(writes * 4, ceil_div(writes * 4, p.line_bytes));
      st.flush(miss);
      const int64_t blocked = busy + miss.cycles(p);
      Dma background = stream;
      background.add(scatter.bytes, scatter.transactions);
      cycles += p.pass_overhead + std::max(blocked, background.cycles(p));
      c.compute_cycles += busy - stall;
      c.bank_stall_cycles += stall;
      c.pass_cycles += p.pass_overhead;
      c.line_misses += misses;
      for (const Dma* d : {&stream, &miss, &scatter}) {
        c.dram_bytes += d->bytes;
        c.dma_transactions += d->transactions;
        c.spm_accesses += d->bytes / 4;
      }
      ++c.passes;
    }
  }
  c.dram_bytes += setup.bytes;
  c.dma_transactions += setup.transactions;
  c.spm_accesses += setup.bytes / 4 + c.pe_mem_ops;
  c.cycles = cycles;
  c.dma_stall_cycles = c.cycles - c.config_cycles - c.compute_cycles - c.bank_stall_cycles - c.pass_cycles;
  c.ii = ii_push;
  c.resident = gp.resident ? 1 : 0;
  finish(p, c);
  return Status{};
}

}  // namespace

Status msbfs(const char* fn, const Params& p, const MsBfsArgs& a, Counters* out) {
  *out = Counters{};
  const Csr& g = a.g;
  if (g.rows != g.cols) return Status::invalid(std::string(fn) + ": the graph must be square");
  if (g.ptr(0) != 0 || g.ptr(g.rows) != g.nnz) return Status::invalid(std::string(fn) + ": rowPtr must start at 0 and end at nnz");
  for (int64_t i = 0; i < a.num_sources; ++i) {
    if (a.sources[i] < 0 || a.sources[i] >= g.rows) {
      return Status::invalid(std::string(fn) + ": sources[" + std::to_string(i) + "] = " + std::to_string(a.sources[i]) +
                             " is outside [0, " + std::to_string(g.rows) + ")");
    }
  }
  // No sources: nothing is launched.
  if (a.num_sources == 0 || g.rows == 0) return Status{};
  return g.wide_row_ptr ? msbfs_impl<int64_t>(fn, p, a, out) : msbfs_impl<int32_t>(fn, p, a, out);
}

}  // namespace cgra
}  // namespace dype
