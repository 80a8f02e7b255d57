// The GPU benchmark's timing harness, built by bench/gpu/run.ts where nvcc exists: times dype's
// CUDA kernels (the same kernels.cu the addon links) and, where the toolkit has it, cuSPARSE's
// cusparseSpMM on the same device buffers in the same process, with CUDA events; checks every
// result (ours against cuSPARSE and a CPU reference on sampled rows, BFS depths exactly against
// a CPU search). Prints one JSON object per command on stdout.
//
//   harness info
//   harness spmm FILE K f32|f64 REPS
//   harness bfs FILE SOURCES REPS
//   harness msbfs FILE SOURCES REPS
//
// FILE is a CSR written by bench/gpu/run.ts: "DYPECSR1", int64 rows, cols, nnz, int64 rowPtr[rows+1],
// int32 colIdx[nnz]. Values are generated here (a hash of the position, in [-1, 1]).
#include <cuda_runtime.h>
#ifndef DYPE_NO_CUSPARSE
#include <cusparse.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "cuda/kernels.cuh"

using dype::cuda::LocalCsr;

namespace {

#define CHECK(expr)                                                                                  \
  do {                                                                                               \
    cudaError_t e_ = (expr);                                                                         \
    if (e_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "harness: %s failed: %s (%s:%d)\n", #expr, cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)

struct HostCsr {
  int64_t rows = 0, cols = 0, nnz = 0;
  std::vector<int64_t> rp;
  std::vector<int32_t> ci;
};

HostCsr read_csr(const char* path) {
  HostCsr a;
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "harness: cannot open %s\n", path);
    std::exit(1);
  }
  char magic[8];
  int64_t hdr[3];
  if (std::fread(magic, 1, 8, f) != 8 || std::memcmp(magic, "DYPECSR1", 8) != 0 || std::fread(hdr, 8, 3, f) != 3) {
    std::fprintf(stderr, "harness: %s is not a DYPECSR1 file\n", path);
    std::exit(1);
  }
  a.rows = hdr[0];
  a.cols = hdr[1];
  a.nnz = hdr[2];
  a.rp.resize(static_cast<size_t>(a.rows + 1));
  a.ci.resize(static_cast<size_t>(a.nnz));
  if (std::fread(a.rp.data(), 8, a.rp.size(), f) != a.rp.size() || std::fread(a.ci.data(), 4, a.ci.size(), f) != a.ci.size()) {
    std::fprintf(stderr, "harness: %s is truncated\n", path);
    std::exit(1);
  }
  std::fclose(f);
  return a;
}

double hash_unit(uint64_t i) {
  i ^= i >> 33;
  i *= 0xff51afd7ed558ccdULL;
  i ^= i >> 33;
  i *= 0xc4ceb9fe1a85ec53ULL;
  i ^= i >> 33;
  return static_cast<double>(i >> 11) / static_cast<double>(1ULL << 53) * 2.0 - 1.0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Median milliseconds of `reps` runs of f (after two warm-ups), each between two events.
template <class F>
double time_ms(int reps, F&& f) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 2; ++i) f();
  CHECK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(ms);
}

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)));
  CHECK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

void info() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  int mem_clock = 0, bus = 0, clock = 0;
  cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0);
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  const double peak_gbs = mem_clock * 1e3 * 2.0 * (bus / 8.0) / 1e9;
  std::printf("{\"kind\":\"info\",\"name\":\"%s\",\"sms\":%d,\"cc\":\"%d.%d\",\"memoryBytes\":%zu,\"l2Bytes\":%d,"
              "\"clockMhz\":%.0f,\"memoryClockMhz\":%.0f,\"busWidthBits\":%d,\"peakGBs\":%.1f,\"runtime\":%d,\"driver\":%d,"
              "\"cusparse\":%s}\n",
              p.name, p.multiProcessorCount, p.major, p.minor, p.totalGlobalMem, p.l2CacheSize, clock / 1e3, mem_clock / 1e3,
              bus, peak_gbs, rt, drv,
#ifdef DYPE_NO_CUSPARSE
              "false"
#else
              "true"
#endif
  );
}

