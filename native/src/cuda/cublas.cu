// Finds and loads cuBLAS at run time (dlopen), for GEMM on the card; see cublas_loader.cuh.
// cuBLAS comes with the CUDA toolkit and with NVIDIA's pip wheels, not with the driver, so a
// machine with a card may lack it: then GEMM is not offered to the GPU and the probe says why.
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cublas_loader.cuh"

namespace dype {
namespace gpu {
namespace {

struct Loaded {
  BlasProbe probe;
  rt::Blas* blas = nullptr;
};

// Where to look, in order: $DYPE_CUBLAS, the library path, the toolkit's own folders.
std::vector<std::string> candidates() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("DYPE_CUBLAS")) out.emplace_back(env);
  for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) out.emplace_back(name);
  std::vector<std::string> homes;
  if (const char* h = std::getenv("CUDA_HOME")) homes.emplace_back(h);
  homes.emplace_back("/usr/local/cuda");
  for (const std::string& h : homes)
    for (const char* name : {"/lib64/libcublas.so.13", "/lib64/libcublas.so.12", "/lib64/libcublas.so"}) out.push_back(h + name);
  return out;
}

template <typename F>
bool bind(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  return *out != nullptr;
}

Loaded load() {
  Loaded l;
  const Probe& p = probe();
  if (!p.available) {
    l.probe.reason = "cuBLAS was not looked for: no CUDA device (" + p.reason + ")";
    return l;
  }
  void* lib = nullptr;
  std::string path, errors;
  for (const std::string& c : candidates()) {
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      path = c;
      break;
    }
    const char* e = dlerror();
    if (errors.empty() && e) errors = e;
  }
  if (!lib) {
    l.probe.reason = "cuBLAS was not found (set DYPE_CUBLAS to libcublas.so's path): " + errors;
    return l;
  }
  auto* b = new rt::Blas;  // kept for the process's lifetime, as the library stays loaded
  int (*get_property)(int, int*) = nullptr;
  if (!bind(lib, "cublasCreate_v2", &b->create) || !bind(lib, "cublasSetStream_v2", &b->set_stream) ||
      !bind(lib, "cublasSetMathMode", &b->set_math_mode) || !bind(lib, "cublasSgemm_v2", &b->sgemm) ||
      !bind(lib, "cublasDgemm_v2", &b->dgemm)) {
    l.probe.reason = "cuBLAS at " + path + " lacks an entry point dype needs";
    delete b;
    return l;
  }
  int major = 0, minor = 0, patch = 0;
  if (bind(lib, "cublasGetProperty", &get_property)) {
    get_property(0, &major);  // MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
    get_property(1, &minor);
    get_property(2, &patch);
  }
  l.probe.available = true;
  l.probe.library = "cuBLAS " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + " (" + path + ")";
  l.blas = b;
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

const BlasProbe& blas_probe() { return loaded().probe; }

namespace rt {

Blas& cublas() {
  static Blas none;  // answers every call with the probe's reason when cuBLAS is absent
  return loaded().blas ? *loaded().blas : none;
}

Status Blas::take(const char* fn, Handle* out) {
  if (!create) return Status{false, "ERR_UNSUPPORTED", std::string(fn) + ": " + blas_probe().reason};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      *out = idle_.back();
      idle_.pop_back();
      return Status{};
    }
  }
  const int st = create(out);
  if (st != 0) return Status{false, "ERR_NATIVE", std::string(fn) + ": creating a cuBLAS handle failed (cublasStatus " + std::to_string(st) + ")"};
  // Plain FP32 arithmetic (no TF32 tensor-core rounding), so FP32 results match the CPU's sgemm
  // within FP32 rounding: CUBLAS_DEFAULT_MATH is 0.
  set_math_mode(*out, 0);
  return Status{};
}

void Blas::give(Handle h) {
  std::lock_guard<std::mutex> lock(mu_);
  idle_.push_back(h);
}

}  // namespace rt
}  // namespace gpu
}  // namespace dype
