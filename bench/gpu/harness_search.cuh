// The harness's graph searches (harness.cu): BFS and multi-source BFS timed with CUDA events and
// checked exactly against a CPU search. Included by harness.cu alone, after harness_common.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <deque>
#include <vector>

#include "cuda/kernels.cuh"
#include "harness_common.cuh"

namespace {

std::vector<int32_t> cpu_bfs(const HostCsr& a, int64_t src) {
  std::vector<int32_t> d(static_cast<size_t>(a.rows), -1);
  std::deque<int32_t> q;
  d[static_cast<size_t>(src)] = 0;
  q.push_back(static_cast<int32_t>(src));
  while (!q.empty()) {
    const int32_t u = q.front();
    q.pop_front();
    for (int64_t j = a.rp[static_cast<size_t>(u)]; j < a.rp[static_cast<size_t>(u) + 1]; ++j) {
      const int32_t v = a.ci[static_cast<size_t>(j)];
      if (d[static_cast<size_t>(v)] < 0) {
        d[static_cast<size_t>(v)] = d[static_cast<size_t>(u)] + 1;
        q.push_back(v);
      }
    }
  }
  return d;
}

// The graph files are symmetric (undirected), so the in-edges are the out-edges.
struct DeviceGraph {
  dype::cuda::LocalCsr g;
  int64_t* rp = nullptr;
  int32_t* ci = nullptr;
};

DeviceGraph upload_graph(const HostCsr& a) {
  DeviceGraph d;
  d.rp = upload(a.rp);
  d.ci = upload(a.ci);
  d.g.m = a.rows;
  d.g.cols = a.cols;
  d.g.nnz = a.nnz;
  d.g.row_ptr = d.rp;
  d.g.col_idx = d.ci;
  return d;
}

std::vector<int64_t> pick_sources(const HostCsr& a, int count) {
  std::vector<int64_t> s;
  for (uint64_t i = 0; static_cast<int>(s.size()) < count && i < 1000000; ++i) {
    const int64_t v = static_cast<int64_t>((hash_unit(i * 7919 + 17) * 0.5 + 0.5) * static_cast<double>(a.rows)) % a.rows;
    if (a.rp[static_cast<size_t>(v) + 1] > a.rp[static_cast<size_t>(v)]) s.push_back(v);
  }
  return s;
}

// As the addon (runtime.cu): up to 64 thin top-down levels launched before the host reads back.
constexpr int kBfsBatchLevels = 64;

void bfs(const HostCsr& a, int sources, int reps) {
  DeviceGraph d = upload_graph(a);
  dype::cuda::BfsWork w;
  CHECK(cudaMalloc(&w.depth, a.rows * sizeof(int32_t)));
  CHECK(cudaMalloc(&w.queue_a, a.rows * sizeof(int32_t)));
  CHECK(cudaMalloc(&w.queue_b, a.rows * sizeof(int32_t)));
  w.batch_levels = kBfsBatchLevels;
  CHECK(cudaMalloc(&w.counters, 3 * kBfsBatchLevels * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&w.err, sizeof(int)));
  CHECK(cudaMemset(w.err, 0, sizeof(int)));
  CHECK(cudaMallocHost(&w.host_counters, 3 * kBfsBatchLevels * sizeof(unsigned long long)));
  std::vector<double> auto_ms, td_ms, unbatched_ms, teps;
  int mismatches = 0;
  int64_t levels = 0, bottom_levels = 0;
  for (int64_t src : pick_sources(a, sources)) {
    dype::cuda::BfsResult r;
    auto run = [&](int direction) { CHECK(dype::cuda::bfs(nullptr, d.g, d.g, src, direction, 15.0, 18.0, w, dype::cuda::BfsStart{}, &r)); };
    const double ms_auto = time_ms(reps, [&] { run(0); });
    const double ms_td = time_ms(reps, [&] { run(1); });
    // The same search with the host reading the counters after every level (no batches).
    w.batch_levels = 1;
    const double ms_unbatched = time_ms(reps, [&] { run(0); });
    w.batch_levels = kBfsBatchLevels;
    run(0);
    std::vector<int32_t> got(static_cast<size_t>(a.rows));
    CHECK(cudaMemcpy(got.data(), w.depth, a.rows * sizeof(int32_t), cudaMemcpyDeviceToHost));
    const std::vector<int32_t> want = cpu_bfs(a, src);
    int64_t edges = 0;
    for (int64_t v = 0; v < a.rows; ++v) {
      if (got[static_cast<size_t>(v)] != want[static_cast<size_t>(v)]) ++mismatches;
      if (want[static_cast<size_t>(v)] >= 0) edges += a.rp[static_cast<size_t>(v) + 1] - a.rp[static_cast<size_t>(v)];
    }
    levels = static_cast<int64_t>(r.frontier.size());
    bottom_levels = 0;
    for (uint8_t b : r.bottom_up) bottom_levels += b;
    auto_ms.push_back(ms_auto);
    td_ms.push_back(ms_td);
    unbatched_ms.push_back(ms_unbatched);
    teps.push_back(static_cast<double>(edges) / 2.0 / (ms_auto * 1e-3));  // undirected: each edge stored twice
  }
  std::printf("{\"kind\":\"bfs\",\"rows\":%lld,\"nnz\":%lld,\"sources\":%zu,\"autoMs\":%.6f,\"topDownMs\":%.6f,\"unbatchedMs\":%.6f,\"gteps\":%.4f,"
              "\"levels\":%lld,\"bottomUpLevels\":%lld,\"mismatches\":%d}\n",
              static_cast<long long>(a.rows), static_cast<long long>(a.nnz), auto_ms.size(), median(auto_ms), median(td_ms),
              median(unbatched_ms), median(teps) / 1e9, static_cast<long long>(levels), static_cast<long long>(bottom_levels), mismatches);
  cudaFree(d.rp);
  cudaFree(d.ci);
  cudaFree(w.depth);
  cudaFree(w.queue_a);
  cudaFree(w.queue_b);
  cudaFree(w.counters);
  cudaFree(w.err);
  cudaFreeHost(w.host_counters);
}

void msbfs(const HostCsr& a, int sources, int reps) {
  DeviceGraph d = upload_graph(a);
  std::vector<int64_t> picked = pick_sources(a, sources);
  std::vector<int32_t> src(picked.begin(), picked.end());
  dype::cuda::MsBfsWork w;
  w.num_sources = static_cast<int64_t>(src.size());
  const int64_t batches = (w.num_sources + 63) / 64;
  int32_t* d_src = upload(src);
  w.sources = d_src;
  CHECK(cudaMalloc(&w.depths, static_cast<size_t>(w.num_sources) * a.rows * sizeof(int32_t)));
  CHECK(cudaMalloc(&w.words, static_cast<size_t>(3 * batches * a.rows) * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&w.counters, 2 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&w.err, sizeof(int)));
  CHECK(cudaMemset(w.err, 0, sizeof(int)));
  CHECK(cudaMallocHost(&w.host_counters, 2 * sizeof(unsigned long long)));
  int64_t levels = 0, examined = 0;
  const double ms = time_ms(reps, [&] { CHECK(dype::cuda::msbfs(nullptr, d.g, w, &levels, &examined)); });
  int mismatches = 0;
  std::vector<int32_t> got(static_cast<size_t>(a.rows));
  for (int64_t s = 0; s < w.num_sources; s += std::max<int64_t>(1, w.num_sources / 4)) {
    CHECK(cudaMemcpy(got.data(), w.depths + s * a.rows, a.rows * sizeof(int32_t), cudaMemcpyDeviceToHost));
    const std::vector<int32_t> want = cpu_bfs(a, src[static_cast<size_t>(s)]);
    for (int64_t v = 0; v < a.rows; ++v) mismatches += got[static_cast<size_t>(v)] != want[static_cast<size_t>(v)];
  }
  std::printf("{\"kind\":\"msbfs\",\"rows\":%lld,\"nnz\":%lld,\"sources\":%lld,\"ms\":%.6f,\"levels\":%lld,\"edgesExamined\":%lld,"
              "\"mismatches\":%d}\n",
              static_cast<long long>(a.rows), static_cast<long long>(a.nnz), static_cast<long long>(w.num_sources), ms,
              static_cast<long long>(levels), static_cast<long long>(examined), mismatches);
  cudaFree(d.rp);
  cudaFree(d.ci);
  cudaFree(d_src);
  cudaFree(w.depths);
  cudaFree(w.words);
  cudaFree(w.counters);
  cudaFree(w.err);
  cudaFreeHost(w.host_counters);
}

}  // namespace
