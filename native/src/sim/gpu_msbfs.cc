// gpu-sim multi-source BFS: 64 searches share one traversal (Then et al., VLDB 2014), one bit
// per source in a word per vertex. Each level is an edge-parallel expand kernel (OR the
// frontier word of u into v's next word unless v has seen those sources) and a vertex-parallel
// update kernel (new bits become the frontier and get their depth). Batches of 64 run in turn.
#include <algorithm>
#include <string>
#include <vector>

#include "gpu_model.h"
#include "gpu_trace.h"

namespace dype {
namespace gpusim {
namespace {

// A lane per frontier edge: one step of 32 edges per warp.
constexpr int kStepsPerWarp = 1;

template <typename P>
Status msbfs_typed(const char* fn, const Csr& outc, const int32_t* sources, int64_t num_sources, int32_t* depths,
                   const GpuParams& gp, BfsModel* model) {
  const Graph<P> g{static_cast<const P*>(outc.row_ptr), outc.col_idx, outc.rows, outc.nnz, "graph"};
  const int64_t n = g.n;
  const int pb = sizeof(P);
  Faults f{fn, Status{}};
  const double footprint = static_cast<double>(n + 1) * pb + static_cast<double>(g.nnz) * 4 + static_cast<double>(n) * 24;
  Region r_rp, r_ci, r_seen;
  r_rp.init(n + 1, pb);
  r_ci.init(g.nnz, 4);
  r_seen.init(n, 8);
  uint32_t epoch = 0;
  auto finish = [&](KernelTrace& t, Touches& tc) {
    t.dram_bytes += dram_bytes_for_reuse(tc.first, tc.unique, footprint, gp);
    model->run.add(t, kernel_cost(t, gp, false));
  };

  // The depth matrix starts at -1: one fill kernel over all of it.
  std::fill(depths, depths + num_sources * n, -1);
  {
    KernelTrace t = dense_pass(num_sources * n, 4.0, 4.0, gp);
    model->run.add(t, kernel_cost(t, gp, false));
  }
  std::vector<uint64_t> seen(static_cast<size_t>(n)), frontier(static_cast<size_t>(n)), next(static_cast<size_t>(n));
  std::vector<int32_t> cur, touched;
  for (int64_t s0 = 0; s0 < num_sources; s0 += 64) {
    const int64_t width = std::min<int64_t>(64, num_sources - s0);
    std::fill(seen.begin(), seen.end(), 0);
    std::fill(frontier.begin(), frontier.end(), 0);
    cur.clear();
    for (int64_t i = 0; i < width; ++i) {
      const int32_t s = sources[s0 + i];
      if (s < 0 || s >= n) {
        return Status::invalid(std::string(fn) + ": sources[" + std::to_string(s0 + i) + "] = " + std::to_string(s) +
                               " is not a vertex of a graph with " + std::to_string(n) + " vertices");
      }
      if (frontier[s] == 0) cur.push_back(s);
      frontier[s] |= uint64_t{1} << i;
      seen[s] |= uint64_t{1} << i;
      depths[(s0 + i) * n + s] = 0;
    }
    int32_t level = 0;
    while (!cur.empty()) {
      // Expand: a lane per frontier edge, 32 edges per warp.
      KernelTrace t;
      Touches tc{++epoch};
      Gather reads, ors;
      double steps = 0, lanes = 0, colsec = 0, rpsec = 0;
      uint64_t last_col_sector = ~uint64_t{0};
      auto close_warp = [&]() {
        reads.flush();
        ors.flush();
        t.add_warp(16.0 + steps * 14.0, reads.sectors + ors.sectors + colsec + rpsec, gp);
        reads.sectors = ors.sectors = 0;
        steps = lanes = colsec = rpsec = 0;
      };
      touched.clear();
      const size_t cn = cur.size();
      for (size_t ci = 0; ci < cn; ++ci) {
        const int32_t u = cur[ci];
        // Fetch rows ahead: frontier rows are scattered over the adjacency arrays.
        if (ci + 16 < cn) __builtin_prefetch(g.rp + cur[ci + 16]);
        if (ci + 8 < cn) {
          const int64_t wb = static_cast<int64_t>(g.rp[cur[ci + 8]]);
          if (wb >= 0 && wb < g.nnz) __builtin_prefetch(g.ci + wb);
        }
        int64_t b, e;
        if (!g.row(u, b, e)) {
          f.bad_row("graph", u);
          return f.st;
        }
        rpsec += 1;
        tc.touch(r_rp, static_cast<uint64_t>(u));
        const uint64_t fu = frontier[u];
        model->edges_examined += static_cast<double>(e - b);
        for (int64_t q = b; q < e; ++q) {
          const int32_t v = g.ci[q];
          if (v < 0 || v >= n) {
            f.bad_col("graph", q, v, n);
            return f.st;
          }
          const uint64_t cs = static_cast<uint64_t>(q) >> 3;
          if (cs != last_col_sector) ++colsec, last_col_sector = cs, tc.touch(r_ci, static_cast<uint64_t>(q));
          reads.add(static_cast<uint64_t>(v) >> 2);
          tc.touch(r_seen, static_cast<uint64_t>(v));
          const uint64_t nv = fu & ~seen[v];
          if (nv != 0) {
            if (next[v] == 0) touched.push_back(v);
            next[v] |= nv;
            ors.add(static_cast<uint64_t>(v) >> 2);
          }
          if (++lanes == 32) {
            lanes = 0;
            if (++steps == kStepsPerWarp) close_warp();
          }
        }
      }
      if (lanes > 0) ++steps;
      if (steps > 0 || t.warps == 0) close_warp();
      finish(t, tc);

      // Update: new bits join seen, become the next frontier and record their depth.
      for (int32_t u : cur) frontier[u] = 0;
      double new_bits = 0;
      for (int32_t v : touched) {
        const uint64_t nb = next[v];
        next[v] = 0;
        seen[v] |= nb;
        frontier[v] = nb;
        for (uint64_t m = nb; m != 0; m &= m - 1) {
          depths[(s0 + __builtin_ctzll(m)) * n + v] = level + 1;
          new_bits += 1;
        }
      }
      KernelTrace up = dense_pass(n, 32.0, 12.0, gp);
      up.instructions += 2.0 * new_bits;
      up.l2_sectors += new_bits;
      up.dram_bytes += 4.0 * new_bits;
      model->run.add(up, kernel_cost(up, gp, false));
      model->levels += 1;
      ++level;
      cur.swap(touched);
    }
  }
  return Status{};
}

}  // namespace

Status model_msbfs(const char* fn, const Csr& out, const int32_t* sources, int64_t num_sources, int32_t* depths,
                   const GpuParams& p, BfsModel* model) {
  *model = BfsModel{};
  if (out.rows <= 0) return Status::invalid(std::string(fn) + ": the graph has no vertices");
  if (num_sources == 0) return Status{};
  Status st = out.wide_row_ptr ? msbfs_typed<int64_t>(fn, out, sources, num_sources, depths, p, model)
                               : msbfs_typed<int32_t>(fn, out, sources, num_sources, depths, p, model);
  if (!st.ok) return st;
  model->run.seconds += model->levels * p.level_sync_s;
  model->achieved_bandwidth = model->run.seconds > 0 ? model->run.dram_bytes / model->run.seconds : 0;
  model->run.finish_energy(p);
  return st;
}

}  // namespace gpusim
}  // namespace dype
