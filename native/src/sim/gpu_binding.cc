// Node-API face of gpu-sim: gpuSimSpmm, gpuSimSpmv, gpuSimBfs and gpuSimMsbfs take the same
// positional arrays as the CPU kernels plus the spec's parameter values, compute the true
// result on the CPU and resolve with the modelled time, energy and counters.
#include <napi.h>

#include <cmath>
#include <string>

#include "../kernels/spmm.h"
#include "../napi_util.h"
#include "gpu_model.h"

namespace dype {
namespace gpusim {
namespace {

using namespace napi;

// One numeric field of the params object, finite and positive (every parameter is a rate, a
// size or a latency), scaled to base units.
double param(const Napi::Object& o, const char* fn, const char* key, double scale) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw ArgError{std::string(fn) + ": params." + key + " must be a number"};
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(d) || d <= 0) throw ArgError{std::string(fn) + ": params." + key + " must be a positive finite number"};
  return d * scale;
}

GpuParams get_params(const Napi::CallbackInfo& info, size_t i, const char* fn) {
  if (i >= info.Length() || !info[i].IsObject()) throw ArgError{std::string(fn) + ": params must be an object"};
  const Napi::Object o = info[i].As<Napi::Object>();
  GpuParams p;
  p.sms = param(o, fn, "sms", 1);
  p.clock_hz = param(o, fn, "clockMhz", 1e6);
  p.max_warps_per_sm = param(o, fn, "maxWarpsPerSm", 1);
  p.schedulers_per_sm = param(o, fn, "schedulersPerSm", 1);
  p.l1_bytes = param(o, fn, "l1KbPerSm", 1024);
  p.l2_bytes = param(o, fn, "l2Mb", 1e6);
  p.dram_bytes_per_s = param(o, fn, "dramGbs", 1e9);
  p.l2_bytes_per_s = param(o, fn, "l2Gbs", 1e9);
  p.latency_s = param(o, fn, "memoryLatencyNs", 1e-9);
  p.sectors_in_flight_per_warp = param(o, fn, "sectorsInFlightPerWarp", 1);
  p.launch_s = param(o, fn, "launchUs", 1e-6);
  p.level_sync_s = param(o, fn, "levelSyncUs", 1e-6);
  p.fp32_flops = param(o, fn, "fp32Tflops", 1e12);
  p.fp64_flops = param(o, fn, "fp64Tflops", 1e12);
  p.idle_w = param(o, fn, "idleWatts", 1);
  p.tdp_w = param(o, fn, "tdpWatts", 1);
  p.dram_j_per_byte = param(o, fn, "dramPjPerBit", 8e-12);
  p.l2_j_per_sector = param(o, fn, "l2PjPerSector", 1e-12);
  p.j_per_flop = param(o, fn, "pjPerFlop", 1e-12);
  p.j_per_warp_instruction = param(o, fn, "pjPerWarpInstruction", 1e-12);
  return p;
}

void set_run(Napi::Object& o, const RunReport& r) {
  Napi::Env env = o.Env();
  o.Set("modelSeconds", Napi::Number::New(env, r.seconds));
  o.Set("joules", Napi::Number::New(env, r.joules));
  o.Set("kernels", Napi::Number::New(env, r.kernels));
  o.Set("dramBytes", Napi::Number::New(env, r.dram_bytes));
  o.Set("l2Sectors", Napi::Number::New(env, r.l2_sectors));
  o.Set("instructions", Napi::Number::New(env, r.instructions));
  o.Set("occupancy", Napi::Number::New(env, r.occupancy()));
  o.Set("powerCapped", Napi::Number::New(env, r.power_capped));
}

class SpmmWorker : public KernelWorker {
 public:
  SpmmWorker(Napi::Env env, const char* fn, SpmmArgs args, GpuParams p) : KernelWorker(env, fn), args_(args), p_(p) {}

 protected:
  Status compute() override {
    Status st = spmm(fn_, args_);
    if (!st.ok) return st;
    const auto t0 = std::chrono::steady_clock::now();
    st = model_spmm(fn_, args_.a, args_.row_begin, args_.row_end, args_.k, args_.type == DenseType::kF32 ? 4 : 8, p_, &m_);
    trace_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
  }

  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_run(o, m_.run);
    o.Set("variant", Napi::Number::New(env, m_.variant));
    o.Set("rowSplitSeconds", Napi::Number::New(env, m_.row_split_s));
    o.Set("nnzSplitSeconds", Napi::Number::New(env, m_.nnz_split_s));
    o.Set("longestWarpSeconds", Napi::Number::New(env, m_.longest_warp_s));
    o.Set("achievedBandwidth", Napi::Number::New(env, m_.achieved_bandwidth));
    o.Set("traceSeconds", Napi::Number::New(env, trace_s_));
    return o;
  }

 private:
  SpmmArgs args_;
  GpuParams p_;
  SpmmModel m_;
  double trace_s_ = 0;
};

// gpuSimSpmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, params, inline?)
Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    const SpmmArgs a = get_spmm_args(info, fn);
    const GpuParams p = get_params(info, 10, fn);
    auto* w = new SpmmWorker(info.Env(), fn, a, p);
    const bool run_inline = get_inline(info, 11);
    if (!run_inline) w->pin(info, 0, 10);
    return KernelWorker::start(w, run_inline);
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSimSpmm"); }
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSimSpmv"); }