template <typename T>
void spmm(const HostCsr& a, int64_t k, int reps, const char* prec) {
  std::vector<T> val(static_cast<size_t>(a.nnz)), x(static_cast<size_t>(a.cols * k));
  for (int64_t j = 0; j < a.nnz; ++j) val[static_cast<size_t>(j)] = static_cast<T>(hash_unit(static_cast<uint64_t>(j)));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(hash_unit(0x9e3779b97f4a7c15ULL + i));
  int64_t max_row = 0;
  for (int64_t r = 0; r < a.rows; ++r) max_row = std::max(max_row, a.rp[static_cast<size_t>(r + 1)] - a.rp[static_cast<size_t>(r)]);
  int64_t* d_rp = upload(a.rp);
  int32_t* d_ci = upload(a.ci);
  T* d_val = upload(val);
  T* d_x = upload(x);
  T* d_y = nullptr;
  int* d_err = nullptr;
  const size_t y_elems = static_cast<size_t>(a.rows * k);
  CHECK(cudaMalloc(&d_y, std::max<size_t>(1, y_elems) * sizeof(T)));
  CHECK(cudaMalloc(&d_err, sizeof(int)));
  CHECK(cudaMemset(d_err, 0, sizeof(int)));
  LocalCsr l;
  l.m = a.rows;
  l.cols = a.cols;
  l.nnz = a.nnz;
  l.row_ptr = d_rp;
  l.col_idx = d_ci;
  int sms = 1;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const dype::cuda::SpmmPlan plan_auto = dype::cuda::plan_spmm(a.rows, a.nnz, max_row, k, sms, dype::cuda::kAuto);
  const dype::cuda::SpmmPlan plan_row = dype::cuda::plan_spmm(a.rows, a.nnz, max_row, k, sms, dype::cuda::kRowSplit);
  const dype::cuda::SpmmPlan plan_nnz = dype::cuda::plan_spmm(a.rows, a.nnz, max_row, k, sms, dype::cuda::kNnzSplit);
  auto run = [&](const dype::cuda::SpmmPlan& p) { CHECK(dype::cuda::spmm<T>(nullptr, l, d_val, d_x, k, d_y, d_err, p)); };
  const double row_ms = time_ms(reps, [&] { run(plan_row); });
  const double nnz_ms = time_ms(reps, [&] { run(plan_nnz); });
  // The chosen strategy with scalar loads of X (no float4 / double2), for comparison.
  dype::cuda::SpmmPlan plan_scalar = plan_auto;
  plan_scalar.vector = false;
  const double scalar_ms = time_ms(reps, [&] { run(plan_scalar); });
  std::vector<T> y_scalar(y_elems);
  run(plan_scalar);
  CHECK(cudaMemcpy(y_scalar.data(), d_y, y_elems * sizeof(T), cudaMemcpyDeviceToHost));
  // Check our row-split result against a CPU reference on sampled rows, and nnz split against it.
  std::vector<T> y_row(y_elems), y_nnz(y_elems);
  run(plan_row);
  CHECK(cudaMemcpy(y_row.data(), d_y, y_elems * sizeof(T), cudaMemcpyDeviceToHost));
  run(plan_nnz);
  CHECK(cudaMemcpy(y_nnz.data(), d_y, y_elems * sizeof(T), cudaMemcpyDeviceToHost));
  int err = 0;
  CHECK(cudaMemcpy(&err, d_err, sizeof(int), cudaMemcpyDeviceToHost));
  double worst_ref = 0, worst_split = 0;
  const int64_t step = std::max<int64_t>(1, a.rows / 2000);
  for (int64_t r = 0; r < a.rows; r += step) {
    for (int64_t c = 0; c < k; ++c) {
      double ref = 0, mag = 0;
      for (int64_t j = a.rp[static_cast<size_t>(r)]; j < a.rp[static_cast<size_t>(r + 1)]; ++j) {
        const double t = static_cast<double>(val[static_cast<size_t>(j)]) * static_cast<double>(x[static_cast<size_t>(a.ci[static_cast<size_t>(j)] * k + c)]);
        ref += t;
        mag += std::fabs(t);
      }
      const double scale = mag + 1e-30;
      worst_ref = std::max(worst_ref, std::fabs(static_cast<double>(y_row[static_cast<size_t>(r * k + c)]) - ref) / scale);
      worst_split = std::max(worst_split, std::fabs(static_cast<double>(y_nnz[static_cast<size_t>(r * k + c)]) - ref) / scale);
      worst_split = std::max(worst_split, std::fabs(static_cast<double>(y_scalar[static_cast<size_t>(r * k + c)]) - ref) / scale);
    }
  }
  double cus_ms = -1, cus_diff = -1;
  std::string cus_alg = "none";
#ifndef DYPE_NO_CUSPARSE
  if (a.nnz < INT32_MAX) {
    std::vector<int32_t> rp32(a.rp.begin(), a.rp.end());
    int32_t* d_rp32 = upload(rp32);
    cusparseHandle_t h;
    cusparseCreate(&h);
    cusparseSpMatDescr_t A;
    cusparseDnMatDescr_t B, C;
    const cudaDataType dt = sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
    cusparseCreateCsr(&A, a.rows, a.cols, a.nnz, d_rp32, d_ci, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, dt);
    T* d_c = nullptr;
    CHECK(cudaMalloc(&d_c, std::max<size_t>(1, y_elems) * sizeof(T)));
    cusparseCreateDnMat(&B, a.cols, k, k, d_x, dt, CUSPARSE_ORDER_ROW);
    cusparseCreateDnMat(&C, a.rows, k, k, d_c, dt, CUSPARSE_ORDER_ROW);
    const T alpha = 1, beta = 0;
    const cusparseSpMMAlg_t algs[] = {CUSPARSE_SPMM_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3};
    const char* names[] = {"default", "csr_alg2", "csr_alg3"};
    for (int i = 0; i < 3; ++i) {
      size_t bytes = 0;
      if (cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, dt,
                                  algs[i], &bytes) != CUSPARSE_STATUS_SUCCESS)
        continue;
      void* buf = nullptr;
      CHECK(cudaMalloc(&buf, std::max<size_t>(bytes, 1)));
      if (algs[i] == CUSPARSE_SPMM_CSR_ALG3 &&
          cusparseSpMM_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, dt,
                                  algs[i], buf) != CUSPARSE_STATUS_SUCCESS) {
        cudaFree(buf);
        continue;
      }
      bool ok = true;
      const double ms = time_ms(reps, [&] {
        ok &= cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, dt, algs[i],
                           buf) == CUSPARSE_STATUS_SUCCESS;
      });
      cudaFree(buf);
      if (ok && (cus_ms < 0 || ms < cus_ms)) {
        cus_ms = ms;
        cus_alg = names[i];
      }
    }
    if (cus_ms >= 0) {
      // Recompute with the best algorithm and compare every element with ours.
      std::vector<T> yc(y_elems);
      size_t bytes = 0;
      const int best = cus_alg == "default" ? 0 : cus_alg == "csr_alg2" ? 1 : 2;
      cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, dt, algs[best],
                              &bytes);
      void* buf = nullptr;
      CHECK(cudaMalloc(&buf, std::max<size_t>(bytes, 1)));
      if (best == 2)
        cusparseSpMM_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, dt,
                                algs[best], buf);
      cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, dt, algs[best], buf);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(yc.data(), d_c, y_elems * sizeof(T), cudaMemcpyDeviceToHost));
      cudaFree(buf);
      double num = 0, den = 0;
      for (size_t i = 0; i < y_elems; ++i) {
        num = std::max(num, std::fabs(static_cast<double>(yc[i]) - static_cast<double>(y_row[i])));
        den = std::max(den, std::fabs(static_cast<double>(yc[i])));
      }
      cus_diff = num / (den + 1e-30);
    }
    cusparseDestroySpMat(A);
    cusparseDestroyDnMat(B);
    cusparseDestroyDnMat(C);
    cusparseDestroy(h);
    cudaFree(d_c);
    cudaFree(d_rp32);
  }
