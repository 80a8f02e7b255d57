// dype's CUDA kernels, as launchers over device pointers. Compiled by nvcc only (kernels.cu);
// the addon's runtime (runtime.cu) and the benchmark harness (bench/gpu/harness.cu) both call
// these, so what the benchmark times is what the scheduler runs.
//
// Every matrix here is a local CSR: `m` rows, row pointers as int64 starting at 0 (a row range
// of a larger matrix is rebased on the host), column indices as int32. Column indices are never
// trusted: a kernel that meets one outside [0, cols) skips it and sets bit 1 of `*err`.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace dype {
namespace cuda {

enum SpmmStrategy : int { kAuto = 0, kRowSplit = 1, kNnzSplit = 2 };

// Bits of the error word the kernels set.
constexpr int kErrColumnOutOfRange = 1;

struct LocalCsr {
  int64_t m = 0;     // rows
  int64_t cols = 0;  // columns (vertices of a square graph)
  int64_t nnz = 0;
  const int64_t* row_ptr = nullptr;  // [m + 1], device
  const int32_t* col_idx = nullptr;  // [nnz], device
};

// What the launcher chose, for the counters and the benchmark.
struct SpmmPlan {
  int strategy = kRowSplit;  // kRowSplit or kNnzSplit
  int group = 32;            // lanes that share one row (row split) or one chunk (nnz split)
  int64_t chunk = 0;         // nonzeros per group (nnz split)
  // Load X and store Y as float4 / double2 where k allows (k / width >= 8, aligned buffers);
  // the group then counts lanes over vector columns.
  bool vector = true;
  // nnz split: read each chunk's first row from a table built by a small kernel before it, instead
  // of a binary search per chunk (false: the search, kept for the benchmark's comparison).
  bool chunk_table = true;
};

// Choose between the strategies from the row lengths: row split keeps each row in one group of
// lanes (no atomics, no search) and wins until one row's work exceeds what an average group
// does; past that the longest row serialises the kernel and nnz split (equal nonzeros per group,
// rows that cross a chunk boundary combined with atomics) wins. `value_bytes` (4 or 8) sizes the
// vector loads, which set how many lanes share a row and so the nnz split's chunk.
SpmmPlan plan_spmm(int64_t m, int64_t nnz, int64_t max_row, int64_t k, int sms, int strategy, int value_bytes);

// Y[m x k] = A * X[cols x k] (row-major, T = float or double). `values` may be null (a pattern
// matrix: every stored entry is 1). Y is fully overwritten.
template <typename T>
cudaError_t spmm(cudaStream_t s, const LocalCsr& a, const T* values, const T* x, int64_t k, T* y, int* err, const SpmmPlan& plan);

// Breadth-first search from `source`. `out` and `in` (the transpose; the same arrays for an
// undirected graph) are device CSRs of one square graph. Direction-optimising (Beamer): each
// level is expanded top-down from a frontier queue or bottom-up over the unvisited vertices,
// switching on the frontier's edges against the unexplored edges (alpha) and on the frontier's
// size against n (beta). `direction`: 0 auto, 1 top-down only, 2 bottom-up only.
struct BfsWork {
  int32_t* depth = nullptr;     // [n] device, output
  int32_t* queue_a = nullptr;   // [n] device, scratch
  int32_t* queue_b = nullptr;   // [n] device, scratch
  unsigned long long* counters = nullptr;  // [3 * max(batch_levels, 1)] device, scratch
  int* err = nullptr;           // device
  unsigned long long* host_counters = nullptr;  // as counters, pinned host memory
  // Top-down levels that may be launched back to back on thin frontiers before the host reads
  // their counters (1: read after every level).
  int batch_levels = 1;
};
// Where a search starts. `level` -1: afresh from the source. Otherwise the caller has uploaded a
// search in progress into `BfsWork::depth` (0..level found, -1 not yet) and its frontier (the
// vertices at `level`) into `queue_a`; `frontier`, `scout` (their out-edges) and `edges_to_check`
// (the out-edges of the vertices not yet found or in the frontier) are as the host counted them.
// `max_levels` > 0 stops after that many steps, leaving a search that can be resumed.
struct BfsStart {
  int32_t level = -1;
  int64_t frontier = 1;
  int64_t scout = 0;
  int64_t edges_to_check = 0;
  int64_t max_levels = 0;
};
struct BfsResult {
  std::vector<int64_t> frontier;   // vertices discovered at each depth, [0] = 1 (the source)
  std::vector<uint8_t> bottom_up;  // whether the step producing each next level ran bottom-up
  int64_t edges_examined = 0;
};
cudaError_t bfs(cudaStream_t s, const LocalCsr& out, const LocalCsr& in, int64_t source, int direction, double alpha,
                double beta, const BfsWork& w, const BfsStart& start, BfsResult* result);

// Bit-parallel multi-source BFS: 64 sources per 64-bit word, every batch of 64 advanced together
// one level per launch by pulling frontier bits over in-edges. `depths` is [num_sources x n]
// device memory, row s for sources[s]; `words` is 3 * batches * n device words of scratch.
struct MsBfsWork {
  const int32_t* sources = nullptr;  // [num_sources] device
  int64_t num_sources = 0;
  int32_t* depths = nullptr;
  unsigned long long* words = nullptr;
  unsigned long long* counters = nullptr;  // [2] device
  int* err = nullptr;
  unsigned long long* host_counters = nullptr;  // [2] pinned
};
cudaError_t msbfs(cudaStream_t s, const LocalCsr& in, const MsBfsWork& w, int64_t* levels, int64_t* edges_examined);

}  // namespace cuda
}  // namespace dype
