// The CUDA backend's runtime: probing the device (libcuda is found by the statically linked CUDA
// runtime only when first asked, so the addon loads without it), checking what the kernels will
// read, moving operands to the device and back on a stream of the operator's own, timing with
// events, and reading board power from NVML (opened with dlopen where present).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu.h"
#include "kernels.cuh"

namespace dype {
namespace gpu {
namespace {

std::string cuda_reason(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

// ---- NVML, through dlopen (no link-time dependency) -----------------------------------------

struct Nvml {
  using Device = void*;
  int (*init)() = nullptr;
  int (*by_bus_id)(const char*, Device*) = nullptr;
  int (*power_usage)(Device, unsigned*) = nullptr;
  int (*power_limit)(Device, unsigned*) = nullptr;
  Device device = nullptr;

  bool open(int cuda_device) {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    by_bus_id = reinterpret_cast<int (*)(const char*, Device*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    power_usage = reinterpret_cast<int (*)(Device, unsigned*)>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
    power_limit = reinterpret_cast<int (*)(Device, unsigned*)>(dlsym(lib, "nvmlDeviceGetEnforcedPowerLimit"));
    if (!init || !by_bus_id || !power_usage || init() != 0) return false;
    char bus[64] = {0};
    if (cudaDeviceGetPCIBusId(bus, sizeof(bus), cuda_device) != cudaSuccess) return false;
    if (by_bus_id(bus, &device) != 0) return false;
    unsigned mw = 0;
    return power_usage(device, &mw) == 0;
  }
  double watts() const {
    unsigned mw = 0;
    return device && power_usage(device, &mw) == 0 ? mw / 1000.0 : 0.0;
  }
  double limit_watts() const {
    unsigned mw = 0;
    return device && power_limit && power_limit(device, &mw) == 0 ? mw / 1000.0 : 0.0;
  }
};

Nvml& nvml() {
  static Nvml n;
  return n;
}

Probe do_probe() {
  Probe p;
  p.built = true;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  cudaRuntimeGetVersion(&p.runtime_version);
  cudaDriverGetVersion(&p.driver_version);
  if (e != cudaSuccess) {
    p.reason = cuda_reason(e);
    return p;
  }
  if (count == 0) {
    p.reason = "the CUDA driver reports no device";
    return p;
  }
  p.devices = count;
  cudaDeviceProp prop;
  if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess || (e = cudaSetDevice(0)) != cudaSuccess) {
    p.reason = cuda_reason(e);
    return p;
  }
  p.name = prop.name;
  p.cc_major = prop.major;
  p.cc_minor = prop.minor;
  p.sms = prop.multiProcessorCount;
  p.l2_bytes = static_cast<double>(prop.l2CacheSize);
  int v = 0;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0) == cudaSuccess) p.clock_mhz = v / 1000.0;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0) == cudaSuccess) p.memory_clock_mhz = v / 1000.0;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess) p.bus_width_bits = v;
  size_t free_b = 0, total_b = 0;
  if ((e = cudaMemGetInfo(&free_b, &total_b)) != cudaSuccess) {
    p.reason = cuda_reason(e);
    return p;
  }
  p.free_bytes = static_cast<double>(free_b);
  p.total_bytes = static_cast<double>(total_b);
  p.nvml = nvml().open(0);
  if (p.nvml) p.power_limit_watts = nvml().limit_watts();
  p.available = true;
  return p;
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

// ---- Pinned staging: copies between pageable (JavaScript) memory and the device -------------
//
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

