// The CUDA operators: SpMM/SpMV, BFS and multi-source BFS, each checking on the host what the
// kernels will read, moving operands to the device and back on the operator's own stream, and
// timing with events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "runtime_internal.cuh"

namespace dype {
namespace gpu {
namespace {

using namespace rt;

// The first column index outside [0, bound) in [from, to), for the error message (the kernels
// only flag that one exists).
Status bad_column_status(const char* fn, const Csr& g, int64_t from, int64_t to, int64_t bound, const char* graph) {
  for (int64_t j = from; j < to; ++j) {
    const int32_t c = g.col_idx[j];
    if (c < 0 || c >= bound) {
      return Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(j) + "] = " + std::to_string(c) + graph +
                             " is outside [0, " + std::to_string(bound) + ")");
    }
  }
  return Status::invalid(std::string(fn) + ": a column index" + graph + " was outside [0, " + std::to_string(bound) +
                         ") while the kernel ran (changed after validation)");
}

template <typename T>
bool all_finite(const T* y, size_t n) {
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok &= (y[i] - y[i]) == T(0);
  return ok;
}

template <typename T>
Status spmm_typed(const char* fn, const SpmmArgs& s, int strategy, Run* run) {
  const int64_t m = s.row_end - s.row_begin;
  const int64_t k = s.k;
  const int64_t base = s.a.ptr(s.row_begin);
  const int64_t nnz = s.a.ptr(s.row_end) - base;
  int64_t max_row = 0;
  const std::vector<int64_t> rp = local_row_ptr(s.a, s.row_begin, s.row_end, &max_row);
  // Values in the dense type (converted on the host when the matrix stores the other one).
  std::vector<T> converted;
  const T* values = nullptr;
  if (s.a.value_type != ValueType::kNone) {
    const bool same = (s.a.value_type == ValueType::kF32) == (sizeof(T) == 4);
    if (same) {
      values = static_cast<const T*>(s.a.values) + base;
    } else {
      converted.resize(static_cast<size_t>(nnz));
      for (int64_t j = 0; j < nnz; ++j) {
        converted[static_cast<size_t>(j)] = s.a.value_type == ValueType::kF32
                                                ? static_cast<T>(static_cast<const float*>(s.a.values)[base + j])
                                                : static_cast<T>(static_cast<const double*>(s.a.values)[base + j]);
      }
      values = converted.data();
    }
  }
  const size_t x_elems = static_cast<size_t>(s.a.cols) * static_cast<size_t>(k);
  const size_t y_elems = static_cast<size_t>(m) * static_cast<size_t>(k);
  // Column indices and values may be resident (prefetched): then the whole arrays are on the
  // device and this range starts at `base` within them.
  const size_t total_nnz = static_cast<size_t>(s.a.nnz);
  std::shared_ptr<DeviceBuffer> ci_res = Context::find(s.a.col_idx, total_nnz);
  std::shared_ptr<DeviceBuffer> val_res = values && values == static_cast<const T*>(s.a.values) + base
                                              ? Context::find(static_cast<const T*>(s.a.values), total_nnz)
                                              : nullptr;
  std::shared_ptr<DeviceBuffer> x_res = Context::find(static_cast<const T*>(s.x), x_elems);
  const bool ci_resident = ci_res != nullptr, val_resident = val_res != nullptr, x_resident = x_res != nullptr;
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(static_cast<double>(rp.size()) * 8 + static_cast<double>(nnz) * ((ci_resident ? 0 : 4) + (values && !val_resident ? sizeof(T) : 0)) +
                      static_cast<double>((x_resident ? 0 : x_elems) + y_elems) * sizeof(T) + 64));
  int64_t* d_rp = nullptr;
  const int32_t* d_ci = nullptr;
  const T* d_val = nullptr;
  const T* d_x = nullptr;
  T* d_y = nullptr;
  int* d_err = nullptr;
  DYPE_OK(ctx.alloc(&d_rp, rp.size(), "allocating row pointers"));
  DYPE_OK(ctx.alloc(&d_y, y_elems, "allocating Y"));
  DYPE_OK(ctx.alloc(&d_err, 1, "allocating the error word"));
  int* h_err = nullptr;
  DYPE_OK(ctx.pinned(&h_err, 1));
  *h_err = 0;