void set_graph(Napi::Object& o, const BfsModel& m) {
  Napi::Env env = o.Env();
  set_run(o, m.run);
  o.Set("levels", Napi::Number::New(env, m.levels));
  o.Set("bottomUpLevels", Napi::Number::New(env, m.bottom_up_levels));
  o.Set("edgesExamined", Napi::Number::New(env, m.edges_examined));
  o.Set("achievedBandwidth", Napi::Number::New(env, m.achieved_bandwidth));
}

class BfsWorker : public KernelWorker {
 public:
  BfsWorker(Napi::Env env, const char* fn, Csr out, Csr in, int64_t source, int32_t* depth, GpuParams p, int64_t start_level,
            int64_t max_levels)
      : KernelWorker(env, fn), out_(out), in_(in), source_(source), depth_(depth), p_(p), start_level_(start_level),
        max_levels_(max_levels) {}

 protected:
  Status compute() override { return model_bfs(fn_, out_, in_, source_, depth_, p_, &m_, start_level_, max_levels_); }

  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_graph(o, m_);
    auto frontier = Napi::Float64Array::New(env, m_.frontier.size());
    for (size_t i = 0; i < m_.frontier.size(); ++i) frontier[i] = static_cast<double>(m_.frontier[i]);
    o.Set("frontier", frontier);
    return o;
  }

 private:
  Csr out_, in_;
  int64_t source_;
  int32_t* depth_;
  GpuParams p_;
  int64_t start_level_, max_levels_;
  BfsModel m_;
};

// An optional trailing integer: `fallback` when absent or undefined, else checked like get_int.
int64_t get_optional_int(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, int64_t lo, int64_t hi,
                         int64_t fallback) {
  if (i >= info.Length() || info[i].IsUndefined()) return fallback;
  return get_int(info, i, fn, what, lo, hi);
}

// gpuSimBfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, params, inline?, startLevel?, maxLevels?)
// startLevel -1 (the default) searches from source; L >= 0 resumes from the depths already in
// `depth` (each in [-1, L], checked on the worker) at the frontier of depth L. maxLevels > 0
// stops after that many levels; 0 (the default) runs to the end.
Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuSimBfs";
  Napi::Env env = info.Env();
  return with_arg_errors(env, [&] {
      Csr out, in;
      get_graph(info, 0, fn, out, in);
      const int64_t n = out.rows;
      if (n == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
      const int64_t source = get_int(info, 5, fn, "source", 0, n - 1);
      Borrowed depth = get_array(info, 6, fn, "depth", {napi_int32_array});
      if (depth.length != static_cast<size_t>(n)) throw ArgError{arg_name(fn, "depth") + " must have length n"};
      const GpuParams p = get_params(info, 7, fn);
      const bool run_inline = get_inline(info, 8);
      const int64_t start_level = get_optional_int(info, 9, fn, "startLevel", -1, n - 1, -1);
      const int64_t max_levels = get_optional_int(info, 10, fn, "maxLevels", 0, INT32_MAX, 0);
      auto* w = new BfsWorker(env, fn, out, in, source, static_cast<int32_t*>(depth.data), p, start_level, max_levels);
      if (!run_inline) w->pin(info, 0, 7);
      return KernelWorker::start(w, run_inline);
  });
}

class MsBfsWorker : public KernelWorker {
 public:
  MsBfsWorker(Napi::Env env, const char* fn, Csr out, const int32_t* sources, int64_t count, int32_t* depths, GpuParams p)
      : KernelWorker(env, fn), out_(out), sources_(sources), count_(count), depths_(depths), p_(p) {}

 protected:
  Status compute() override { return model_msbfs(fn_, out_, sources_, count_, depths_, p_, &m_); }

  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_graph(o, m_);
    return o;
  }

 private:
  Csr out_;
  const int32_t* sources_;
  int64_t count_;
  int32_t* depths_;
  GpuParams p_;
  BfsModel m_;
};

// gpuSimMsbfs(n, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths, params, inline?)
Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuSimMsbfs";
  Napi::Env env = info.Env();
  return with_arg_errors(env, [&] {
      Csr out, in;
      get_graph(info, 0, fn, out, in);
      if (out.rows == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
      const SourcesDepths sd = get_sources_depths(info, 5, fn, out.rows);
      const GpuParams p = get_params(info, 7, fn);
      const bool run_inline = get_inline(info, 8);
      auto* w = new MsBfsWorker(env, fn, out, sd.sources, sd.count, sd.depths, p);
      if (!run_inline) w->pin(info, 0, 7);
      return KernelWorker::start(w, run_inline);
  });
}

void register_exports(Napi::Env env, Napi::Object exports) {
  exports.Set("gpuSimSpmm", Napi::Function::New(env, Spmm, "gpuSimSpmm"));
  exports.Set("gpuSimSpmv", Napi::Function::New(env, Spmv, "gpuSimSpmv"));
  exports.Set("gpuSimBfs", Napi::Function::New(env, Bfs, "gpuSimBfs"));
  exports.Set("gpuSimMsbfs", Napi::Function::New(env, MsBfs, "gpuSimMsbfs"));
}

const ExportRegistrar reg(register_exports);

}  // namespace
}  // namespace gpusim
}  // namespace dype
