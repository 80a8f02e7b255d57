// The CUDA backend's runtime: probing the device (libcuda is found by the statically linked CUDA
// runtime only when first asked, so the addon loads without it), checking what the kernels will
// read, moving operands to the device and back on a stream of the operator's own, timing with
// events, and reading board power from NVML (opened with dlopen where present).
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
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

Status cuda_status(const char* fn, const char* what, cudaError_t e) {
  const std::string code = e == cudaErrorMemoryAllocation ? "ERR_LIMIT" : "ERR_NATIVE";
  return Status{false, code, std::string(fn) + ": " + what + " failed on the GPU (" + cuda_reason(e) + ")"};
}

#define DYPE_CUDA_TRY(fn, what, expr)                  \
  do {                                                 \
    cudaError_t dype_e_ = (expr);                      \
    if (dype_e_ != cudaSuccess) return cuda_status(fn, what, dype_e_); \
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
    DYPE_CUDA_TRY(fn_, "copying to the device", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_.s));
    return Status{};
  }
  Status to_host(void* dst, const void* src, size_t bytes) {
    d2h_bytes_ += static_cast<double>(bytes);
    if (bytes == 0) return Status{};
    DYPE_CUDA_TRY(fn_, "copying to the host", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_.s));
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
    float ms = 0;
    if (cudaEventElapsedTime(&ms, events_.e[0], events_.e[1]) == cudaSuccess) run->h2d_s = ms / 1e3;
    if (cudaEventElapsedTime(&ms, events_.e[1], events_.e[2]) == cudaSuccess) run->kernel_s = ms / 1e3;
    if (cudaEventElapsedTime(&ms, events_.e[2], events_.e[3]) == cudaSuccess) run->d2h_s = ms / 1e3;
    run->h2d_bytes = h2d_bytes_;
    run->d2h_bytes = d2h_bytes_;
    if (probe().nvml) {
      run->watts = nvml().watts();
      run->energy_measured = run->watts > 0;
    }
  }
  cudaStream_t stream() const { return stream_.s; }

 private:
  const char* fn_;
  Stream stream_;
  Events events_;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  std::vector<std::unique_ptr<PinnedBuffer>> pinned_;
  double h2d_bytes_ = 0;
  double d2h_bytes_ = 0;
};

#define DYPE_OK(expr)            \
  do {                           \
    Status dype_s_ = (expr);     \
    if (!dype_s_.ok) return dype_s_; \
  } while (0)

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
  Context ctx(fn);
  DYPE_OK(ctx.open());
  DYPE_OK(ctx.reserve(static_cast<double>(rp.size()) * 8 + static_cast<double>(nnz) * (4 + (values ? sizeof(T) : 0)) +
                      static_cast<double>(x_elems + y_elems) * sizeof(T) + 64));
  int64_t* d_rp = nullptr;
  int32_t* d_ci = nullptr;
  T* d_val = nullptr;
  T* d_x = nullptr;
  T* d_y = nullptr;
  int* d_err = nullptr;
  DYPE_OK(ctx.alloc(&d_rp, rp.size(), "allocating row pointers"));
  DYPE_OK(ctx.alloc(&d_ci, static_cast<size_t>(nnz), "allocating column indices"));
  if (values) DYPE_OK(ctx.alloc(&d_val, static_cast<size_t>(nnz), "allocating values"));
  DYPE_OK(ctx.alloc(&d_x, x_elems, "allocating X"));
  DYPE_OK(ctx.alloc(&d_y, y_elems, "allocating Y"));
  DYPE_OK(ctx.alloc(&d_err, 1, "allocating the error word"));
  int* h_err = nullptr;
  DYPE_OK(ctx.pinned(&h_err, 1));
  *h_err = 0;

  DYPE_OK(ctx.mark(0));
  DYPE_OK(ctx.to_device(d_rp, rp.data(), rp.size() * sizeof(int64_t)));
  DYPE_OK(ctx.to_device(d_ci, s.a.col_idx + base, static_cast<size_t>(nnz) * sizeof(int32_t)));
  if (values) DYPE_OK(ctx.to_device(d_val, values, static_cast<size_t>(nnz) * sizeof(T)));
  DYPE_OK(ctx.to_device(d_x, s.x, x_elems * sizeof(T)));
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

Status upload_graph(Context& ctx, const Csr& g, DeviceGraph* d, const char* what) {
  const std::vector<int64_t> rp = local_row_ptr(g, 0, g.rows, nullptr);
  DYPE_OK(ctx.alloc(&d->rp, rp.size(), what));
  DYPE_OK(ctx.alloc(&d->ci, static_cast<size_t>(g.nnz), what));
  DYPE_OK(ctx.to_device(d->rp, rp.data(), rp.size() * sizeof(int64_t)));
  DYPE_OK(ctx.to_device(d->ci, g.col_idx, static_cast<size_t>(g.nnz) * sizeof(int32_t)));
  return Status{};
}

bool same_graph(const Csr& a, const Csr& b) { return a.row_ptr == b.row_ptr && a.col_idx == b.col_idx; }

cuda::LocalCsr local(const Csr& g, const DeviceGraph& d) {
  cuda::LocalCsr l;
  l.m = g.rows;
  l.cols = g.cols;
  l.nnz = g.nnz;
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
  const double graph_bytes = static_cast<double>(n + 1) * 8 + static_cast<double>(a.out.nnz) * 4;
  DYPE_OK(ctx.reserve(graph_bytes * (undirected ? 1 : 2) + static_cast<double>(n) * 12 + 64));
  DeviceGraph out, in;
  cuda::BfsWork w;
  DYPE_OK(ctx.mark(0));
  DYPE_OK(upload_graph(ctx, a.out, &out, "allocating the graph"));
  if (undirected) in = out;
  else DYPE_OK(upload_graph(ctx, a.in, &in, "allocating the in-edges"));
  DYPE_OK(ctx.alloc(&w.depth, static_cast<size_t>(n), "allocating depths"));
  DYPE_OK(ctx.alloc(&w.queue_a, static_cast<size_t>(n), "allocating the frontier"));
  DYPE_OK(ctx.alloc(&w.queue_b, static_cast<size_t>(n), "allocating the frontier"));
  DYPE_OK(ctx.alloc(&w.counters, 4, "allocating counters"));
  DYPE_OK(ctx.alloc(&w.err, 1, "allocating the error word"));
  DYPE_OK(ctx.pinned(&w.host_counters, 4));
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
  DYPE_OK(ctx.reserve(static_cast<double>(n + 1) * 8 + static_cast<double>(g.nnz) * 4 + words * 24 +
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