  DYPE_OK(ctx.mark(0));
  DYPE_OK(ctx.to_device(d_rp, rp.data(), rp.size() * sizeof(int64_t)));
  if (ci_resident) d_ci = ctx.adopt<int32_t>(std::move(ci_res), total_nnz) + base;
  else DYPE_OK(ctx.input(&d_ci, s.a.col_idx + base, static_cast<size_t>(nnz), "allocating column indices"));
  if (val_resident) d_val = ctx.adopt<T>(std::move(val_res), total_nnz) + base;
  else if (values) DYPE_OK(ctx.input(&d_val, values, static_cast<size_t>(nnz), "allocating values"));
  if (x_resident) d_x = ctx.adopt<T>(std::move(x_res), x_elems);
  else DYPE_OK(ctx.input(&d_x, static_cast<const T*>(s.x), x_elems, "allocating X"));
  DYPE_CUDA_TRY(fn, "clearing the error word", cudaMemsetAsync(d_err, 0, sizeof(int), ctx.stream()));
  DYPE_OK(ctx.mark(1));
  cuda::LocalCsr a;
  a.m = m;
  a.cols = s.a.cols;
  a.nnz = nnz;
  a.row_ptr = d_rp;
  a.col_idx = d_ci;
  const cuda::SpmmPlan plan = cuda::plan_spmm(m, nnz, max_row, k, probe().sms, strategy, static_cast<int>(sizeof(T)));
  DYPE_CUDA_TRY(fn, "launching SpMM", cuda::spmm<T>(ctx.stream(), a, d_val, d_x, k, d_y, d_err, plan));
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(s.y, d_y, y_elems * sizeof(T)));
  DYPE_OK(ctx.to_host(h_err, d_err, sizeof(int)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  run->strategy = plan.strategy;
  run->group = plan.group;
  if (*h_err != 0) return bad_column_status(fn, s.a, base, base + nnz, s.a.cols, "");
  if (!all_finite(static_cast<const T*>(s.y), y_elems)) {
    const T* x = static_cast<const T*>(s.x);
    for (size_t i = 0; i < x_elems; ++i) {
      if (!((x[i] - x[i]) == T(0))) {
        return Status::invalid(std::string(fn) + ": x element (" + std::to_string(i / k) + ", " + std::to_string(i % k) +
                               ") is not finite");
      }
    }
    return Status::invalid(std::string(fn) + ": the result is not finite (overflow, or values that are not finite)");
  }
  return Status{};
}

// A graph's CSR on the device: row pointers as int64 and the column indices.
struct DeviceGraph {
  int64_t* rp = nullptr;
  int32_t* ci = nullptr;
};

// Row pointers are rebased and copied for every call (checked on the host first); the column
// indices may be resident. A graph whose row pointers do not start at 0 reads its column
// indices from its first edge on.
Status upload_graph(Context& ctx, const Csr& g, DeviceGraph* d, const char* what) {
  const std::vector<int64_t> rp = local_row_ptr(g, 0, g.rows, nullptr);
  DYPE_OK(ctx.alloc(&d->rp, rp.size(), what));
  DYPE_OK(ctx.to_device(d->rp, rp.data(), rp.size() * sizeof(int64_t)));
  const int64_t first = g.ptr(0), edges = g.ptr(g.rows) - first;
  const int32_t* ci = nullptr;
  if (first == 0 && edges == g.nnz) {
    DYPE_OK(ctx.input(&ci, g.col_idx, static_cast<size_t>(g.nnz), what));
  } else {
    DYPE_OK(ctx.input(&ci, g.col_idx + first, static_cast<size_t>(edges), what));
  }
  d->ci = const_cast<int32_t*>(ci);
  return Status{};
}

double graph_device_bytes(const Csr& g) {
  return static_cast<double>(g.rows + 1) * 8 +
         (Context::find(g.col_idx, static_cast<size_t>(g.nnz)) ? 0.0 : static_cast<double>(g.nnz) * 4);
}

// Thin top-down BFS levels launched back to back before the host reads their counters.
constexpr int kBfsBatchLevels = 64;

// A resumed search's starting point, read from the depths on the host (one pass, as the CPU's
// resume makes): the frontier (every vertex at the start level), its out-edges (Beamer's scout
// count) and the out-edges of the vertices not yet reached or expanded. Depths outside
// [-1, level] are refused, named by vertex, before anything is copied.
Status resumed_frontier(const char* fn, const BfsArgs& a, cuda::BfsStart* start, std::vector<int32_t>* frontier) {
  const int64_t n = a.out.rows;
  const int32_t level = a.start_level;
  if (level >= n) {
    return Status::invalid(std::string(fn) + ": start level " + std::to_string(level) + " is outside [0, " + std::to_string(n) + ")");
  }
  int64_t scout = 0, explored = 0;
  for (int64_t v = 0; v < n; ++v) {
    const int32_t d = a.depth[v];
    if (d == -1) continue;
    if (d < -1 || d > level) {
      return Status::invalid(std::string(fn) + ": depth[" + std::to_string(v) + "] = " + std::to_string(d) + " is outside [-1, " +
                             std::to_string(level) + "] (resuming at level " + std::to_string(level) + ")");
    }
    const int64_t degree = a.out.ptr(v + 1) - a.out.ptr(v);
    if (d == level) {
      frontier->push_back(static_cast<int32_t>(v));
      scout += degree;
    } else {
      explored += degree;
    }
  }
  start->level = level;
  start->frontier = static_cast<int64_t>(frontier->size());
  start->scout = scout;
  start->edges_to_check = std::max<int64_t>(0, a.out.nnz - explored);
  return Status{};
}

bool same_graph(const Csr& a, const Csr& b) { return a.row_ptr == b.row_ptr && a.col_idx == b.col_idx; }

cuda::LocalCsr local(const Csr& g, const DeviceGraph& d) {
  cuda::LocalCsr l;
  l.m = g.rows;
  l.cols = g.cols;
  l.nnz = g.ptr(g.rows) - g.ptr(0);
  l.row_ptr = d.rp;
  l.col_idx = d.ci;
  return l;
}

}  // namespace

Status spmm(const char* fn, const SpmmArgs& s, int strategy, Run* run) {
  if (s.row_begin < 0 || s.row_end < s.row_begin || s.row_end > s.a.rows) {
    return Status::invalid(std::string(fn) + ": row range [" + std::to_string(s.row_begin) + ", " + std::to_string(s.row_end) +
                           ") is outside [0, " + std::to_string(s.a.rows) + "]");
  }
  if (s.k < 0) return Status::invalid(std::string(fn) + ": k must be non-negative");
  if (strategy < 0 || strategy > 2) return Status::invalid(std::string(fn) + ": strategy must be 0, 1 or 2");
  if (s.row_end == s.row_begin || s.k == 0) return Status{};
  DYPE_OK(check_row_ptr(fn, s.a, s.row_begin, s.row_end));
  return s.type == DenseType::kF32 ? spmm_typed<float>(fn, s, strategy, run) : spmm_typed<double>(fn, s, strategy, run);
}

Status bfs(const char* fn, const BfsArgs& a, BfsStats* stats, Run* run) {
  const int64_t n = a.out.rows;
  if (a.source < 0 || a.source >= n) return Status::invalid(std::string(fn) + ": source is outside [0, " + std::to_string(n) + ")");
  if (a.parent) return Status{false, "ERR_UNSUPPORTED", std::string(fn) + ": the GPU search records depths, not parents"};
  DYPE_OK(check_row_ptr(fn, a.out, 0, n));
  const bool undirected = same_graph(a.out, a.in);
  if (!undirected) DYPE_OK(check_row_ptr(fn, a.in, 0, n));
  cuda::BfsStart start;
  start.max_levels = a.max_levels;
  std::vector<int32_t> frontier;
  if (a.start_level >= 0) DYPE_OK(resumed_frontier(fn, a, &start, &frontier));
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(graph_device_bytes(a.out) + (undirected ? 0.0 : graph_device_bytes(a.in)) + static_cast<double>(n) * 12 +
                      3.0 * 8 * kBfsBatchLevels + 64));
  DeviceGraph out, in;
  cuda::BfsWork w;
  DYPE_OK(ctx.mark(0));
  DYPE_OK(upload_graph(ctx, a.out, &out, "allocating the graph"));
  if (undirected) in = out;
  else DYPE_OK(upload_graph(ctx, a.in, &in, "allocating the in-edges"));
  DYPE_OK(ctx.alloc(&w.depth, static_cast<size_t>(n), "allocating depths"));
  DYPE_OK(ctx.alloc(&w.queue_a, static_cast<size_t>(n), "allocating the frontier"));
  DYPE_OK(ctx.alloc(&w.queue_b, static_cast<size_t>(n), "allocating the frontier"));
  w.batch_levels = kBfsBatchLevels;
  DYPE_OK(ctx.alloc(&w.counters, 3 * kBfsBatchLevels, "allocating counters"));
  DYPE_OK(ctx.alloc(&w.err, 1, "allocating the error word"));
  DYPE_OK(ctx.pinned(&w.host_counters, 3 * kBfsBatchLevels));
  int* h_err = nullptr;
  DYPE_OK(ctx.pinned(&h_err, 1));
  *h_err = 0;
  DYPE_CUDA_TRY(fn, "clearing the error word", cudaMemsetAsync(w.err, 0, sizeof(int), ctx.stream()));
  if (start.level >= 0) {  // the search so far goes in with the graph
    DYPE_OK(ctx.to_device(w.depth, a.depth, static_cast<size_t>(n) * sizeof(int32_t)));
    DYPE_OK(ctx.to_device(w.queue_a, frontier.data(), frontier.size() * sizeof(int32_t)));
  }
  DYPE_OK(ctx.mark(1));
  cuda::BfsResult r;
  DYPE_CUDA_TRY(fn, "running BFS",
                cuda::bfs(ctx.stream(), local(a.out, out), local(a.in, in), a.source, static_cast<int>(a.direction), a.alpha,
                          a.beta, w, start, &r));
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(a.depth, w.depth, static_cast<size_t>(n) * sizeof(int32_t)));
  DYPE_OK(ctx.to_host(h_err, w.err, sizeof(int)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  run->levels = static_cast<int64_t>(r.frontier.size());
  if (*h_err != 0) {
    Status st = bad_column_status(fn, a.out, 0, a.out.nnz, n, " of the graph");
    if (!undirected && st.message.find("while the kernel ran") != std::string::npos) {
      st = bad_column_status(fn, a.in, 0, a.in.nnz, n, " of the in-edges");
    }
    return st;
  }
  stats->frontier = std::move(r.frontier);
  stats->bottom_up = std::move(r.bottom_up);
  stats->edges_examined = r.edges_examined;
  return Status{};
}

Status msbfs(const char* fn, const MsBfsArgs& a, int64_t* edges_examined, Run* run) {
  const int64_t n = a.out.rows;
  *edges_examined = 0;
  for (int64_t i = 0; i < a.num_sources; ++i) {
    if (a.sources[i] < 0 || a.sources[i] >= n) {
      return Status::invalid(std::string(fn) + ": sources[" + std::to_string(i) + "] = " + std::to_string(a.sources[i]) +
                             " is outside [0, " + std::to_string(n) + ")");
    }
  }
  if (a.num_sources == 0 || n == 0) return Status{};
  const bool undirected = same_graph(a.out, a.in);
  const Csr& g = a.in;  // the pull reads in-edges
  DYPE_OK(check_row_ptr(fn, g, 0, n));
  const int64_t batches = (a.num_sources + 63) / 64;
  Context ctx(fn);
  DYPE_OK(ctx.open());
  const double words = static_cast<double>(batches) * static_cast<double>(n);
  DYPE_OK(ctx.reserve(graph_device_bytes(g) + words * 24 +
                      static_cast<double>(a.num_sources) * (static_cast<double>(n) * 4 + 4) + 64));
  DeviceGraph in;
  cuda::MsBfsWork w;
  w.num_sources = a.num_sources;
  int32_t* d_sources = nullptr;
  DYPE_OK(ctx.mark(0));
  DYPE_OK(upload_graph(ctx, g, &in, undirected ? "allocating the graph" : "allocating the in-edges"));
  DYPE_OK(ctx.alloc(&d_sources, static_cast<size_t>(a.num_sources), "allocating sources"));
  DYPE_OK(ctx.to_device(d_sources, a.sources, static_cast<size_t>(a.num_sources) * sizeof(int32_t)));
  w.sources = d_sources;
  DYPE_OK(ctx.alloc(&w.depths, static_cast<size_t>(a.num_sources) * static_cast<size_t>(n), "allocating depths"));
  DYPE_OK(ctx.alloc(&w.words, static_cast<size_t>(3 * words), "allocating frontier words"));
  DYPE_OK(ctx.alloc(&w.counters, 2, "allocating counters"));
  DYPE_OK(ctx.alloc(&w.err, 1, "allocating the error word"));
  DYPE_OK(ctx.pinned(&w.host_counters, 2));
  int* h_err = nullptr;
  DYPE_OK(ctx.pinned(&h_err, 1));
  *h_err = 0;
  DYPE_CUDA_TRY(fn, "clearing the error word", cudaMemsetAsync(w.err, 0, sizeof(int), ctx.stream()));
  DYPE_OK(ctx.mark(1));
  int64_t levels = 0;
  DYPE_CUDA_TRY(fn, "running multi-source BFS", cuda::msbfs(ctx.stream(), local(g, in), w, &levels, edges_examined));
  DYPE_OK(ctx.mark(2));
  DYPE_OK(ctx.to_host(a.depths, w.depths, static_cast<size_t>(a.num_sources) * static_cast<size_t>(n) * sizeof(int32_t)));
  DYPE_OK(ctx.to_host(h_err, w.err, sizeof(int)));
  DYPE_OK(ctx.mark(3));
  DYPE_OK(ctx.sync());
  ctx.finish(run);
  run->levels = levels;
  if (*h_err != 0) return bad_column_status(fn, g, 0, g.nnz, n, undirected ? " of the graph" : " of the in-edges");
  return Status{};
}

}  // namespace gpu
}  // namespace dype
