// Node-API face of the CGRA simulator: cgraSpmm, cgraSpmv, cgraBfs and cgraMsbfs take the
// flat CSR arrays plus a params object (the device spec's values), check both again, run the
// simulation on a libuv worker, and resolve with the result's counters.
#include <napi.h>

#include <cmath>
#include <string>
#include <vector>

#include "async_call.h"
#include "sim/cgra.h"

namespace dype {
namespace {

using namespace napi;

double param(Napi::Object o, const char* fn, const char* key, double lo, double hi, bool integer) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw ArgError{std::string(fn) + ": params." + key + " must be a number"};
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(d) || d < lo || d > hi || (integer && d != std::floor(d))) {
    throw ArgError{std::string(fn) + ": params." + key + " = " + std::to_string(d) + " must be " + (integer ? "an integer " : "") +
                   "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  }
  return d;
}

cgra::Params get_params(const Napi::CallbackInfo& info, size_t i, const char* fn) {
  if (i >= info.Length() || !info[i].IsObject()) throw ArgError{std::string(fn) + ": params must be an object"};
  Napi::Object o = info[i].As<Napi::Object>();
  cgra::Params p;
  auto i64 = [&](const char* k, double lo, double hi) { return static_cast<int64_t>(param(o, fn, k, lo, hi, true)); };
  p.pe_rows = i64("peRows", 1, 64);
  p.pe_cols = i64("peCols", 1, 64);
  p.mem_ports = i64("memPorts", 1, 4096);
  if (p.mem_ports > p.pes()) throw ArgError{std::string(fn) + ": params.memPorts exceeds the number of PEs"};
  p.clock_hz = param(o, fn, "clockHz", 1e6, 1e11, false);
  p.spm_bytes = i64("spmBytes", 1024, 1 << 30);
  p.spm_banks = i64("spmBanks", 1, 64);
  p.fp_latency = i64("fpLatencyCycles", 1, 64);
  p.fp64_op_slots = i64("fp64OpSlots", 1, 16);
  p.dma_bytes_per_cycle = param(o, fn, "dmaBytesPerCycle", 0.01, 4096, false);
  p.dma_latency = i64("dmaLatencyCycles", 0, 1e6);
  p.dma_outstanding = i64("dmaOutstanding", 1, 1024);
  p.line_bytes = i64("lineBytes", 4, 65536);
  if (p.line_bytes % 4 != 0) throw ArgError{std::string(fn) + ": params.lineBytes must be a multiple of 4"};
  if (p.line_bytes > p.spm_bytes / 2) throw ArgError{std::string(fn) + ": params.lineBytes must be at most half of spmBytes"};
  p.config_bytes_per_slot = i64("configBytesPerSlot", 1, 4096);
  p.pass_overhead = i64("passOverheadCycles", 0, 1e9);
  p.op_pj = param(o, fn, "opEnergyPj", 0, 1e6, false);
  p.spm_access_pj = param(o, fn, "spmAccessEnergyPj", 0, 1e6, false);
  p.dram_byte_pj = param(o, fn, "dramByteEnergyPj", 0, 1e6, false);
  p.static_watts = param(o, fn, "staticWatts", 0, 1e6, false);
  return p;
}

// Out-edges only: the simulated search is top-down. Positions [i, i+3): n, rowPtr, colIdx.
Csr get_out_edges(const Napi::CallbackInfo& info, size_t i, const char* fn) {
  Csr g;
  g.rows = g.cols = get_int(info, i, fn, "n", 0, INT32_MAX);
  Borrowed rp = get_array(info, i + 1, fn, "rowPtr", {napi_int32_array, napi_bigint64_array});
  Borrowed ci = get_array(info, i + 2, fn, "colIdx", {napi_int32_array});
  if (rp.length != static_cast<size_t>(g.rows) + 1) throw ArgError{arg_name(fn, "rowPtr") + " must have length n + 1"};
  g.row_ptr = rp.data;
  g.wide_row_ptr = rp.type == napi_bigint64_array;
  g.col_idx = static_cast<const int32_t*>(ci.data);
  g.nnz = static_cast<int64_t>(ci.length);
  return g;
}

void set_counters(Napi::Object& o, const cgra::Counters& c) {
  auto d = [](int64_t v) { return static_cast<double>(v); };
  set_numbers(o, {{"cycles", d(c.cycles)}, {"computeCycles", d(c.compute_cycles)}, {"bankStallCycles", d(c.bank_stall_cycles)},
                  {"dmaStallCycles", d(c.dma_stall_cycles)}, {"configCycles", d(c.config_cycles)},
                  {"passOverheadCycles", d(c.pass_cycles)}, {"ii", d(c.ii)}, {"unrollLanes", d(c.unroll_lanes)},
                  {"unrollNonzeros", d(c.unroll_nonzeros)}, {"iterations", d(c.iterations)},
                  {"operations", d(c.alu_ops + c.pe_mem_ops)}, {"aluOperations", d(c.alu_ops)},
                  {"memoryOperations", d(c.pe_mem_ops)}, {"spmAccesses", d(c.spm_accesses)}, {"dramBytes", d(c.dram_bytes)},
                  {"dmaTransactions", d(c.dma_transactions)}, {"lineMisses", d(c.line_misses)}, {"tiles", d(c.tiles)},
                  {"passes", d(c.passes)}, {"resident", d(c.resident)}, {"simulatedSeconds", c.seconds}, {"joules", c.joules},
                  {"utilisation", c.utilisation}});
}

// The simulator computes the real result, so like the CPU kernel it refuses one that is not
// finite (a NaN or infinity written into x or values after validation, or an overflow) and names
// the offending element of x when there is one, instead of handing back NaN silently.
template <typename T>
Status finite_result(const char* fn, const cgra::SpmmArgs& a) {
  const T* y = static_cast<const T*>(a.y);
  const int64_t n = (a.row_end - a.row_begin) * a.k;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isfinite(y[i])) continue;
    const T* x = static_cast<const T*>(a.x);
    for (int64_t j = 0; j < a.a.cols * a.k; ++j) {
      if (!std::isfinite(x[j])) {
        return Status::invalid(std::string(fn) + ": x element (" + std::to_string(j / a.k) + ", " + std::to_string(j % a.k) + ") = " +
                               (x[j] != x[j] ? "NaN" : x[j] > 0 ? "Infinity" : "-Infinity") + " is not finite");
      }
    }
    return Status::invalid(std::string(fn) + ": the result is not finite in row " + std::to_string(a.row_begin + i / a.k) +
                           " (overflow, or values changed after validation)");
  }
  return Status{};
}

