// Direction-optimising BFS on the GPU: top-down from a frontier queue (thin levels launched back
// to back before the host reads their counters) or bottom-up over the unvisited vertices.
// Part of the kernels' one translation unit (kernels.cu).
#pragma once

#include "common.cuh"

namespace dype {
namespace cuda {

namespace {

// counters: [0] vertices discovered, [1] their out-edges (the next frontier's scout count),
// [2] edges examined.
// `n_in_dev`, when given, holds the frontier's size as the previous level's kernel counted it
// (counters[0] of that level), so that levels can be launched back to back without the host
// reading each size first.
// A frontier larger than `cap` is not expanded: the kernel marks its level kSkipped (and so
// every later level of the batch skips too), and the host takes over from the level before.
constexpr unsigned long long kSkipped = ~0ULL;

template <int G>
__global__ void __launch_bounds__(kBlock) bfs_top_down_kernel(const int32_t* __restrict__ q_in, int64_t n_in,
                                                              const unsigned long long* n_in_dev, unsigned long long cap,
                                                              const int64_t* __restrict__ rp, const int32_t* __restrict__ ci,
                                                              int64_t n, int32_t* __restrict__ depth, int32_t next_level,
                                                              int32_t* __restrict__ q_out, unsigned long long* counters,
                                                              int* err) {
  if (n_in_dev) {
    const unsigned long long size = *n_in_dev;
    if (size > cap) {  // the whole grid returns here, before any warp-wide step
      if (blockIdx.x == 0 && threadIdx.x == 0) counters[0] = kSkipped;
      return;
    }
    n_in = static_cast<int64_t>(size);
  }
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const int64_t groups = static_cast<int64_t>(gridDim.x) * blockDim.x / G;
  unsigned long long examined = 0;
  // Whole-warp trip counts differ between groups; only warp_add at the end needs every lane.
  for (int64_t i = t / G; i < n_in; i += groups) {
    const int32_t u = q_in[i];
    const int64_t b = rp[u], e = rp[u + 1];
    if (lane == 0) examined += static_cast<unsigned long long>(e - b);
    for (int64_t j = b + lane; j < e; j += G) {
      const int32_t v = __ldg(ci + j);
      if (bad_column(v, n)) {
        atomicOr(err, kErrColumnOutOfRange);
        continue;
      }
      if (depth[v] == -1 && atomicCAS(depth + v, -1, next_level) == -1) {
        cg::coalesced_group found = cg::coalesced_threads();
        unsigned long long slot = 0;
        if (found.thread_rank() == 0) slot = atomicAdd(counters, static_cast<unsigned long long>(found.size()));
        slot = found.shfl(slot, 0);
        q_out[slot + found.thread_rank()] = v;
        atomicAdd(counters + 1, static_cast<unsigned long long>(rp[v + 1] - rp[v]));
      }
    }
  }
  warp_add(counters + 2, examined);
}

// Every unvisited vertex looks for a parent among its in-neighbours at depth `level`; a group of
// G lanes scans one vertex's in-edges G at a time and stops at the first hit.
template <int G>
__global__ void __launch_bounds__(kBlock) bfs_bottom_up_kernel(int64_t n, const int64_t* __restrict__ irp,
                                                               const int32_t* __restrict__ ici,
                                                               const int64_t* __restrict__ rp, int32_t* __restrict__ depth,
                                                               int32_t level, int32_t* __restrict__ q_out,
                                                               unsigned long long* counters, int* err) {
  constexpr int kPerWarp = 32 / G;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t warp = t / 32, warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const int sub = static_cast<int>((threadIdx.x & 31) / G);
  const int lane = static_cast<int>(threadIdx.x & (G - 1));
  const unsigned mask = group_mask<G>();
  unsigned long long examined = 0;
  for (int64_t base = warp * kPerWarp; base < n; base += warps * kPerWarp) {
    const int64_t v = base + sub;
    if (v < n && depth[v] == -1) {
      const int64_t b = irp[v], e = irp[v + 1];
      bool found = false;
      for (int64_t off = b; off < e && !found; off += G) {
        const int64_t j = off + lane;
        bool hit = false;
        if (j < e) {
          const int32_t u = __ldg(ici + j);
          if (bad_column(u, n)) atomicOr(err, kErrColumnOutOfRange);
          else hit = depth[u] == level;
        }
        // Every lane of the group runs the same trips (same b, e), so the group ballot is safe.
        const unsigned hits = __ballot_sync(mask, hit);
        if (lane == 0) examined += static_cast<unsigned long long>(e - off < G ? e - off : G);
        found = hits != 0;
      }
      if (found && lane == 0) {
        depth[v] = level + 1;
        const unsigned long long slot = atomicAdd(counters, 1ULL);
        q_out[slot] = static_cast<int32_t>(v);
        atomicAdd(counters + 1, static_cast<unsigned long long>(rp[v + 1] - rp[v]));
      }
    }
  }
  warp_add(counters + 2, examined);
}

__global__ void bfs_seed_kernel(int32_t* depth, int32_t* queue, int32_t source) {
  depth[source] = 0;
  queue[0] = source;
}

template <int G>
void top_down(cudaStream_t s, const LocalCsr& out, const int32_t* q_in, int64_t n_in, int32_t* depth, int32_t next_level,
              int32_t* q_out, unsigned long long* counters, int* err, const unsigned long long* n_in_dev, int64_t grid_items) {
  // In a batch the grid covers 4x the frontier the host last saw; larger frontiers go back to it.
  const unsigned long long cap = static_cast<unsigned long long>(grid_items);
  bfs_top_down_kernel<G><<<blocks_for(grid_items * G), kBlock, 0, s>>>(q_in, n_in, n_in_dev, cap, out.row_ptr, out.col_idx,
                                                                       out.m, depth, next_level, q_out, counters, err);
}

void top_down_any(int group, cudaStream_t s, const LocalCsr& out, const int32_t* q_in, int64_t n_in, int32_t* depth,
                  int32_t next_level, int32_t* q_out, unsigned long long* counters, int* err,
                  const unsigned long long* n_in_dev = nullptr, int64_t grid_items = -1) {
  // The grid covers `grid_items` frontier vertices (the loop strides over more); by default the
  // frontier's size, known on the host.
  if (grid_items < 0) grid_items = n_in;
  switch (group) {
    case 32: top_down<32>(s, out, q_in, n_in, depth, next_level, q_out, counters, err, n_in_dev, grid_items); break;
    case 8: top_down<8>(s, out, q_in, n_in, depth, next_level, q_out, counters, err, n_in_dev, grid_items); break;
    default: top_down<1>(s, out, q_in, n_in, depth, next_level, q_out, counters, err, n_in_dev, grid_items); break;
  }
}

template <int G>
void bottom_up(cudaStream_t s, const LocalCsr& out, const LocalCsr& in, int32_t* depth, int32_t level, int32_t* q_out,
               unsigned long long* counters, int* err) {
  bfs_bottom_up_kernel<G><<<blocks_for(out.m * G), kBlock, 0, s>>>(out.m, in.row_ptr, in.col_idx, out.row_ptr, depth, level,
                                                                   q_out, counters, err);
}

int graph_group(const LocalCsr& g) {
  const double mean = g.m > 0 ? static_cast<double>(g.nnz) / static_cast<double>(g.m) : 0.0;
  return mean >= 24 ? 32 : mean >= 6 ? 8 : 1;
}

}  // namespace

cudaError_t bfs(cudaStream_t s, const LocalCsr& out, const LocalCsr& in, int64_t source, int direction, double alpha,
                double beta, const BfsWork& w, const BfsStart& start, BfsResult* result) {
  cudaGetLastError();  // as in spmm
  const int64_t n = out.m;
  cudaError_t e;
  int64_t n_front = 1, scout = 0, edges_to_check = out.nnz;
  int32_t level = 0;
  if (start.level >= 0) {  // the depths and the frontier are on the device already
    n_front = start.frontier;
    scout = start.scout;
    edges_to_check = start.edges_to_check;
    level = start.level;
  } else {
    if ((e = cudaMemsetAsync(w.depth, 0xff, static_cast<size_t>(n) * sizeof(int32_t), s)) != cudaSuccess) return e;
    bfs_seed_kernel<<<1, 1, 0, s>>>(w.depth, w.queue_a, static_cast<int32_t>(source));
    int64_t src_edges[2] = {0, 0};
    if ((e = cudaMemcpyAsync(src_edges, out.row_ptr + source, 2 * sizeof(int64_t), cudaMemcpyDeviceToHost, s)) != cudaSuccess)
      return e;
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
    scout = src_edges[1] - src_edges[0];
  }

  const int td_group = graph_group(out), bu_group = graph_group(in);
  const double average_degree = n > 0 ? static_cast<double>(out.nnz) / static_cast<double>(n) : 0.0;
  result->frontier.assign(1, n_front);
  result->bottom_up.clear();
  result->edges_examined = 0;
  int32_t* q_cur = w.queue_a;
  int32_t* q_next = w.queue_b;
  bool bottom = false;
  bool bottom_up_unprofitable = false;
  int64_t previous = n_front;
  int batch = 4;
  bool force_level_step = false;  // after a batch stopped early, decide the next level on the host
  // Steps (levels produced) left before a `max_levels` stop.
  int64_t steps_left = start.max_levels > 0 ? start.max_levels : INT64_MAX;
  while (n_front > 0 && steps_left > 0) {
    // Far from the switch to bottom-up (a road network or mesh: thin frontiers for thousands of
    // levels), launch several top-down levels back to back, each reading its frontier's size
    // from the previous level's counters on the device, and read the counters back once per
    // batch: the host round trip per level (tens of µs) is paid once per batch. Each level's
    // grid is sized for up to 4x the last frontier known on the host (the loop strides over
    // any more). The batch grows while the frontier stays thin.
    // Only while the frontier grows slowly: a power-law graph's grows a hundredfold in a level,
    // and a batch would run such a level top-down on a grid sized for the level before.
    const bool thin = n_front <= 2 * previous &&
                      static_cast<double>(scout) * alpha * 16.0 < static_cast<double>(edges_to_check) &&
                      static_cast<double>(n_front) * beta * 16.0 < static_cast<double>(n);
    if (w.batch_levels > 1 && !bottom && direction != 2 && level >= 2 && thin && !force_level_step) {
      const int steps = static_cast<int>(std::min<int64_t>(std::min(batch, w.batch_levels), steps_left));
      if ((e = cudaMemsetAsync(w.counters, 0, 3 * static_cast<size_t>(steps) * sizeof(unsigned long long), s)) != cudaSuccess)
        return e;
      int32_t* qa = q_cur;
      int32_t* qb = q_next;
      for (int i = 0; i < steps; ++i) {
        // Level 0 of the batch expands the frontier the host knows; each later one reads its
        // size from the level before it.
        top_down_any(td_group, s, out, qa, n_front, w.depth, level + 1 + i, qb, w.counters + 3 * i, w.err,
                     i == 0 ? nullptr : w.counters + 3 * (i - 1), std::max<int64_t>(n_front, 8) * 4);
        std::swap(qa, qb);
      }
      if ((e = cudaGetLastError()) != cudaSuccess) return e;
      if ((e = cudaMemcpyAsync(w.host_counters, w.counters, 3 * static_cast<size_t>(steps) * sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, s)) != cudaSuccess)
        return e;
      if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
      bool stopped = false;
      for (int i = 0; i < steps && n_front > 0; ++i) {
        if (w.host_counters[3 * i] == kSkipped) {  // the frontier outgrew the batch: per level from here
          stopped = true;
          break;
        }
        const int64_t discovered = static_cast<int64_t>(w.host_counters[3 * i]);
        result->edges_examined += static_cast<int64_t>(w.host_counters[3 * i + 2]);
        result->frontier.push_back(discovered);
        result->bottom_up.push_back(0);
        edges_to_check -= scout;
        previous = n_front;
        n_front = discovered;
        scout = static_cast<int64_t>(w.host_counters[3 * i + 1]);
        std::swap(q_cur, q_next);
        ++level;
        --steps_left;
      }
      batch = stopped ? 4 : std::min(batch * 2, w.batch_levels);
      if (stopped) force_level_step = true;
      continue;
    }
    if (direction == 2) bottom = true;
    else if (direction == 1) bottom = false;
    else if (!bottom) bottom = !bottom_up_unprofitable && static_cast<double>(scout) > edges_to_check / alpha;
    else bottom = n_front >= previous || static_cast<double>(n_front) > static_cast<double>(n) / beta;
    if (!bottom) edges_to_check -= scout;
    if ((e = cudaMemsetAsync(w.counters, 0, 3 * sizeof(unsigned long long), s)) != cudaSuccess) return e;
    if (bottom) {
      switch (bu_group) {
        case 32: bottom_up<32>(s, out, in, w.depth, level, q_next, w.counters, w.err); break;
        case 8: bottom_up<8>(s, out, in, w.depth, level, q_next, w.counters, w.err); break;
        default: bottom_up<1>(s, out, in, w.depth, level, q_next, w.counters, w.err); break;
      }
    } else {
      top_down_any(td_group, s, out, q_cur, n_front, w.depth, level + 1, q_next, w.counters, w.err);
    }
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    if ((e = cudaMemcpyAsync(w.host_counters, w.counters, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s)) !=
        cudaSuccess)
      return e;
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
    const int64_t discovered = static_cast<int64_t>(w.host_counters[0]);
    const int64_t examined = static_cast<int64_t>(w.host_counters[2]);
    result->edges_examined += examined;
    result->frontier.push_back(discovered);
    result->bottom_up.push_back(bottom ? 1 : 0);
    // As on the CPU: in meshes and road networks a bottom-up step scans every edge of the
    // unvisited vertices and finds few parents; if it read far more than top-down would have,
    // go back and stay top-down for the rest of this search.
    if (bottom && direction == 0 && static_cast<double>(examined) > 8.0 * static_cast<double>(n_front) * average_degree) {
      bottom_up_unprofitable = true;
      bottom = false;
    }
    previous = n_front;
    n_front = discovered;
    scout = static_cast<int64_t>(w.host_counters[1]);
    std::swap(q_cur, q_next);
    ++level;
    --steps_left;
    force_level_step = false;
  }
  while (result->frontier.size() > 1 && result->frontier.back() == 0) {
    result->frontier.pop_back();
    result->bottom_up.pop_back();
  }
  return cudaSuccess;
}

}  // namespace cuda
}  // namespace dype
