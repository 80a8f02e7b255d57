// Node-API face of the CUDA backend: gpuProbe, gpuSpmm, gpuSpmv, gpuBfs and gpuMsbfs take the same
// positional arrays as the CPU kernels, check them the same way, and run on a libuv worker (a
// GPU call is never cheaper than the async round trip). Built whether or not CUDA is: without
// it, gpuProbe says why and every operator rejects with ERR_UNSUPPORTED.
#include <napi.h>

#include "../async_call.h"
#include "gpu.h"
#include "run_report.h"

namespace dype {
namespace gpu {
namespace {

using namespace napi;

// What a graph operator fills: the device's costs and the search's profile or edge count.
struct SearchRun {
  BfsStats stats;
  int64_t edges = 0;
  Run run;
};

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
  // Field by field in the order JavaScript has always seen them.
  set_booleans(o, {{"built", p.built}, {"available", p.available}});
  set_strings(o, {{"reason", p.reason}, {"name", p.name}});
  set_numbers(o, {{"devices", p.devices}});
  set_strings(o, {{"computeCapability", std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor)}});
  set_numbers(o, {{"sms", p.sms}, {"totalBytes", p.total_bytes}, {"freeBytes", p.free_bytes}, {"l2Bytes", p.l2_bytes},
                  {"clockMhz", p.clock_mhz}, {"memoryClockMhz", p.memory_clock_mhz}, {"busWidthBits", p.bus_width_bits},
                  {"runtimeVersion", p.runtime_version}, {"driverVersion", p.driver_version}});
  set_booleans(o, {{"nvml", p.nvml}});
  set_numbers(o, {{"powerLimitWatts", p.power_limit_watts}});
  return o;
}

// gpuBlasProbe() -> { available, reason, library }: cuBLAS, loaded on this first call (GEMM on
// the card needs it; the other dense kernels do not).
Napi::Value GpuBlasProbe(const Napi::CallbackInfo& info) {
  const BlasProbe& b = blas_probe();
  Napi::Object o = Napi::Object::New(info.Env());
  set_booleans(o, {{"available", b.available}});
  set_strings(o, {{"reason", b.reason}, {"library", b.library}});
  return o;
}

// gpuSpmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, strategy)
Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    const SpmmArgs a = get_spmm_args(info, fn);
    const int strategy = static_cast<int>(get_int(info, 10, fn, "strategy", 0, 2));
    return launch<Run>(info.Env(), fn, false, Pins::args(info, 10),
                       [a, strategy](const char* fn, Run& r) { return spmm(fn, a, strategy, &r); },
                       [](Napi::Object& o, const Run& r) {
                         set_run(o, r);
                         set_numbers(o, {{"strategy", r.strategy}, {"group", r.group}});
                       });
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSpmm"); }
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSpmv"); }

// gpuBfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, direction, alpha, beta,
//        startLevel? (-1: a fresh search; else resume the search held in depth), maxLevels? (0: no limit))
Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuBfs";
  return with_arg_errors(info.Env(), [&] {
    BfsArgs a;
    get_search(info, 0, fn, a);
    get_direction(info, 7, fn, a);
    if (!(a.alpha > 0) || !(a.beta > 0)) throw ArgError{arg_name(fn, "alpha and beta") + " must be positive"};
    a.start_level = static_cast<int32_t>(get_optional_int(info, 10, fn, "startLevel", -1, a.out.rows - 1, -1));
    a.max_levels = get_optional_int(info, 11, fn, "maxLevels", 0, INT32_MAX, 0);
    return launch<SearchRun>(info.Env(), fn, false, Pins::args(info, 7),
                             [a](const char* fn, SearchRun& r) { return bfs(fn, a, &r.stats, &r.run); },
                             [](Napi::Object& o, const SearchRun& r) {
                               set_run(o, r.run);
                               set_bfs_stats(o, r.stats);
                             });
  });
}

// gpuMsbfs(n, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths)
Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuMsbfs";
  return with_arg_errors(info.Env(), [&] {
    const MsBfsArgs a = get_msbfs_args(info, fn);
    return launch<SearchRun>(info.Env(), fn, false, Pins::args(info, 7),
                             [a](const char* fn, SearchRun& r) { return msbfs(fn, a, &r.edges, &r.run); },
                             [](Napi::Object& o, const SearchRun& r) {
                               set_run(o, r.run);
                               set_edges_examined(o, r.edges);
                             });
  });
}

// A copy of whole host buffers between the host and the device on a worker, its buffers pinned:
// -> Promise<{ seconds, copySeconds, bytes, copied, already }>.
using SpanCopy = Status (*)(const char*, const std::vector<HostSpan>&, PrefetchResult*);
Napi::Value CopySpans(const Napi::CallbackInfo& info, const char* fn, SpanCopy copy) {
  return with_arg_errors(info.Env(), [&] {
    Pins keep;
    std::vector<HostSpan> spans = get_spans(info, 0, fn, &keep.objects);
    return launch<PrefetchResult>(info.Env(), fn, false, std::move(keep),
                                  [spans = std::move(spans), copy](const char* fn, PrefetchResult& r) { return copy(fn, spans, &r); },
                                  [](Napi::Object& o, const PrefetchResult& r) {
                                    set_numbers(o, {{"copySeconds", r.seconds}, {"bytes", r.bytes}, {"copied", r.copied}, {"already", r.already}});
                                  });
  });
}

// gpuPrefetch(buffers: TypedArray[]): host buffers made resident on the device.
Napi::Value Prefetch(const Napi::CallbackInfo& info) { return CopySpans(info, "gpuPrefetch", prefetch); }

// gpuRelease(buffers: TypedArray[]) -> bytes freed (synchronous: it only drops table entries)
Napi::Value Release(const Napi::CallbackInfo& info) {
  const char* fn = "gpuRelease";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    double freed = 0;
    release(get_spans(info, 0, fn, nullptr), &freed);
    return Napi::Number::New(info.Env(), freed);
  });
}

// gpuExpectOutputs(buffers: TypedArray[], defer: boolean) -> undefined (synchronous): the next
// operator writing one of these arrays keeps its result on the device (see expect_outputs).
Napi::Value ExpectOutputs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuExpectOutputs";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    std::vector<HostSpan> spans = get_spans(info, 0, fn, nullptr);
    if (info.Length() < 2 || !info[1].IsBoolean()) throw ArgError{arg_name(fn, "defer") + " must be a boolean"};
    expect_outputs(spans, info[1].As<Napi::Boolean>().Value());
    return info.Env().Undefined();
  });
}

// gpuFetch(buffers: TypedArray[]): deferred outputs copied home.
Napi::Value Fetch(const Napi::CallbackInfo& info) { return CopySpans(info, "gpuFetch", fetch); }

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
  export_functions(env, exports, {{"gpuPrefetch", Prefetch}, {"gpuRelease", Release}, {"gpuResident", Resident},
                                   {"gpuExpectOutputs", ExpectOutputs}, {"gpuFetch", Fetch},
                                   {"gpuProbe", GpuProbe}, {"gpuBlasProbe", GpuBlasProbe}, {"gpuSpmm", Spmm}, {"gpuSpmv", Spmv}, {"gpuBfs", Bfs},
                                   {"gpuMsbfs", MsBfs}});
}

ExportRegistrar registrar(Register);

}  // namespace
}  // namespace gpu
}  // namespace dype
