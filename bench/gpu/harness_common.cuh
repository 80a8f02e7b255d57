// Host-side helpers of the GPU timing harness (harness.cu): the CSR file it reads, values by hash,
// event timing and uploads. Included by harness.cu alone (one translation unit), so its
// definitions sit in an unnamed namespace like the rest of the harness.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

}  // namespace