#endif
  const double auto_ms = plan_auto.strategy == dype::cuda::kNnzSplit ? nnz_ms : row_ms;
  const double flops = 2.0 * static_cast<double>(a.nnz) * static_cast<double>(k);
  // Compulsory traffic: the matrix once, X once, Y once.
  const double bytes = static_cast<double>(a.rows + 1) * 8 + static_cast<double>(a.nnz) * (4 + sizeof(T)) +
                       static_cast<double>(a.cols + a.rows) * static_cast<double>(k) * sizeof(T);
  std::printf("{\"kind\":\"spmm\",\"precision\":\"%s\",\"k\":%lld,\"rows\":%lld,\"nnz\":%lld,\"maxRow\":%lld,"
              "\"autoStrategy\":\"%s\",\"group\":%d,\"rowMs\":%.6f,\"nnzMs\":%.6f,\"autoMs\":%.6f,\"scalarMs\":%.6f,\"cusparseMs\":%.6f,"
              "\"cusparseAlg\":\"%s\",\"gflops\":%.3f,\"effectiveGBs\":%.3f,\"relErrRow\":%.3g,\"relErrNnz\":%.3g,"
              "\"relDiffCusparse\":%.3g,\"err\":%d}\n",
              prec, static_cast<long long>(k), static_cast<long long>(a.rows), static_cast<long long>(a.nnz),
              static_cast<long long>(max_row), plan_auto.strategy == dype::cuda::kNnzSplit ? "nnz-split" : "row-split", plan_auto.group,
              row_ms, nnz_ms, auto_ms, scalar_ms, cus_ms, cus_alg.c_str(), flops / (auto_ms * 1e-3) / 1e9, bytes / (auto_ms * 1e-3) / 1e9,
              worst_ref, worst_split, cus_diff, err);
  cudaFree(d_rp);
  cudaFree(d_ci);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_err);
}

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
  LocalCsr g;
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
    auto run = [&](int direction) { CHECK(dype::cuda::bfs(nullptr, d.g, d.g, src, direction, 15.0, 18.0, w, &r)); };
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

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "info") == 0) {
    info();
    return 0;
  }
  if (argc < 6 && !(argc == 5 && std::strcmp(argv[1], "spmm") != 0)) {
    std::fprintf(stderr, "usage: harness info | spmm FILE K f32|f64 REPS | bfs FILE SOURCES REPS | msbfs FILE SOURCES REPS\n");
    return 2;
  }
  const std::string cmd = argv[1];
  const HostCsr a = read_csr(argv[2]);
  if (cmd == "spmm") {
    const int64_t k = std::atoll(argv[3]);
    const int reps = std::atoi(argv[5]);
    if (std::strcmp(argv[4], "f64") == 0) spmm<double>(a, k, reps, "f64");
    else spmm<float>(a, k, reps, "f32");
  } else if (cmd == "bfs") {
    bfs(a, std::atoi(argv[3]), std::atoi(argv[4]));
  } else if (cmd == "msbfs") {
    msbfs(a, std::atoi(argv[3]), std::atoi(argv[4]));
  } else {
    std::fprintf(stderr, "harness: unknown command %s\n", cmd.c_str());
    return 2;
  }
  return 0;
}
