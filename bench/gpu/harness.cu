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
#include "harness_common.cuh"
#include "harness_search.cuh"

using dype::cuda::LocalCsr;

namespace {

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
  const dype::cuda::SpmmPlan plan_auto = dype::cuda::plan_spmm(a.rows, a.nnz, max_row, k, sms, dype::cuda::kAuto, static_cast<int>(sizeof(T)));
  const dype::cuda::SpmmPlan plan_row = dype::cuda::plan_spmm(a.rows, a.nnz, max_row, k, sms, dype::cuda::kRowSplit, static_cast<int>(sizeof(T)));
  const dype::cuda::SpmmPlan plan_nnz = dype::cuda::plan_spmm(a.rows, a.nnz, max_row, k, sms, dype::cuda::kNnzSplit, static_cast<int>(sizeof(T)));
  auto run = [&](const dype::cuda::SpmmPlan& p) { CHECK(dype::cuda::spmm<T>(nullptr, l, d_val, d_x, k, d_y, d_err, p)); };
  const double row_ms = time_ms(reps, [&] { run(plan_row); });
  const double nnz_ms = time_ms(reps, [&] { run(plan_nnz); });
  // The chosen strategy with scalar loads of X (no float4 / double2), for comparison.
  dype::cuda::SpmmPlan plan_scalar = plan_auto;
  plan_scalar.vector = false;
  const double scalar_ms = time_ms(reps, [&] { run(plan_scalar); });
  // The nnz split as it was before chunk tables: a binary search per chunk, chunks of 32-256.
  dype::cuda::SpmmPlan plan_search = plan_nnz;
  plan_search.chunk_table = false;
  {
    const double threads = static_cast<double>(sms) * 2048.0;
    const double target = static_cast<double>(a.nnz) / (4.0 * threads / plan_nnz.group);
    plan_search.chunk = static_cast<int64_t>(std::min(k == 1 ? 64.0 : 256.0, std::max(k == 1 ? 8.0 : 32.0, std::floor(target))));
  }
  const double search_ms = time_ms(reps, [&] { run(plan_search); });
  // Check a result against a CPU reference on sampled rows (relative to the sum of magnitudes).
  const int64_t step = std::max<int64_t>(1, a.rows / 2000);
  std::vector<T> y_host(y_elems);
  auto worst_error = [&](const dype::cuda::SpmmPlan& p) {
    run(p);
    CHECK(cudaMemcpy(y_host.data(), d_y, y_elems * sizeof(T), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int64_t r = 0; r < a.rows; r += step) {
      for (int64_t c = 0; c < k; ++c) {
        double ref = 0, mag = 0;
        for (int64_t j = a.rp[static_cast<size_t>(r)]; j < a.rp[static_cast<size_t>(r + 1)]; ++j) {
          const double t = static_cast<double>(val[static_cast<size_t>(j)]) * static_cast<double>(x[static_cast<size_t>(a.ci[static_cast<size_t>(j)] * k + c)]);
          ref += t;
          mag += std::fabs(t);
        }
        worst = std::max(worst, std::fabs(static_cast<double>(y_host[static_cast<size_t>(r * k + c)]) - ref) / (mag + 1e-30));
      }
    }
    return worst;
  };
  // The nnz split at every chunk size, each checked: what the plan's chunk rule is fitted to.
  double worst_split = std::max({worst_error(plan_nnz), worst_error(plan_scalar), worst_error(plan_search)});
  std::string sweep = "{";
  for (int64_t chunk = 4; chunk <= 512; chunk *= 2) {
    dype::cuda::SpmmPlan p = plan_nnz;
    p.chunk = chunk;
    const double ms = time_ms(reps, [&] { run(p); });
    worst_split = std::max(worst_split, worst_error(p));
    char item[64];
    std::snprintf(item, sizeof item, "%s\"%lld\":%.6f", chunk == 4 ? "" : ",", static_cast<long long>(chunk), ms);
    sweep += item;
  }
  sweep += "}";
  const double worst_ref = worst_error(plan_row);
  std::vector<T> y_row(y_host);
  int err = 0;
  CHECK(cudaMemcpy(&err, d_err, sizeof(int), cudaMemcpyDeviceToHost));
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
              "\"autoStrategy\":\"%s\",\"group\":%d,\"chunk\":%lld,\"rowMs\":%.6f,\"nnzMs\":%.6f,\"autoMs\":%.6f,\"scalarMs\":%.6f,"
              "\"searchMs\":%.6f,\"searchChunk\":%lld,\"chunkMs\":%s,\"cusparseMs\":%.6f,"
              "\"cusparseAlg\":\"%s\",\"gflops\":%.3f,\"effectiveGBs\":%.3f,\"relErrRow\":%.3g,\"relErrNnz\":%.3g,"
              "\"relDiffCusparse\":%.3g,\"err\":%d}\n",
              prec, static_cast<long long>(k), static_cast<long long>(a.rows), static_cast<long long>(a.nnz),
              static_cast<long long>(max_row), plan_auto.strategy == dype::cuda::kNnzSplit ? "nnz-split" : "row-split", plan_auto.group,
              static_cast<long long>(plan_nnz.chunk), row_ms, nnz_ms, auto_ms, scalar_ms, search_ms,
              static_cast<long long>(plan_search.chunk), sweep.c_str(), cus_ms, cus_alg.c_str(), flops / (auto_ms * 1e-3) / 1e9, bytes / (auto_ms * 1e-3) / 1e9,
              worst_ref, worst_split, cus_diff, err);
  cudaFree(d_rp);
  cudaFree(d_ci);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_err);
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
