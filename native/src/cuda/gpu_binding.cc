// Node-API face of the CUDA backend: gpuProbe, gpuSpmm, gpuSpmv, gpuBfs and gpuMsbfs take the same
// positional arrays as the CPU kernels, check them the same way, and run on a libuv worker (a
// GPU call is never cheaper than the async round trip). Built whether or not CUDA is: without
// it, gpuProbe says why and every operator rejects with ERR_UNSUPPORTED.
#include <napi.h>

#include "../napi_util.h"
#include "gpu.h"

namespace dype {
namespace gpu {
namespace {

using namespace napi;

void set_run(Napi::Object& o, const Run& r) {
  Napi::Env env = o.Env();
  o.Set("kernelSeconds", Napi::Number::New(env, r.kernel_s));
  o.Set("h2dSeconds", Napi::Number::New(env, r.h2d_s));
  o.Set("d2hSeconds", Napi::Number::New(env, r.d2h_s));
  o.Set("h2dBytes", Napi::Number::New(env, r.h2d_bytes));
  o.Set("d2hBytes", Napi::Number::New(env, r.d2h_bytes));
  o.Set("watts", Napi::Number::New(env, r.watts));
  o.Set("energyMeasured", Napi::Boolean::New(env, r.energy_measured));
  o.Set("levels", Napi::Number::New(env, static_cast<double>(r.levels)));
  o.Set("residentBytes", Napi::Number::New(env, r.resident_bytes));
}

// The typed arrays of a JavaScript array argument, as host spans.
std::vector<HostSpan> get_spans(const Napi::CallbackInfo& info, size_t i, const char* fn, std::vector<Napi::Object>* keep) {
  if (i >= info.Length() || !info[i].IsArray()) throw ArgError{arg_name(fn, "buffers") + " must be an array of typed arrays"};
  Napi::Array arr = info[i].As<Napi::Array>();
  std::vector<HostSpan> spans;
  for (uint32_t j = 0; j < arr.Length(); ++j) {
    Napi::Value v = arr.Get(j);
    if (!v.IsTypedArray()) {
      throw ArgError{arg_name(fn, "buffers") + "[" + std::to_string(j) + "] must be a typed array"};
    }
    Napi::TypedArray t = v.As<Napi::TypedArray>();
    HostSpan h;
    h.data = static_cast<const uint8_t*>(t.ArrayBuffer().Data()) + t.ByteOffset();
    h.bytes = t.ByteLength();
    spans.push_back(h);
    if (keep) keep->push_back(t);
  }
  return spans;
}

Napi::Value GpuProbe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Probe& p = probe();
  Napi::Object o = Napi::Object::New(env);
  o.Set("built", Napi::Boolean::New(env, p.built));
  o.Set("available", Napi::Boolean::New(env, p.available));
  o.Set("reason", Napi::String::New(env, p.reason));
  o.Set("name", Napi::String::New(env, p.name));
  o.Set("devices", Napi::Number::New(env, p.devices));
  o.Set("computeCapability", Napi::String::New(env, std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor)));
  o.Set("sms", Napi::Number::New(env, p.sms));
  o.Set("totalBytes", Napi::Number::New(env, p.total_bytes));
  o.Set("freeBytes", Napi::Number::New(env, p.free_bytes));
  o.Set("l2Bytes", Napi::Number::New(env, p.l2_bytes));
  o.Set("clockMhz", Napi::Number::New(env, p.clock_mhz));
  o.Set("memoryClockMhz", Napi::Number::New(env, p.memory_clock_mhz));
  o.Set("busWidthBits", Napi::Number::New(env, p.bus_width_bits));
  o.Set("runtimeVersion", Napi::Number::New(env, p.runtime_version));
  o.Set("driverVersion", Napi::Number::New(env, p.driver_version));
  o.Set("nvml", Napi::Boolean::New(env, p.nvml));
  o.Set("powerLimitWatts", Napi::Number::New(env, p.power_limit_watts));
  return o;
}

class SpmmWorker : public KernelWorker {
 public:
  SpmmWorker(Napi::Env env, const char* fn, SpmmArgs args, int strategy)
      : KernelWorker(env, fn), args_(args), strategy_(strategy) {}

 protected:
  Status compute() override { return spmm(fn_, args_, strategy_, &run_); }
  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_run(o, run_);
    o.Set("strategy", Napi::Number::New(env, run_.strategy));
    o.Set("group", Napi::Number::New(env, run_.group));
    return o;
  }

 private:
  SpmmArgs args_;
  int strategy_;
  Run run_;
};

// gpuSpmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, strategy)
Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    const SpmmArgs a = get_spmm_args(info, fn);
    const int strategy = static_cast<int>(get_int(info, 10, fn, "strategy", 0, 2));
    auto* w = new SpmmWorker(info.Env(), fn, a, strategy);
    w->pin(info, 0, 10);
    return KernelWorker::start(w, false);
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSpmm"); }
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSpmv"); }

class BfsWorker : public KernelWorker {
 public:
  BfsWorker(Napi::Env env, const char* fn, BfsArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return bfs(fn_, args_, &stats_, &run_); }
  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_run(o, run_);
    set_bfs_stats(o, stats_);
    return o;
  }

 private:
  BfsArgs args_;
  BfsStats stats_;
  Run run_;
};

// gpuBfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, direction, alpha, beta)
Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuBfs";
  return with_arg_errors(info.Env(), [&] {
    BfsArgs a;
    get_graph(info, 0, fn, a.out, a.in);
    const int64_t n = a.out.rows;
    if (n == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
    a.source = get_int(info, 5, fn, "source", 0, n - 1);
    Borrowed depth = get_array(info, 6, fn, "depth", {napi_int32_array});
    if (depth.length != static_cast<size_t>(n)) throw ArgError{arg_name(fn, "depth") + " must have length n"};
    a.depth = static_cast<int32_t*>(depth.data);
    a.direction = static_cast<BfsDirection>(get_int(info, 7, fn, "direction", 0, 2));
    a.alpha = get_double(info, 8, fn, "alpha");
    a.beta = get_double(info, 9, fn, "beta");
    if (!(a.alpha > 0) || !(a.beta > 0)) throw ArgError{arg_name(fn, "alpha and beta") + " must be positive"};
    auto* w = new BfsWorker(info.Env(), fn, a);
    w->pin(info, 0, 7);
    return KernelWorker::start(w, false);
  });
}

class MsBfsWorker : public KernelWorker {
 public:
  MsBfsWorker(Napi::Env env, const char* fn, MsBfsArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return msbfs(fn_, args_, &edges_, &run_); }
  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_run(o, run_);
    o.Set("edgesExamined", Napi::Number::New(env, static_cast<double>(edges_)));
    return o;
  }

 private:
  MsBfsArgs args_;
  int64_t edges_ = 0;
  Run run_;
};

// gpuMsbfs(n, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths)
Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuMsbfs";
  return with_arg_errors(info.Env(), [&] {
    MsBfsArgs a;
    get_graph(info, 0, fn, a.out, a.in);
    const SourcesDepths sd = get_sources_depths(info, 5, fn, a.out.rows);
    a.sources = sd.sources;
    a.num_sources = sd.count;
    a.depths = sd.depths;
    auto* w = new MsBfsWorker(info.Env(), fn, a);
    w->pin(info, 0, 7);
    return KernelWorker::start(w, false);
  });
}

class PrefetchWorker : public KernelWorker {
 public:
  PrefetchWorker(Napi::Env env, const char* fn, std::vector<HostSpan> spans) : KernelWorker(env, fn), spans_(std::move(spans)) {}

 protected:
  Status compute() override { return prefetch(fn_, spans_, &result_); }
  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    o.Set("copySeconds", Napi::Number::New(env, result_.seconds));
    o.Set("bytes", Napi::Number::New(env, result_.bytes));
    o.Set("copied", Napi::Number::New(env, result_.copied));
    o.Set("already", Napi::Number::New(env, result_.already));
    return o;
  }

 private:
  std::vector<HostSpan> spans_;
  PrefetchResult result_;
};

// gpuPrefetch(buffers: TypedArray[]) -> Promise<{ seconds, copySeconds, bytes, copied, already }>
Napi::Value Prefetch(const Napi::CallbackInfo& info) {
  const char* fn = "gpuPrefetch";
  return with_arg_errors(info.Env(), [&] {
    std::vector<Napi::Object> keep;
    std::vector<HostSpan> spans = get_spans(info, 0, fn, &keep);
    auto* w = new PrefetchWorker(info.Env(), fn, std::move(spans));
    for (Napi::Object& o : keep) w->pin_object(o);
    return KernelWorker::start(w, false);
  });
}

// gpuRelease(buffers: TypedArray[]) -> bytes freed (synchronous: it only drops table entries)
Napi::Value Release(const Napi::CallbackInfo& info) {
  const char* fn = "gpuRelease";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    double freed = 0;
    release(get_spans(info, 0, fn, nullptr), &freed);
    return Napi::Number::New(info.Env(), freed);
  });
}

// gpuResident() -> { buffers, bytes } resident now
Napi::Value Resident(const Napi::CallbackInfo& info) {
  double count = 0, bytes = 0;
  resident_stats(&count, &bytes);
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("buffers", Napi::Number::New(info.Env(), count));
  o.Set("bytes", Napi::Number::New(info.Env(), bytes));
  return o;
}

void Register(Napi::Env env, Napi::Object exports) {
  exports.Set("gpuPrefetch", Napi::Function::New(env, Prefetch, "gpuPrefetch"));
  exports.Set("gpuRelease", Napi::Function::New(env, Release, "gpuRelease"));
  exports.Set("gpuResident", Napi::Function::New(env, Resident, "gpuResident"));
  exports.Set("gpuProbe", Napi::Function::New(env, GpuProbe, "gpuProbe"));
  exports.Set("gpuSpmm", Napi::Function::New(env, Spmm, "gpuSpmm"));
  exports.Set("gpuSpmv", Napi::Function::New(env, Spmv, "gpuSpmv"));
  exports.Set("gpuBfs", Napi::Function::New(env, Bfs, "gpuBfs"));
  exports.Set("gpuMsbfs", Napi::Function::New(env, MsBfs, "gpuMsbfs"));
}

ExportRegistrar registrar(Register);

}  // namespace
}  // namespace gpu
}  // namespace dype