// ---- Inputs resident on the device ----------------------------------------------------------
//
// `prefetch` copies host buffers to the device once; later operators whose operands are those
// buffers (same address and length) read the device copy instead of copying again, until
// `release`. The device copy is what it was at prefetch time. Nothing a kernel reads from a
// resident copy can send it out of bounds: row pointers are never taken from it (they are
// checked and rebased on the host for every call), column indices are checked in the kernels,
// and a resident array is used only where its length is exactly what the operator reads.
struct ResidentEntry {
  const void* host = nullptr;
  size_t bytes = 0;
  std::shared_ptr<DeviceBuffer> dev;
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
  // Drops entries for these buffers; the memory is freed once no running operator holds it.
  size_t remove(const void* host, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
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
  size_t total_ = 0;
};

ResidentStore& resident() {
  static ResidentStore* store = new ResidentStore;  // never destroyed: see StagePool
  return *store;
}

Status cuda_status(const char* fn, const char* what, cudaError_t e) {
  const std::string code = e == cudaErrorMemoryAllocation ? "ERR_LIMIT" : "ERR_NATIVE";
  return Status{false, code, std::string(fn) + ": " + what + " failed on the GPU (" + cuda_reason(e) + ")"};
}

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
    DYPE_CUDA_TRY(fn_, "copying to the device", staged_to_device(stream_.s, dst, src, bytes));
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
  Status to_host(void* dst, const void* src, size_t bytes) {
    d2h_bytes_ += static_cast<double>(bytes);
    if (bytes == 0) return Status{};
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
      run->watts = nvml().watts();
      run->energy_measured = run->watts > 0;
    }
  }
  cudaStream_t stream() const { return stream_.s; }
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

// Row pointers of rows [begin, end] rebased to start at 0, as int64 (the kernels' one layout),
// and the longest row.
std::vector<int64_t> local_row_ptr(const Csr& a, int64_t begin, int64_t end, int64_t* max_row) {
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
  const cuda::SpmmPlan plan = cuda::plan_spmm(m, nnz, max_row, k, probe().sms, strategy);
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

const Probe& probe() {
  static std::once_flag once;
  static Probe p;
  std::call_once(once, [] { p = do_probe(); });
  return p;
}

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
  DYPE_OK(ctx.mark(1));
  cuda::BfsResult r;
  DYPE_CUDA_TRY(fn, "running BFS",
                cuda::bfs(ctx.stream(), local(a.out, out), local(a.in, in), a.source, static_cast<int>(a.direction), a.alpha,
                          a.beta, w, &r));
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

Status prefetch(const char* fn, const std::vector<HostSpan>& spans, PrefetchResult* result) {
  Context ctx(fn);
  DYPE_OK(ctx.open());
  double need = 0;
  for (const HostSpan& h : spans)
    if (h.bytes > 0 && !resident().find(h.data, h.bytes)) need += static_cast<double>(h.bytes);
  DYPE_OK(ctx.reserve(need));
  DYPE_OK(ctx.mark(0));
  std::vector<ResidentEntry> fresh;
  for (const HostSpan& h : spans) {
    if (h.bytes == 0) continue;
    bool seen = resident().find(h.data, h.bytes) != nullptr;
    for (const ResidentEntry& f : fresh) seen = seen || (f.host == h.data && f.bytes == h.bytes);
    if (seen) {
      ++result->already;
      continue;
    }
    ResidentEntry e;
    e.host = h.data;
    e.bytes = h.bytes;
    e.dev = std::make_shared<DeviceBuffer>();
    DYPE_CUDA_TRY(fn, "allocating device memory for a prefetch", cudaMalloc(&e.dev->p, h.bytes));
    DYPE_OK(ctx.to_device(e.dev->p, h.data, h.bytes));
    fresh.push_back(std::move(e));
  }
  DYPE_OK(ctx.mark(1));
  DYPE_OK(ctx.sync());
  result->seconds = ctx.elapsed(0, 1);
  result->bytes = ctx.h2d_bytes();
  // Only whole, finished copies become resident.
  for (ResidentEntry& e : fresh) {
    if (resident().add(std::move(e))) ++result->copied;
    else ++result->already;
  }
  return Status{};
}

void release(const std::vector<HostSpan>& spans, double* freed_bytes) {
  double freed = 0;
  for (const HostSpan& h : spans) freed += static_cast<double>(resident().remove(h.data, h.bytes));
  if (freed_bytes) *freed_bytes = freed;
}

void resident_stats(double* count, double* bytes) {
  size_t c = 0, b = 0;
  resident().stats(&c, &b);
  *count = static_cast<double>(c);
  *bytes = static_cast<double>(b);
}

}  // namespace gpu
}  // namespace dype
