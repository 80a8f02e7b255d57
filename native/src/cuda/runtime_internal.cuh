// What the CUDA runtime's files share (included by nvcc-compiled files only): RAII over device
// resources, the store of resident inputs, pinned staging, error helpers, and the operator's
// device Context that owns a stream, its timing events and its allocations.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu.h"

namespace dype {
namespace gpu {
namespace rt {

// "cudaErrorX: text", for messages.
std::string cuda_reason(cudaError_t e);
// A failed CUDA call as a Status: ERR_LIMIT when memory ran out, else ERR_NATIVE.
Status cuda_status(const char* fn, const char* what, cudaError_t e);
// NVML board power now, 0 without NVML.
double nvml_watts();

// Row pointers of rows [begin, end] rebased to start at 0, as int64 (the kernels' one layout),
// and the longest row.
inline std::vector<int64_t> local_row_ptr(const Csr& a, int64_t begin, int64_t end, int64_t* max_row) {
  std::vector<int64_t> rp(static_cast<size_t>(end - begin + 1));
  const int64_t base = a.ptr(begin);
  int64_t longest = 0;
  for (int64_t r = begin; r <= end; ++r) {
    rp[static_cast<size_t>(r - begin)] = a.ptr(r) - base;
    if (r > begin) longest = std::max(longest, rp[static_cast<size_t>(r - begin)] - rp[static_cast<size_t>(r - begin - 1)]);
  }
  if (max_row) *max_row = longest;
  return rp;
}

// ---- RAII over device resources: nothing leaks on any return path --------------------------

struct DeviceBuffer {
  void* p = nullptr;
  ~DeviceBuffer() {
    if (p) cudaFree(p);
  }
};
struct PinnedBuffer {
  void* p = nullptr;
  ~PinnedBuffer() {
    if (p) cudaFreeHost(p);
  }
};
struct Stream {
  cudaStream_t s = nullptr;
  ~Stream() {
    if (s) cudaStreamDestroy(s);
  }
};
struct Events {
  cudaEvent_t e[4] = {nullptr, nullptr, nullptr, nullptr};
  ~Events() {
    for (cudaEvent_t x : e)
      if (x) cudaEventDestroy(x);
  }
};

// Copies between pageable (JavaScript) memory and the device through pooled pinned chunks
// (staging.cu); both return once the copy is done.
cudaError_t staged_to_device(cudaStream_t s, void* dst, const void* src, size_t bytes);
cudaError_t staged_to_host(cudaStream_t s, void* dst, const void* src, size_t bytes);

// ---- Inputs resident on the device ----------------------------------------------------------
//
// `prefetch` copies host buffers to the device once; later operators whose operands are those
// buffers (same address and length) read the device copy instead of copying again, until
// `release`. The device copy is what it was at prefetch time. Nothing a kernel reads from a
// resident copy can send it out of bounds: row pointers are never taken from it (they are
// checked and rebased on the host for every call), column indices are checked in the kernels,
// and a resident array is used only where its length is exactly what the operator reads.
//
// An operator's output can stay too (`expect` before the call): its device buffer becomes the
// resident copy of the host output array, so the next operator on the card reads it in place.
// A deferred output is not copied home at all until `fetch`: its host array is stale meanwhile
// (`host_stale`), and any copy to the device from host memory that overlaps it fetches it first,
// so no kernel ever reads a stale host array.
struct ResidentEntry {
  const void* host = nullptr;
  size_t bytes = 0;
  std::shared_ptr<DeviceBuffer> dev;
  bool host_stale = false;
};
// An output announced before its operator runs: kept on the device, copied home or deferred.
struct PendingOutput {
  const void* host = nullptr;
  size_t bytes = 0;
  bool defer = false;
};

class ResidentStore {
 public:
  std::shared_ptr<DeviceBuffer> find(const void* host, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const ResidentEntry& e : entries_)
      if (e.host == host && e.bytes == bytes) return e.dev;
    return nullptr;
  }
  // Adds the entry unless one for the same buffer appeared meanwhile; false then.
  bool add(ResidentEntry entry) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const ResidentEntry& e : entries_)
      if (e.host == entry.host && e.bytes == entry.bytes) return false;
    total_ += entry.bytes;
    entries_.push_back(std::move(entry));
    return true;
  }
  void expect(const PendingOutput& p) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.push_back(p);
  }
  // Whether an output of exactly this buffer was announced (taken off the list); `defer` says how.
  bool take_pending(const void* host, size_t bytes, bool* defer) {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].host == host && pending_[i].bytes == bytes) {
        *defer = pending_[i].defer;
        pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      }
    }
    return false;
  }
  // Entries whose host copy is stale and overlaps [host, host + bytes).
  std::vector<ResidentEntry> stale_overlapping(const void* host, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<ResidentEntry> out;
    const auto* a = static_cast<const uint8_t*>(host);
    for (const ResidentEntry& e : entries_) {
      const auto* b = static_cast<const uint8_t*>(e.host);
      if (e.host_stale && a < b + e.bytes && b < a + bytes) out.push_back(e);
    }
    return out;
  }
  void mark_fresh(const void* host, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    for (ResidentEntry& e : entries_)
      if (e.host == host && e.bytes == bytes) e.host_stale = false;
  }
  // Drops entries (and announced outputs) for these buffers; the memory is freed once no running
  // operator holds it. A stale host copy stays stale: fetch before release to keep the contents.
  size_t remove(const void* host, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = pending_.size(); i-- > 0;)
      if (pending_[i].host == host && pending_[i].bytes == bytes) pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
    size_t dropped = 0;
    for (size_t i = entries_.size(); i-- > 0;) {
      if (entries_[i].host == host && entries_[i].bytes == bytes) {
        total_ -= entries_[i].bytes;
        dropped += entries_[i].bytes;
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    return dropped;
  }
  void stats(size_t* count, size_t* bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    *count = entries_.size();
    *bytes = total_;
  }

 private:
  std::mutex mu_;
  std::vector<ResidentEntry> entries_;
  std::vector<PendingOutput> pending_;
  size_t total_ = 0;
};