Status spmm_checked(const char* fn, const cgra::Params& p, const cgra::SpmmArgs& a, cgra::Counters* c) {
  Status st = cgra::spmm(fn, p, a, c);
  if (!st.ok) return st;
  return a.f64 ? finite_result<double>(fn, a) : finite_result<float>(fn, a);
}

// cgraSpmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, params, inline?, timing?)
// timing false: the result alone, accumulated as the simulation does; the counters are zero.
Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    const SpmmArgs s = get_spmm_args(info, fn);
    cgra::SpmmArgs a;
    a.a = s.a;
    a.row_begin = s.row_begin;
    a.row_end = s.row_end;
    a.x = s.x;
    a.y = s.y;
    a.f64 = s.type == DenseType::kF64;
    a.k = s.k;
    a.timing = info.Length() <= 12 || info[12].IsUndefined() || info[12].ToBoolean().Value();
    const cgra::Params p = get_params(info, 10, fn);
    return launch<cgra::Counters>(info.Env(), fn, get_inline(info, 11), Pins::args(info, 10),
                                  [p, a](const char* fn, cgra::Counters& c) { return spmm_checked(fn, p, a, &c); }, set_counters);
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "cgraSpmm"); }
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "cgraSpmv"); }

// What a simulated search fills: the counters and, for a single search, the depth profile.
struct SearchRun {
  cgra::Counters c;
  std::vector<int64_t> frontier;
};

// cgraBfs(n, rowPtr, colIdx, source, depth, params, inline?, startLevel?, maxLevels?): counters
// plus `frontier`. startLevel -1 (the default) searches from source; L >= 0 resumes from the
// depths already in `depth` (each in [-1, L], checked on the worker) at the frontier of depth L.
// maxLevels > 0 stops after that many levels; 0 (the default) runs to the end.
Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "cgraBfs";
  return with_arg_errors(info.Env(), [&] {
    cgra::BfsArgs a;
    a.g = get_out_edges(info, 0, fn);
    if (a.g.rows == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
    a.source = get_int(info, 3, fn, "source", 0, a.g.rows - 1);
    Borrowed depth = get_array(info, 4, fn, "depth", {napi_int32_array});
    if (depth.length != static_cast<size_t>(a.g.rows)) throw ArgError{arg_name(fn, "depth") + " must have length n"};
    a.depth = static_cast<int32_t*>(depth.data);
    const cgra::Params p = get_params(info, 5, fn);
    a.start_level = get_optional_int(info, 7, fn, "startLevel", -1, a.g.rows - 1, -1);
    a.max_levels = get_optional_int(info, 8, fn, "maxLevels", 0, INT32_MAX, 0);
    return launch<SearchRun>(info.Env(), fn, get_inline(info, 6), Pins::args(info, 5),
                             [p, a](const char* fn, SearchRun& r) { return cgra::bfs(fn, p, a, &r.frontier, &r.c); },
                             [](Napi::Object& o, const SearchRun& r) {
                               set_counters(o, r.c);
                               set_counts(o, "frontier", r.frontier);
                             });
  });
}

// cgraMsbfs(n, rowPtr, colIdx, sources, depths, params, inline?)
Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "cgraMsbfs";
  return with_arg_errors(info.Env(), [&] {
    cgra::MsBfsArgs a;
    a.g = get_out_edges(info, 0, fn);
    const SourcesDepths sd = get_sources_depths(info, 3, fn, a.g.rows);
    a.sources = sd.sources;
    a.num_sources = sd.count;
    a.depths = sd.depths;
    const cgra::Params p = get_params(info, 5, fn);
    return launch<cgra::Counters>(info.Env(), fn, get_inline(info, 6), Pins::args(info, 5),
                                  [p, a](const char* fn, cgra::Counters& c) { return cgra::msbfs(fn, p, a, &c); }, set_counters);
  });
}

void register_cgra(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"cgraSpmm", Spmm}, {"cgraSpmv", Spmv}, {"cgraBfs", Bfs}, {"cgraMsbfs", MsBfs}});
}

static ExportRegistrar reg(register_cgra);

}  // namespace
}  // namespace dype
