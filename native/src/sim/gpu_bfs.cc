// gpu-sim single-source BFS: the search itself runs here, level by level as a GPU would,
// and each level's kernel is traced from the actual frontier: which edges were examined, which
// sectors of the depth array and adjacency lists the warps gathered, how long the slowest warp
// ran. A road graph with a diameter of thousands pays a launch for every level.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../kernels/bfs.h"
#include "gpu_model.h"
#include "gpu_trace.h"

namespace dype {
namespace gpusim {
namespace {

// Beamer's switching thresholds, the CPU kernel's defaults.
constexpr double kAlpha = kBeamerAlpha;
constexpr double kBeta = kBeamerBeta;
// The load-balanced top-down advance gives each lane one frontier edge: one step per warp.
constexpr int kStepsPerWarp = 1;

struct BfsState {
  const GpuParams& gp;
  BfsModel& m;
  double footprint = 0;
  uint32_t epoch = 0;
  void finish(KernelTrace& t, Touches& tc) {
    t.dram_bytes += dram_bytes_for_reuse(tc.first, tc.unique, footprint, gp);
    const KernelCost c = kernel_cost(t, gp, false);
    m.run.add(t, c);
  }
};

template <typename P>
Status bfs_typed(const char* fn, const Csr& outc, const Csr& inc, int64_t source, int32_t* depth, const GpuParams& gp,
                 int64_t start_level, int64_t max_levels, BfsModel* model) {
  const Graph<P> g{static_cast<const P*>(outc.row_ptr), outc.col_idx, outc.rows, outc.nnz, "graph"};
  const Graph<P> gi{static_cast<const P*>(inc.row_ptr), inc.col_idx, inc.rows, inc.nnz, "in-edges"};
  const int64_t n = g.n;
  Faults f{fn, Status{}};
  BfsState st{gp, *model};
  const int pb = sizeof(P);
  st.footprint = 2.0 * (static_cast<double>(n + 1) * pb + static_cast<double>(g.nnz) * 4) + static_cast<double>(n) * 4 +
                 static_cast<double>(n) / 4;
  Region r_depth, r_rp, r_ci, r_irp, r_ici, r_bits;
  r_depth.init(n, 4);
  r_rp.init(n + 1, pb);
  r_ci.init(g.nnz, 4);
  r_irp.init(n + 1, pb);
  r_ici.init(g.nnz, 4);
  r_bits.init(n, 0);
  const bool bitmap_in_l1 = static_cast<double>(n) / 8.0 <= gp.l1_bytes;

  // Queue <-> bitmap conversion at each direction switch: a dense pass over the vertices.
  auto convert = [&]() {
    KernelTrace t = dense_pass(n, 4.0 + 1.0 / 8.0, 8.0, gp);
    model->run.add(t, kernel_cost(t, gp, false));
  };

  std::vector<int32_t> queue, next;
  int64_t b, e;
  double edges_to_check = static_cast<double>(g.nnz);
  double scout = 0;
  // The size of the frontier before the current one (Beamer's growth test and the batching rule).
  double previous_size = 1;
  int64_t level = 0;
  // Whether the frontier is already in both forms (queue and bitmap), so a switch to bottom-up
  // needs no conversion pass first.
  bool dense_ready = false;
  if (start_level < 0) {
    std::fill(depth, depth + n, -1);
    depth[source] = 0;
    queue.push_back(static_cast<int32_t>(source));
    if (!g.row(source, b, e)) {
      f.bad_row("graph", source);
      return f.st;
    }
    scout = static_cast<double>(e - b);
  } else {
    // Resuming: one dense pass over the depth array builds the frontier queue (and bitmap), as a
    // device handed a depth array would, and Beamer's counts come back from the depths: the
    // edges left to check are those of the vertices not yet expanded (depth >= level), scout the
    // frontier's out-degree sum, the previous frontier's size the vertices one level up.
    level = start_level;
    double previous = 0;
    for (int64_t v = 0; v < n; ++v) {
      const int32_t d = depth[v];
      if (d < 0 || d > level) continue;
      if (!g.row(v, b, e)) {
        f.bad_row("graph", v);
        return f.st;
      }
      if (d == level) {
        queue.push_back(static_cast<int32_t>(v));
        scout += static_cast<double>(e - b);
      } else {
        edges_to_check -= static_cast<double>(e - b);
        if (d == level - 1) previous += 1;
      }
    }
    if (level > 0) previous_size = previous;
    convert();
    dense_ready = true;
  }
  model->frontier.assign(1, static_cast<int64_t>(queue.size()));
  const int64_t first_level = level;
  // Levels run so far in this call against the caller's limit (0: none).
  auto more = [&]() { return max_levels == 0 || level - first_level < max_levels; };

  // One top-down advance: frontier edges split evenly over warps, a lane per edge.
  auto top_down = [&]() -> bool {
    KernelTrace t;
    Touches tc{++st.epoch};
    Gather gather, writes;
    double steps = 0, discovered_in_warp = 0, colsec = 0, rpsec = 0, lanes = 0, found_scout = 0;
    uint64_t last_col_sector = ~uint64_t{0}, last_rp_sector = ~uint64_t{0};
    auto close_warp = [&]() {
      gather.flush();
      writes.flush();
      const double sectors = gather.sectors + writes.sectors + colsec + rpsec + discovered_in_warp * 4.0 / 32.0;
      t.add_warp(16.0 + steps * 12.0 + discovered_in_warp * 4.0, sectors, gp);
      gather.sectors = writes.sectors = 0;
      steps = discovered_in_warp = colsec = rpsec = lanes = 0;
    };
    next.clear();
    const size_t qn = queue.size();
    for (size_t qi = 0; qi < qn; ++qi) {
      const int32_t u = queue[qi];
      // Frontier rows lie far apart on a road graph: fetch a few rows ahead, or every first
      // edge of a row is a cache miss on the host.
      if (qi + 16 < qn) __builtin_prefetch(g.rp + queue[qi + 16]);
      if (qi + 8 < qn) {
        const int32_t w = queue[qi + 8];
        if (w >= 0 && w < n) {
          const int64_t wb = static_cast<int64_t>(g.rp[w]);
          if (wb >= 0 && wb < g.nnz) __builtin_prefetch(g.ci + wb);
        }
      }
      if (!g.row(u, b, e)) return f.bad_row("graph", u);
      const uint64_t rs = static_cast<uint64_t>(u) >> r_rp.shift;
      if (rs != last_rp_sector) ++rpsec, last_rp_sector = rs;
      tc.touch(r_rp, static_cast<uint64_t>(u));
      tc.touch(r_rp, static_cast<uint64_t>(u) + 1);
      model->edges_examined += static_cast<double>(e - b);
      for (int64_t q = b; q < e; ++q) {
        const int32_t v = g.ci[q];
        if (v < 0 || v >= n) return f.bad_col("graph", q, v, n);
        const uint64_t cs = static_cast<uint64_t>(q) >> 3;
        if (cs != last_col_sector) ++colsec, last_col_sector = cs, tc.touch(r_ci, static_cast<uint64_t>(q));
        gather.add(static_cast<uint64_t>(v) >> 3);
        tc.touch(r_depth, static_cast<uint64_t>(v));
        if (depth[v] < 0) {
          depth[v] = static_cast<int32_t>(level + 1);
          next.push_back(v);
          writes.add(static_cast<uint64_t>(v) >> 3);
          ++discovered_in_warp;
          int64_t vb, ve;
          if (!g.row(v, vb, ve)) return f.bad_row("graph", v);
          found_scout += static_cast<double>(ve - vb);
        }
        if (++lanes == 32) {
          lanes = 0;
          if (++steps == kStepsPerWarp) close_warp();
        }
      }
    }
    if (lanes > 0) ++steps;
    if (steps > 0 || t.warps == 0) close_warp();
    // The new queue is written once and read back by the next level.
    t.dram_bytes += static_cast<double>(next.size()) * 8.0;
    st.finish(t, tc);
    edges_to_check -= scout;
    scout = found_scout;
    queue.swap(next);
    return true;
  };

  // One bottom-up step: a thread per vertex, scanning in-edges until a parent is in the frontier.
  auto bottom_up = [&](int64_t& awake) -> bool {
    KernelTrace t;
    Touches tc{++st.epoch};
    awake = 0;
    for (int64_t v0 = 0; v0 < n; v0 += 32) {
      const int64_t v1 = std::min<int64_t>(v0 + 32, n);
      double sectors = static_cast<double>(range_sectors(static_cast<uint64_t>(v0) * 4, static_cast<uint64_t>(v1) * 4));
      tc.touch_range(r_depth, static_cast<uint64_t>(v0), static_cast<uint64_t>(v1));
      int64_t longest = 0, found = 0;
      bool any = false;
      for (int64_t v = v0; v < v1; ++v) {
        if (depth[v] >= 0) continue;
        if (!any) {
          sectors += static_cast<double>(range_sectors(static_cast<uint64_t>(v0) * pb, static_cast<uint64_t>(v1 + 1) * pb));
          tc.touch_range(r_irp, static_cast<uint64_t>(v0), static_cast<uint64_t>(v1 + 1));
          any = true;
        }
        if (!gi.row(v, b, e)) return f.bad_row("in-edges", v);
        int64_t q = b;
        for (; q < e; ++q) {
          const int32_t u = gi.ci[q];
          if (u < 0 || u >= n) return f.bad_col("in-edges", q, u, n);
          tc.touch(r_bits, static_cast<uint64_t>(u));
          if (depth[u] == level) {
            depth[v] = static_cast<int32_t>(level + 1);
            ++found;
            ++q;
            break;
          }
        }
        const int64_t examined = q - b;
        model->edges_examined += static_cast<double>(examined);
        longest = std::max(longest, examined);
        sectors += static_cast<double>(range_sectors(static_cast<uint64_t>(b) * 4, static_cast<uint64_t>(q) * 4));
        tc.touch_range(r_ici, static_cast<uint64_t>(b), static_cast<uint64_t>(q));
        // Frontier-bitmap lookups stay in L1 while the bitmap fits there.
        if (!bitmap_in_l1) sectors += static_cast<double>(examined);
      }
      if (found > 0) sectors += 2;  // the next-frontier bitmap word and the depth writes' sector
      awake += found;
      t.add_warp(10.0 + static_cast<double>(longest) * 6.0, sectors, gp);
    }
    st.finish(t, tc);
    return true;
  };

  while (!queue.empty() && more()) {
    // Depths are int32: refuse a (resumed) search that would go deeper than they can hold.
    if (level >= INT32_MAX) return Status::invalid(std::string(fn) + ": depth " + std::to_string(level + 1) + " overflows int32");
    if (scout > edges_to_check / kAlpha) {
      if (!dense_ready) convert();
      dense_ready = false;
      int64_t awake = static_cast<int64_t>(queue.size()), old_awake;
      do {
        if (level >= INT32_MAX) return Status::invalid(std::string(fn) + ": depth " + std::to_string(level + 1) + " overflows int32");
        old_awake = awake;
        if (!bottom_up(awake)) return f.st;
        model->bottom_up_levels += 1;
        ++level;
        if (awake > 0) model->frontier.push_back(awake);
      } while (awake > 0 && more() && (awake >= old_awake || static_cast<double>(awake) > static_cast<double>(n) / kBeta));
      // Stopped by the caller's limit: the depths go back as they are, no queue is built.
      if (!more()) break;
      previous_size = static_cast<double>(old_awake);
      // Back to a queue: the vertices found by the last step.
      queue.clear();
      for (int64_t v = 0; v < n; ++v) {
        if (depth[v] == level) queue.push_back(static_cast<int32_t>(v));
      }
      if (!queue.empty()) convert();
      scout = 1;
    } else {
      // As dype's CUDA BFS does: a thin, slowly growing frontier far from the switch to bottom-up
      // is expanded in a batch of levels whose sizes the host reads back once per batch.
      const double size = static_cast<double>(queue.size());
      if (level >= 2 && size <= 2.0 * previous_size && static_cast<double>(scout) * kAlpha * 16.0 < static_cast<double>(edges_to_check) &&
          size * kBeta * 16.0 < static_cast<double>(n)) {
        model->batched_levels += 1;
      }
      previous_size = size;
      dense_ready = false;
      if (!top_down()) return f.st;
      ++level;
      if (!queue.empty()) model->frontier.push_back(static_cast<int64_t>(queue.size()));
    }
  }
  model->levels = static_cast<double>(level - first_level);
  return Status{};
}

}  // namespace

Status model_bfs(const char* fn, const Csr& out, const Csr& in, int64_t source, int32_t* depth, const GpuParams& p,
                 BfsModel* model, int64_t start_level, int64_t max_levels) {
  *model = BfsModel{};
  if (out.rows <= 0) return Status::invalid(std::string(fn) + ": the graph has no vertices");
  if (source < 0 || source >= out.rows) {
    return Status::invalid(std::string(fn) + ": source " + std::to_string(source) + " is not a vertex of a graph with " +
                           std::to_string(out.rows) + " vertices");
  }
  if (max_levels < 0) return Status::invalid(std::string(fn) + ": maxLevels = " + std::to_string(max_levels) + " is negative");
  if (start_level < -1 || start_level >= out.rows) {
    return Status::invalid(std::string(fn) + ": startLevel = " + std::to_string(start_level) + " is outside [-1, " +
                           std::to_string(out.rows) + ")");
  }
  Status st = check_resumed_depths(fn, depth, out.rows, start_level);
  if (!st.ok) return st;
  st = out.wide_row_ptr ? bfs_typed<int64_t>(fn, out, in, source, depth, p, start_level, max_levels, model)
                        : bfs_typed<int32_t>(fn, out, in, source, depth, p, start_level, max_levels, model);
  if (!st.ok) return st;
  // One host round trip per level read back on its own, and one per batch of up to 32 batched
  // levels (the batches grow from 4 to 64 levels; 32 is their typical length on roads).
  model->run.seconds += ((model->levels - model->batched_levels) + std::ceil(model->batched_levels / 32.0)) * p.level_sync_s;
  model->achieved_bandwidth = model->run.seconds > 0 ? model->run.dram_bytes / model->run.seconds : 0;
  model->run.finish_energy(p);
  return st;
}

}  // namespace gpusim
}  // namespace dype
