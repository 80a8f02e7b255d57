// The GAP-style BFS reference (gap_bfs.h) timed in a process of its own, away from Node and
// from dype's thread pool: the bench writes the graph and the sources to a file, this program
// times every source `rounds` times (rounds outermost, so a slow stretch of a shared machine is
// spread over the sources) and prints one line per source: source, reached, median ms, min ms.
//
//   gap_bfs FILE THREADS ROUNDS
// FILE: int64 n, int64 nnz, int64 sources; int32 rowPtr[n + 1], colIdx[nnz], sources[sources]
// (an undirected graph: the in-edges are the out-edges).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gap_bfs.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: gap_bfs FILE THREADS ROUNDS\n");
    return 2;
  }
  std::FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  int64_t head[3];
  if (std::fread(head, sizeof(int64_t), 3, f) != 3 || head[0] < 1 || head[1] < 0 || head[2] < 1) {
    std::fprintf(stderr, "%s: bad header\n", argv[1]);
    return 1;
  }
  const int64_t n = head[0], nnz = head[1], ns = head[2];
  std::vector<int32_t> rp(n + 1), ci(nnz), sources(ns);
  if (std::fread(rp.data(), 4, n + 1, f) != static_cast<size_t>(n + 1) || std::fread(ci.data(), 4, nnz, f) != static_cast<size_t>(nnz) ||
      std::fread(sources.data(), 4, ns, f) != static_cast<size_t>(ns)) {
    std::fprintf(stderr, "%s: truncated\n", argv[1]);
    return 1;
  }
  std::fclose(f);
  // The file comes from the bench, which checked the graph; check what a search indexes anyway.
  if (rp[0] != 0 || rp[n] != nnz) return std::fprintf(stderr, "bad row pointers\n"), 1;
  for (int64_t v = 0; v < n; ++v)
    if (rp[v] > rp[v + 1]) return std::fprintf(stderr, "bad row pointers\n"), 1;
  for (int32_t c : ci)
    if (c < 0 || c >= n) return std::fprintf(stderr, "bad column\n"), 1;
  for (int32_t s : sources)
    if (s < 0 || s >= n) return std::fprintf(stderr, "bad source\n"), 1;
  omp_set_num_threads(std::atoi(argv[2]));
  const int rounds = std::max(1, std::atoi(argv[3]));
  gapref::Graph g;
  g.n = n;
  g.nnz = nnz;
  g.rp = g.irp = rp.data();
  g.ci = g.ici = ci.data();
  std::vector<int32_t> parent(n);
  std::vector<std::vector<double>> ms(ns);
  std::vector<int64_t> reached(ns);
  for (int64_t s = 0; s < ns; ++s) gapref::search(g, sources[s], parent.data());  // warm-up
  for (int r = 0; r < rounds; ++r) {
    for (int64_t s = 0; s < ns; ++s) {
      const auto t0 = std::chrono::steady_clock::now();
      reached[s] = gapref::search(g, sources[s], parent.data());
      ms[s].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  for (int64_t s = 0; s < ns; ++s) {
    std::sort(ms[s].begin(), ms[s].end());
    std::printf("%d %lld %.6f %.6f\n", sources[s], static_cast<long long>(reached[s]), ms[s][ms[s].size() / 2], ms[s][0]);
  }
  return 0;
}
