// Pinned staging: copies between pageable (JavaScript) memory and the device.
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "runtime_internal.cuh"

namespace dype {
namespace gpu {
namespace rt {
namespace {

// A copy from or to pageable memory makes the driver stage it through a small pinned buffer of
// its own and, for copies to the host, runs at the speed of faulting in the destination pages
// (about 1 GB/s into a fresh typed array on the H200 machine). Large copies here go through two
// pinned chunks instead: the host copies one chunk while the DMA engine moves the other. The
// pairs are pooled for the life of the process (never freed: freeing pinned memory during exit,
// after the CUDA runtime has shut down, is not safe).
constexpr size_t kStageChunk = size_t{8} << 20;
constexpr size_t kStageThreshold = size_t{1} << 20;

struct StagePair {
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
};

class StagePool {
 public:
  // A pair, or null when pinned memory cannot be had (the copy then goes direct).
  StagePair* take() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        StagePair* p = free_.back();
        free_.pop_back();
        return p;
      }
    }
    auto* p = new StagePair;
    for (int i = 0; i < 2; ++i) {
      if (cudaMallocHost(&p->buf[i], kStageChunk) != cudaSuccess ||
          cudaEventCreateWithFlags(&p->done[i], cudaEventDisableTiming) != cudaSuccess) {
        cudaGetLastError();
        for (int j = 0; j < 2; ++j) {
          if (p->buf[j]) cudaFreeHost(p->buf[j]);
          if (p->done[j]) cudaEventDestroy(p->done[j]);
        }
        delete p;
        return nullptr;
      }
    }
    return p;
  }
  void give(StagePair* p) {
    if (!p) return;
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(p);
  }

 private:
  std::mutex mu_;
  std::vector<StagePair*> free_;
};

StagePool& stage_pool() {
  static StagePool* pool = new StagePool;  // deliberately never destroyed (see above)
  return *pool;
}

}  // namespace

// Host to device through the staging pair: the host fills chunk i % 2 while chunk i - 1 moves.
cudaError_t staged_to_device(cudaStream_t s, void* dst, const void* src, size_t bytes) {
  StagePair* pair = bytes >= kStageThreshold ? stage_pool().take() : nullptr;
  if (!pair) return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s);
  cudaError_t e = cudaSuccess;
  bool used[2] = {false, false};
  for (size_t off = 0, i = 0; off < bytes && e == cudaSuccess; off += kStageChunk, ++i) {
    const int b = static_cast<int>(i & 1);
    const size_t len = std::min(kStageChunk, bytes - off);
    if (used[b] && (e = cudaEventSynchronize(pair->done[b])) != cudaSuccess) break;
    std::memcpy(pair->buf[b], static_cast<const char*>(src) + off, len);
    if ((e = cudaMemcpyAsync(static_cast<char*>(dst) + off, pair->buf[b], len, cudaMemcpyHostToDevice, s)) != cudaSuccess) break;
    if ((e = cudaEventRecord(pair->done[b], s)) != cudaSuccess) break;
    used[b] = true;
  }
  // The pair goes back to the pool only once the device has read both chunks.
  for (int b = 0; b < 2; ++b) {
    if (used[b]) {
      const cudaError_t w = cudaEventSynchronize(pair->done[b]);
      if (e == cudaSuccess) e = w;
    }
  }
  stage_pool().give(pair);
  return e;
}

// A fresh JavaScript result array is untouched zero pages: the copy into it takes a page fault
// per 4 KiB, which made copies out run at about 1 GB/s on the H200 machine. Where the kernel
// allows transparent huge pages on request, ask for them over the array (one fault per 2 MiB).
void advise_huge_pages(void* dst, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(dst) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(dst) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // advice only: errors ignored
}

// Device to host through the staging pair: chunk i + 1 moves while the host copies chunk i out.
// Returns once every byte is in `dst`.
cudaError_t staged_to_host(cudaStream_t s, void* dst, const void* src, size_t bytes) {
  if (bytes >= 2 * kStageChunk) advise_huge_pages(dst, bytes);
  StagePair* pair = bytes >= kStageThreshold ? stage_pool().take() : nullptr;
  if (!pair) {
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s);
    return e == cudaSuccess ? cudaStreamSynchronize(s) : e;
  }
  const size_t chunks = (bytes + kStageChunk - 1) / kStageChunk;
  cudaError_t e = cudaSuccess;
  auto issue = [&](size_t i) {
    const int b = static_cast<int>(i & 1);
    const size_t off = i * kStageChunk, len = std::min(kStageChunk, bytes - off);
    cudaError_t r = cudaMemcpyAsync(pair->buf[b], static_cast<const char*>(src) + off, len, cudaMemcpyDeviceToHost, s);
    return r == cudaSuccess ? cudaEventRecord(pair->done[b], s) : r;
  };
  e = issue(0);
  size_t issued = 1;
  for (size_t i = 0; i < chunks && e == cudaSuccess; ++i) {
    if (issued < chunks && issued == i + 1 && (e = issue(issued)) == cudaSuccess) ++issued;
    if (e != cudaSuccess) break;
    const int b = static_cast<int>(i & 1);
    if ((e = cudaEventSynchronize(pair->done[b])) != cudaSuccess) break;
    const size_t off = i * kStageChunk, len = std::min(kStageChunk, bytes - off);
    std::memcpy(static_cast<char*>(dst) + off, pair->buf[b], len);
  }
  // On an error part-way, wait for what was issued before the pair is reused.
  if (e != cudaSuccess) cudaStreamSynchronize(s);
  stage_pool().give(pair);
  return e;
}

}  // namespace rt
}  // namespace gpu
}  // namespace dype
