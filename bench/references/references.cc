// Reference implementations measured side by side with dype's kernels in the same process:
// Eigen 3.4's sparse * dense product (OpenMP, as many threads as dype uses), the textbook
// OpenMP row-parallel CSR SpMM loop, a plain serial queue-based BFS and a GAP-style
// direction-optimising BFS (gap_bfs.h); SuiteSparse:GraphBLAS
// (graphblas.cc) where it is installed. Benchmark-only; never part of the dype addon.
#include <napi.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef DYPE_HAVE_GRAPHBLAS
#include "graphblas.h"
#endif
#include "gap_bfs.h"

#ifdef DYPE_HAVE_OPENBLAS
void InitBlas(Napi::Env env, Napi::Object exports);  // blas.cc
#endif

namespace {

template <typename T>
T* data_of(const Napi::Value& v) {
  auto a = v.As<Napi::TypedArray>();
  return reinterpret_cast<T*>(static_cast<uint8_t*>(a.ArrayBuffer().Data()) + a.ByteOffset());
}

size_t length_of(const Napi::Value& v) { return v.As<Napi::TypedArray>().ElementLength(); }

// eigenSpmm(rows, cols, rowPtr:Int32Array, colIdx:Int32Array, values:Float32Array|Float64Array,
//           x, k, y, threads): synchronous, so the timing includes no event-loop round trip.
template <typename T>
void eigen_spmm(const Napi::CallbackInfo& info) {
  const int rows = info[0].As<Napi::Number>().Int32Value();
  const int cols = info[1].As<Napi::Number>().Int32Value();
  const int* rp = data_of<int>(info[2]);
  const int* ci = data_of<int>(info[3]);
  const T* vals = data_of<T>(info[4]);
  const int nnz = static_cast<int>(length_of(info[3]));
  const T* x = data_of<T>(info[5]);
  const int k = info[6].As<Napi::Number>().Int32Value();
  T* y = data_of<T>(info[7]);
  Eigen::setNbThreads(info[8].As<Napi::Number>().Int32Value());
  using Sparse = Eigen::SparseMatrix<T, Eigen::RowMajor, int>;
  using Dense = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Sparse> a(rows, cols, nnz, rp, ci, vals);
  Eigen::Map<const Dense> xm(x, cols, k);
  Eigen::Map<Dense> ym(y, rows, k);
  ym.noalias() = a * xm;
}

Napi::Value EigenSpmm(const Napi::CallbackInfo& info) {
  if (info[5].As<Napi::TypedArray>().TypedArrayType() == napi_float32_array) {
    eigen_spmm<float>(info);
  } else {
    eigen_spmm<double>(info);
  }
  return info.Env().Undefined();
}

// plainSpmm(rows, cols, rowPtr, colIdx, values, x, k, y, threads): the loop anyone would write
// first (rows in dynamic chunks, the k-wide update left to the compiler's vectoriser), so a
// reader can tell how much of a gap to Eigen is Eigen's generic expression machinery.
template <typename T>
void plain_spmm(const Napi::CallbackInfo& info) {
  const int rows = info[0].As<Napi::Number>().Int32Value();
  const int* rp = data_of<int>(info[2]);
  const int* ci = data_of<int>(info[3]);
  const T* vals = data_of<T>(info[4]);
  const T* x = data_of<T>(info[5]);
  const int k = info[6].As<Napi::Number>().Int32Value();
  T* y = data_of<T>(info[7]);
  const int threads = info[8].As<Napi::Number>().Int32Value();
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (int i = 0; i < rows; ++i) {
    T* __restrict yi = y + static_cast<size_t>(i) * k;
    for (int c = 0; c < k; ++c) yi[c] = T(0);
    for (int p = rp[i]; p < rp[i + 1]; ++p) {
      const T v = vals[p];
      const T* __restrict xj = x + static_cast<size_t>(ci[p]) * k;
#pragma omp simd
      for (int c = 0; c < k; ++c) yi[c] += v * xj[c];
    }
  }
}

Napi::Value PlainSpmm(const Napi::CallbackInfo& info) {
  if (info[5].As<Napi::TypedArray>().TypedArrayType() == napi_float32_array) {
    plain_spmm<float>(info);
  } else {
    plain_spmm<double>(info);
  }
  return info.Env().Undefined();
}

// plainBfs(n, rowPtr, colIdx, source, depth): the textbook serial queue BFS.
Napi::Value PlainBfs(const Napi::CallbackInfo& info) {
  const int n = info[0].As<Napi::Number>().Int32Value();
  const int* rp = data_of<int>(info[1]);
  const int* ci = data_of<int>(info[2]);
  const int source = info[3].As<Napi::Number>().Int32Value();
  int* depth = data_of<int>(info[4]);
  std::vector<int> queue(n);
  std::fill(depth, depth + n, -1);
  int head = 0, tail = 0;
  depth[source] = 0;
  queue[tail++] = source;
  while (head < tail) {
    const int u = queue[head++];
    for (int p = rp[u]; p < rp[u + 1]; ++p) {
      const int v = ci[p];
      if (depth[v] < 0) {
        depth[v] = depth[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  return Napi::Number::New(info.Env(), tail);
}

// gapBfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, parent, threads): the GAP-style
// direction-optimising search (gap_bfs.h) into parent; returns the vertices reached.
Napi::Value GapBfs(const Napi::CallbackInfo& info) {
  gapref::Graph g;
  g.n = info[0].As<Napi::Number>().Int64Value();
  g.rp = data_of<int32_t>(info[1]);
  g.ci = data_of<int32_t>(info[2]);
  g.irp = data_of<int32_t>(info[3]);
  g.ici = data_of<int32_t>(info[4]);
  g.nnz = static_cast<int64_t>(length_of(info[2]));
  const int32_t source = info[5].As<Napi::Number>().Int32Value();
  int32_t* parent = data_of<int32_t>(info[6]);
  omp_set_num_threads(info[7].As<Napi::Number>().Int32Value());
  return Napi::Number::New(info.Env(), static_cast<double>(gapref::search(g, source, parent)));
}

// triad(n, threads): a STREAM-style triad a[i] = b[i] + s * c[i] over three arrays of n doubles,
// best of 5 after a warm-up; returns GB/s (24 bytes a step: two reads, one write). The
// bandwidth the SpMM bounds are priced at, measured in the same run and thread count.
Napi::Value Triad(const Napi::CallbackInfo& info) {
  const int64_t n = info[0].As<Napi::Number>().Int64Value();
  const int threads = info[1].As<Napi::Number>().Int32Value();
  std::vector<double> a(n), b(n, 1.0), c(n, 2.0);
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {
    const double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
    const double s = omp_get_wtime() - t0;
    if (rep > 0) best = std::max(best, 24.0 * static_cast<double>(n) / s / 1e9);
  }
  return Napi::Number::New(info.Env(), best + 0.0 * a[n / 2]);
}

// cacheBandwidth(bytesPerThread, threads): GB/s over a working set of bytesPerThread a thread,
// each thread passing over its own part many times inside one parallel region (no fork per
// pass), so a set smaller than a cache level measures that level. The faster of a read-only sum
// (eight 8-wide accumulators: the loads, not the adds, set the pace) and a triad (two reads, one
// write: 24 bytes a step). The per-level prices of the SpMM bound (bench/kernels/spmm-bounds.ts).
Napi::Value CacheBandwidth(const Napi::CallbackInfo& info) {
  const int64_t bytes = info[0].As<Napi::Number>().Int64Value();
  const int threads = info[1].As<Napi::Number>().Int32Value();
  constexpr int64_t kLanes = 64;
  const int64_t n = std::max<int64_t>(kLanes, bytes / 3 / 8 / kLanes * kLanes);  // doubles per array a thread
  const int64_t passes = std::max<int64_t>(4, (int64_t{256} << 20) / (24 * n));
  std::vector<double> a(n * threads), b(n * threads, 1.0), c(n * threads, 2.0), r(3 * n * threads, 1.0);
  double best_read = 0, best_triad = 0, sink = 0;
  for (int rep = 0; rep < 4; ++rep) {
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
      const double* p = r.data() + 3 * n * omp_get_thread_num();
      double acc[kLanes] = {};
      for (int64_t pass = 0; pass < passes; ++pass) {
        for (int64_t i = 0; i < 3 * n; i += kLanes) {
          for (int64_t j = 0; j < kLanes; ++j) acc[j] += p[i + j];
        }
      }
      for (double v : acc) sink += v;
    }
    const double read_s = omp_get_wtime() - t0;
    t0 = omp_get_wtime();
#pragma omp parallel num_threads(threads)
    {
      const int64_t off = n * omp_get_thread_num();
      double* pa = a.data() + off;
      const double* pb = b.data() + off;
      const double* pc = c.data() + off;
      for (int64_t pass = 0; pass < passes; ++pass) {
        for (int64_t i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
      }
    }
    const double triad_s = omp_get_wtime() - t0;
    if (rep == 0) continue;  // the warm-up: pages faulted in, caches filled
    const double total = static_cast<double>(threads) * static_cast<double>(passes);
    best_read = std::max(best_read, 24.0 * static_cast<double>(n) * total / read_s / 1e9);
    best_triad = std::max(best_triad, 24.0 * static_cast<double>(n) * total / triad_s / 1e9);
  }
  return Napi::Number::New(info.Env(), std::max(best_read, best_triad) + 0.0 * (sink + a[n / 2]));
}

// l1DataCacheBytes(): one core's L1 data cache (48 KiB where sysconf does not say).
Napi::Value L1DataCacheBytes(const Napi::CallbackInfo& info) {
  long bytes = 0;
#ifdef _SC_LEVEL1_DCACHE_SIZE
  bytes = sysconf(_SC_LEVEL1_DCACHE_SIZE);
#endif
  return Napi::Number::New(info.Env(), static_cast<double>(bytes > 0 ? bytes : 48 << 10));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("triad", Napi::Function::New(env, Triad));
  exports.Set("cacheBandwidth", Napi::Function::New(env, CacheBandwidth));
  exports.Set("l1DataCacheBytes", Napi::Function::New(env, L1DataCacheBytes));
  exports.Set("gapBfs", Napi::Function::New(env, GapBfs));
  exports.Set("eigenSpmm", Napi::Function::New(env, EigenSpmm));
  exports.Set("plainSpmm", Napi::Function::New(env, PlainSpmm));
  exports.Set("plainBfs", Napi::Function::New(env, PlainBfs));
  exports.Set("eigenVersion", Napi::String::New(env, std::to_string(EIGEN_WORLD_VERSION) + "." +
                                                         std::to_string(EIGEN_MAJOR_VERSION) + "." +
                                                         std::to_string(EIGEN_MINOR_VERSION)));
#ifdef DYPE_HAVE_GRAPHBLAS
  InitGraphBLAS(env, exports);
#endif
#ifdef DYPE_HAVE_OPENBLAS
  InitBlas(env, exports);
#endif
  return exports;
}

}  // namespace

static Napi::Object InitAll(Napi::Env env, Napi::Object exports) { return Init(env, exports); }
NODE_API_MODULE(dype_bench_refs, InitAll)
