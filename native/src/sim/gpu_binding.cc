// Node-API face of gpu-sim: gpuSimSpmm, gpuSimSpmv, gpuSimBfs and gpuSimMsbfs take the same
// positional arrays as the CPU kernels plus the spec's parameter values, compute the true
// result on the CPU and resolve with the modelled time, energy and counters.
#include <napi.h>

#include <cmath>
#include <string>

#include "../kernels/spmm.h"
#include "../async_call.h"
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
  set_numbers(o, {{"modelSeconds", r.seconds}, {"joules", r.joules}, {"kernels", r.kernels}, {"dramBytes", r.dram_bytes},
                  {"l2Sectors", r.l2_sectors}, {"instructions", r.instructions}, {"occupancy", r.occupancy()},
                  {"powerCapped", r.power_capped}});
}

// What a modelled SpMM fills: the model's report and how long tracing the access pattern took.
struct SpmmRun {
  SpmmModel m;
  double trace_s = 0;
};

// gpuSimSpmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, params, inline?)
Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    const SpmmArgs a = get_spmm_args(info, fn);
    const GpuParams p = get_params(info, 10, fn);
    auto compute = [a, p](const char* fn, SpmmRun& r) {
      Status st = spmm(fn, a);
      if (!st.ok) return st;
      const auto t0 = std::chrono::steady_clock::now();
      st = model_spmm(fn, a.a, a.row_begin, a.row_end, a.k, a.type == DenseType::kF32 ? 4 : 8, p, &r.m);
      r.trace_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return st;
    };
    auto report = [](Napi::Object& o, const SpmmRun& r) {
      set_run(o, r.m.run);
      set_numbers(o, {{"variant", r.m.variant}, {"rowSplitSeconds", r.m.row_split_s}, {"nnzSplitSeconds", r.m.nnz_split_s},
                      {"longestWarpSeconds", r.m.longest_warp_s}, {"achievedBandwidth", r.m.achieved_bandwidth},
                      {"traceSeconds", r.trace_s}});
    };
    return launch<SpmmRun>(info.Env(), fn, get_inline(info, 11), Pins::args(info, 10), compute, report);
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSimSpmm"); }
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "gpuSimSpmv"); }

void set_graph(Napi::Object& o, const BfsModel& m) {
  set_run(o, m.run);
  set_numbers(o, {{"levels", m.levels}, {"bottomUpLevels", m.bottom_up_levels}, {"edgesExamined", m.edges_examined},
                  {"achievedBandwidth", m.achieved_bandwidth}});
}

// gpuSimBfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, params, inline?, startLevel?, maxLevels?)
// startLevel -1 (the default) searches from source; L >= 0 resumes from the depths already in
// `depth` (each in [-1, L], checked on the worker) at the frontier of depth L. maxLevels > 0
// stops after that many levels; 0 (the default) runs to the end.
Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuSimBfs";
  return with_arg_errors(info.Env(), [&] {
    BfsArgs a;
    get_search(info, 0, fn, a);
    const int64_t n = a.out.rows;
    const GpuParams p = get_params(info, 7, fn);
    const int64_t start_level = get_optional_int(info, 9, fn, "startLevel", -1, n - 1, -1);
    const int64_t max_levels = get_optional_int(info, 10, fn, "maxLevels", 0, INT32_MAX, 0);
    return launch<BfsModel>(info.Env(), fn, get_inline(info, 8), Pins::args(info, 7),
                            [a, p, start_level, max_levels](const char* fn, BfsModel& m) {
                              return model_bfs(fn, a.out, a.in, a.source, a.depth, p, &m, start_level, max_levels);
                            },
                            [](Napi::Object& o, const BfsModel& m) {
                              set_graph(o, m);
                              set_counts(o, "frontier", m.frontier);
                            });
  });
}

// gpuSimMsbfs(n, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths, params, inline?)
Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "gpuSimMsbfs";
  return with_arg_errors(info.Env(), [&] {
    const MsBfsArgs a = get_msbfs_args(info, fn);
    if (a.out.rows == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
    const GpuParams p = get_params(info, 7, fn);
    return launch<BfsModel>(info.Env(), fn, get_inline(info, 8), Pins::args(info, 7),
                            [a, p](const char* fn, BfsModel& m) { return model_msbfs(fn, a.out, a.sources, a.num_sources, a.depths, p, &m); },
                            set_graph);
  });
}

void register_exports(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"gpuSimSpmm", Spmm}, {"gpuSimSpmv", Spmv}, {"gpuSimBfs", Bfs}, {"gpuSimMsbfs", MsBfs}});
}

const ExportRegistrar reg(register_exports);

}  // namespace
}  // namespace gpusim
}  // namespace dype