// The process's resident inputs (resident.cu); never destroyed, as the staging pool.
ResidentStore& resident();

#define DYPE_CUDA_TRY(fn, what, expr)                  \
  do {                                                 \
    cudaError_t dype_e_ = (expr);                      \
    if (dype_e_ != cudaSuccess) return cuda_status(fn, what, dype_e_); \
  } while (0)

#define DYPE_OK(expr)            \
  do {                           \
    Status dype_s_ = (expr);     \
    if (!dype_s_.ok) return dype_s_; \
  } while (0)

// An operator's device context: the device selected, a stream and four timing events, and the
// allocations it made, freed on destruction.
class Context {
 public:
  explicit Context(const char* fn) : fn_(fn) {}

  Status open() {
    const Probe& p = probe();
    if (!p.available) return Status{false, "ERR_UNSUPPORTED", std::string(fn_) + ": no CUDA device (" + p.reason + ")"};
    DYPE_CUDA_TRY(fn_, "selecting the device", cudaSetDevice(0));
    DYPE_CUDA_TRY(fn_, "creating a stream", cudaStreamCreateWithFlags(&stream_.s, cudaStreamNonBlocking));
    for (cudaEvent_t& e : events_.e) DYPE_CUDA_TRY(fn_, "creating an event", cudaEventCreate(&e));
    return Status{};
  }

  // Refuse, before allocating anything, work that would not fit in the free device memory.
  Status reserve(double bytes) {
    size_t free_b = 0, total_b = 0;
    DYPE_CUDA_TRY(fn_, "reading free memory", cudaMemGetInfo(&free_b, &total_b));
    if (bytes > 0.95 * static_cast<double>(free_b)) {
      return Status{false, "ERR_LIMIT",
                    std::string(fn_) + ": needs " + std::to_string(static_cast<long long>(bytes)) + " bytes of GPU memory, " +
                        std::to_string(static_cast<long long>(free_b)) + " are free"};
    }
    return Status{};
  }

  template <typename T>
  Status alloc(T** out, size_t count, const char* what) {
    buffers_.emplace_back(new DeviceBuffer);
    if (count == 0) count = 1;
    cudaError_t e = cudaMalloc(&buffers_.back()->p, count * sizeof(T));
    if (e != cudaSuccess) return cuda_status(fn_, what, e);
    *out = static_cast<T*>(buffers_.back()->p);
    return Status{};
  }

  template <typename T>
  Status pinned(T** out, size_t count) {
    pinned_.emplace_back(new PinnedBuffer);
    cudaError_t e = cudaMallocHost(&pinned_.back()->p, count * sizeof(T));
    if (e != cudaSuccess) return cuda_status(fn_, "allocating pinned memory", e);
    *out = static_cast<T*>(pinned_.back()->p);
    return Status{};
  }

