// The CUDA backend's probe: libcuda is found by the statically linked CUDA runtime only when
// first asked, so the addon loads without it; board power comes from NVML, opened with dlopen
// where present (no link-time dependency).
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "runtime_internal.cuh"

namespace dype {
namespace gpu {
namespace {

using rt::cuda_reason;

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

}  // namespace

namespace rt {

std::string cuda_reason(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

Status cuda_status(const char* fn, const char* what, cudaError_t e) {
  const std::string code = e == cudaErrorMemoryAllocation ? "ERR_LIMIT" : "ERR_NATIVE";
  return Status{false, code, std::string(fn) + ": " + what + " failed on the GPU (" + cuda_reason(e) + ")"};
}

double nvml_watts() { return nvml().watts(); }

}  // namespace rt

const Probe& probe() {
  static std::once_flag once;
  static Probe p;
  std::call_once(once, [] { p = do_probe(); });
  return p;
}

}  // namespace gpu
}  // namespace dype
