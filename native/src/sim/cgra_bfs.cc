// BFS and bit-parallel multi-source BFS on the simulated CGRA: level-synchronous top-down passes,
// one launch of the pass loop per level, each pass paying its own start-up overhead. The search
// runs sequentially in queue order, as the array would, so the counters are deterministic.
#include <algorithm>

#include "cgra.h"
#include "cgra_graph.h"

namespace dype {
namespace cgra {

namespace {


// The top-down edge loop: load the neighbour, load its depth, and when unvisited store its depth
// and append it to the next queue (the tail increment is the loop-carried recurrence).
LoopDfg bfs_edge_dfg() {
  LoopDfg d;
  d.mem_ops = 4;     // ld colIdx, ld depth, st depth, st queue
  d.alu_ops = 4;     // unvisited test, tail increment, loop increment and exit test
  d.rec_mii = 1;
  d.depth = 4;
  return d;
}
// Per frontier vertex: load it from the queue and load its two row pointers.
constexpr int64_t kVertexMem = 3;

template <typename P>
Status bfs_impl(const char* fn, const Params& p, const BfsArgs& a, std::vector<int64_t>* frontier, Counters* out) {
  const Csr& g = a.g;
  const int64_t n = g.rows, m = g.nnz;
  Counters& c = *out;
  GraphPlacement gp;
  gp.ptr_bytes = g.wide_row_ptr ? 8 : 4;
  const int64_t graph_bytes = (n + 1) * gp.ptr_bytes + m * 4;
  gp.resident = graph_bytes + 2 * n * 4 <= p.spm_bytes;
  const bool depth_resident = gp.resident || n * 4 <= p.spm_bytes / 2;
  // Resident: [rowPtr | colIdx | depth | queue]. Streamed: [depth or its lines | edge buffers | queue buffers].
  const SearchRegions regions = place_search(p, gp, n, graph_bytes, n * 4, n);
  const int64_t depth_base = regions.state_base, queue_base = regions.list_base, queue_words = regions.list_words;
  VertexState depth_state(p, depth_resident, depth_base);
  const LoopDfg dfg = bfs_edge_dfg();
  const int64_t ii = dfg.ii(p);
  BankCounter banks(p.spm_banks);

  Dma setup;
  c.config_cycles = config_cycles(p, ii, &setup);
  int64_t prologue = 0;
  if (gp.resident) {
    Dma load;
    load.add(graph_bytes, 2);
    prologue += load.cycles(p);
    setup.add(load.bytes, load.transactions);
  }
  std::vector<int32_t> queue(static_cast<size_t>(n));
  int64_t qb = 0, qe = 1, tail = 1;
  int64_t level = 0;
  int64_t passes_cycles = 0;
  if (a.start_level < 0) {
    // Every depth starts at -1: PE stores into a resident array, a DMA fill of the one in DRAM.
    if (depth_resident) {
      prologue += ceil_div(n, p.mem_ports);
      c.pe_mem_ops += n;
    } else {
      Dma fill;
      fill.add(n * 4);
      prologue += fill.cycles(p);
      setup.add(fill.bytes, fill.transactions);
    }
    std::fill(a.depth, a.depth + n, -1);
    queue[0] = static_cast<int32_t>(a.source);
    a.depth[a.source] = 0;
  } else {
    // Resuming from the depths in host memory: a resident array is loaded by DMA instead of
    // filled; then one scan pass (its own pass overhead) loads every depth, compares it with the
    // level and appends the frontier's vertices to the queue. A depth array that stays in DRAM is
    // streamed through the scan, and a streamed queue goes out to DRAM.
    level = a.start_level;
    if (depth_resident) {
      Dma load;
      load.add(n * 4);
      prologue += load.cycles(p);
      setup.add(load.bytes, load.transactions);
    }
    qe = 0;
    for (int64_t v = 0; v < n; ++v) {
      if (a.depth[v] == level) queue[qe++] = static_cast<int32_t>(v);
    }
    tail = qe;
    Dma scan;
    if (!depth_resident) scan.add(n * 4);
    if (!gp.resident && qe > 0) scan.add(qe * 4);
    const int64_t scan_busy = ceil_div(n + qe, p.mem_ports);
    c.pe_mem_ops += n + qe;
    c.alu_ops += n;
    c.compute_cycles += scan_busy;
    c.pass_cycles += p.pass_overhead;
    c.dram_bytes += scan.bytes;
    c.dma_transactions += scan.transactions;
    c.spm_accesses += scan.bytes / 4;
    prologue += p.pass_overhead + std::max(scan_busy, scan.cycles(p));
  }
  frontier->assign(1, qe);
  const int64_t first_level = level;
  for (; qe > qb && (a.max_levels == 0 || level - first_level < a.max_levels); ++level) {
    // Depths are int32: refuse a (resumed) search that would go deeper than they can hold.
    if (level >= INT32_MAX) return Status::invalid(std::string(fn) + ": depth " + std::to_string(level + 1) + " overflows int32");
    Dma stream, miss;
    int64_t busy = 0, stall = 0, misses = 0;
    if (!gp.resident) stream.add((qe - qb) * 4);  // the frontier queue in
    for (int64_t i = qb; i < qe; ++i) {
      const int32_t u = queue[i];
      int64_t b, e;
      if (!row_of<P>(g, u, b, e)) return bad_row(fn, u);
      busy += ceil_div(kVertexMem, p.mem_ports);
      c.pe_mem_ops += kVertexMem;
      c.alu_ops += 1;
      if (!gp.resident) {
        stream.add(2 * gp.ptr_bytes);
        if (e > b) stream.add((e - b) * 4);
      }
      for (int64_t q = b; q < e; ++q) {
        const int32_t v = g.col_idx[q];
        if (static_cast<uint64_t>(static_cast<uint32_t>(v)) >= static_cast<uint64_t>(n)) return bad_col(fn, g, q);
        banks.clear();
        banks.word(gp.resident ? gp.col_base + q : gp.col_base + ((q - b) & (gp.edge_buffer_words - 1)));
        const int64_t d_addr = depth_state.addr(v, false, miss, misses);
        banks.word(d_addr);
        int64_t mem = 2;
        if (a.depth[v] < 0) {
          // Each vertex enters the queue once; only depths changed under the search could break that.
          if (tail >= n) return Status::invalid(std::string(fn) + ": depth was changed during the search");
          a.depth[v] = static_cast<int32_t>(level + 1);
          banks.word(depth_state.addr(v, true, miss, misses));
          banks.word(queue_base + (tail & (queue_words - 1)));
          queue[tail++] = v;
          mem += 2;
        }
        const int64_t cyc = std::max(ii, banks.max());
        busy += cyc;
        stall += cyc - ii;
        c.pe_mem_ops += mem;
      }
      c.iterations += e - b;
      c.alu_ops += (e - b) * dfg.alu_ops;
    }
    if (!gp.resident && tail > qe) stream.add((tail - qe) * 4);  // the next queue out
    depth_state.flush(miss);
    busy += dfg.depth;
    const int64_t blocked = busy + miss.cycles(p);
    const int64_t pass = p.pass_overhead + std::max(blocked, stream.cycles(p));
    passes_cycles += pass;
    c.compute_cycles += busy - stall;
    c.bank_stall_cycles += stall;
    c.pass_cycles += p.pass_overhead;
    c.line_misses += misses;
    for (const Dma* d : {&stream, &miss}) {
      c.dram_bytes += d->bytes;
      c.dma_transactions += d->transactions;
      c.spm_accesses += d->bytes / 4;
    }
    ++c.passes;
    if (tail > qe) frontier->push_back(tail - qe);
    qb = qe;
    qe = tail;
  }
  // The depths go back to host memory once the search ends.
  Dma back;
  if (depth_resident) back.add(n * 4);
  const int64_t epilogue = back.cycles(p);
  setup.add(back.bytes, back.transactions);
  c.dram_bytes += setup.bytes;
  c.dma_transactions += setup.transactions;
  c.spm_accesses += setup.bytes / 4 + c.pe_mem_ops;
  c.cycles = c.config_cycles + prologue + passes_cycles + epilogue;
  c.dma_stall_cycles = c.cycles - c.config_cycles - c.compute_cycles - c.bank_stall_cycles - c.pass_cycles;
  c.ii = ii;
  c.tiles = 0;
  c.resident = gp.resident ? 1 : 0;
  finish(p, c);
  return Status{};
}

}  // namespace

Status bfs(const char* fn, const Params& p, const BfsArgs& a, std::vector<int64_t>* frontier, Counters* out) {
  *out = Counters{};
  const Csr& g = a.g;
  if (g.rows != g.cols) return Status::invalid(std::string(fn) + ": the graph must be square");
  if (g.rows == 0) return Status::invalid(std::string(fn) + ": the graph has no vertices");
  if (g.ptr(0) != 0 || g.ptr(g.rows) != g.nnz) return Status::invalid(std::string(fn) + ": rowPtr must start at 0 and end at nnz");
  if (a.source < 0 || a.source >= g.rows) {
    return Status::invalid(std::string(fn) + ": source " + std::to_string(a.source) + " is outside [0, " + std::to_string(g.rows) + ")");
  }
  if (a.max_levels < 0) return Status::invalid(std::string(fn) + ": maxLevels = " + std::to_string(a.max_levels) + " is negative");
  if (a.start_level < -1 || a.start_level >= g.rows) {
    return Status::invalid(std::string(fn) + ": startLevel = " + std::to_string(a.start_level) + " is outside [-1, " +
                           std::to_string(g.rows) + ")");
  }
  if (a.start_level >= 0) {
    for (int64_t v = 0; v < g.rows; ++v) {
      const int32_t d = a.depth[v];
      if (d < -1 || d > a.start_level) {
        return Status::invalid(std::string(fn) + ": depth[" + std::to_string(v) + "] = " + std::to_string(d) + " is outside [-1, " +
                               std::to_string(a.start_level) + "]");
      }
    }
  }
  return g.wide_row_ptr ? bfs_impl<int64_t>(fn, p, a, frontier, out) : bfs_impl<int32_t>(fn, p, a, frontier, out);
}

}  // namespace cgra
}  // namespace dype