  Status to_device(void* dst, const void* src, size_t bytes) {
    h2d_bytes_ += static_cast<double>(bytes);
    if (bytes == 0) return Status{};
    DYPE_OK(refresh_host(src, bytes));
    DYPE_CUDA_TRY(fn_, "copying to the device", staged_to_device(stream_.s, dst, src, bytes));
    return Status{};
  }
  // Bring home any deferred output overlapping these host bytes before they are read.
  Status refresh_host(const void* host, size_t bytes) {
    for (const ResidentEntry& e : resident().stale_overlapping(host, bytes)) {
      DYPE_CUDA_TRY(fn_, "copying a deferred output home", staged_to_host(stream_.s, const_cast<void*>(e.host), e.dev->p, e.bytes));
      d2h_bytes_ += static_cast<double>(e.bytes);
      resident().mark_fresh(e.host, e.bytes);
    }
    return Status{};
  }
  // A device copy of `count` elements at `host`: the resident one when `host` was prefetched
  // with exactly that length (counted in resident_bytes, not copied), else a fresh allocation
  // filled from the host.
  template <typename T>
  Status input(const T** out, const T* host, size_t count, const char* what) {
    if (std::shared_ptr<DeviceBuffer> r = find(host, count)) {
      *out = adopt<T>(std::move(r), count);
      return Status{};
    }
    T* d = nullptr;
    DYPE_OK(alloc(&d, count, what));
    DYPE_OK(to_device(d, host, count * sizeof(T)));
    *out = d;
    return Status{};
  }
  // The resident copy of exactly `count` elements at `host`, or null.
  template <typename T>
  static std::shared_ptr<DeviceBuffer> find(const T* host, size_t count) {
    return count > 0 ? resident().find(host, count * sizeof(T)) : nullptr;
  }
  // Read a resident copy found by find(): held until this context ends (a release meanwhile
  // frees it only then), and counted in resident_bytes.
  template <typename T>
  const T* adopt(std::shared_ptr<DeviceBuffer> r, size_t count) {
    resident_bytes_ += static_cast<double>(count * sizeof(T));
    held_.push_back(std::move(r));
    return static_cast<const T*>(held_.back()->p);
  }
  // Waits for the kernels, then copies out through the staging pair (timed on the host clock:
  // the host's share of a staged copy is not on the stream).
  // An output announced by `expect` stays on the device as the host array's resident copy, and
  // is not copied home when deferred.
  Status to_host(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return Status{};
    bool defer = false;
    std::shared_ptr<DeviceBuffer> kept = resident().take_pending(dst, bytes, &defer) ? give_up(src) : nullptr;
    if (kept) {
      held_.push_back(kept);  // alive until this context ends, whatever the table does
      DYPE_CUDA_TRY(fn_, "running", cudaStreamSynchronize(stream_.s));
      resident().remove(dst, bytes);  // a copy of what the array held before is out of date now
      ResidentEntry e;
      e.host = dst;
      e.bytes = bytes;
      e.dev = kept;
      e.host_stale = defer;
      // Should another call have made the same array resident meanwhile, copy home as usual.
      if (resident().add(e) && defer) return Status{};
    }
    d2h_bytes_ += static_cast<double>(bytes);
    DYPE_CUDA_TRY(fn_, "running", cudaStreamSynchronize(stream_.s));
    const auto t0 = std::chrono::steady_clock::now();
    DYPE_CUDA_TRY(fn_, "copying to the host", staged_to_host(stream_.s, dst, src, bytes));
    d2h_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return Status{};
  }
  Status mark(int i) {
    DYPE_CUDA_TRY(fn_, "recording an event", cudaEventRecord(events_.e[i], stream_.s));
    return Status{};
  }
  Status sync() {
    DYPE_CUDA_TRY(fn_, "running", cudaStreamSynchronize(stream_.s));
    return Status{};
  }
  // Fill `run` from the events: 0 before the copies in, 1 before the kernels, 2 after them, 3
  // after the copies out. Call after sync().
  void finish(Run* run) {
    run->h2d_s = elapsed(0, 1);
    run->kernel_s = elapsed(1, 2);
    run->d2h_s = d2h_s_;
    run->h2d_bytes = h2d_bytes_;
    run->d2h_bytes = d2h_bytes_;
    run->resident_bytes = resident_bytes_;
    if (probe().nvml) {
      run->watts = nvml_watts();
      run->energy_measured = run->watts > 0;
    }
  }
  cudaStream_t stream() const { return stream_.s; }
  // Hand one of this context's allocations (by its address) to a shared owner, so it outlives
  // the context; null when `p` is not the start of one.
  std::shared_ptr<DeviceBuffer> give_up(const void* p) {
    for (std::unique_ptr<DeviceBuffer>& b : buffers_) {
      if (b && b->p == p) return std::shared_ptr<DeviceBuffer>(b.release());
    }
    return nullptr;
  }
  // Seconds between two recorded events (0 when either was not recorded; the error that
  // reading an unrecorded event leaves behind is cleared so a later launch does not report it).
  double elapsed(int from, int to) {
    float ms = 0;
    if (cudaEventElapsedTime(&ms, events_.e[from], events_.e[to]) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return ms / 1e3;
  }
  double h2d_bytes() const { return h2d_bytes_; }
  double d2h_bytes() const { return d2h_bytes_; }

 private:
  const char* fn_;
  Stream stream_;
  Events events_;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  std::vector<std::unique_ptr<PinnedBuffer>> pinned_;
  std::vector<std::shared_ptr<DeviceBuffer>> held_;  // resident inputs, kept alive while running
  double h2d_bytes_ = 0;
  double d2h_bytes_ = 0;
  double d2h_s_ = 0;
  double resident_bytes_ = 0;
};

}  // namespace rt
}  // namespace gpu
}  // namespace dype
