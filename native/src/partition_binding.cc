// Graph partitioning with METIS (k-way, vertices weighted by their work: degree + 1), when the build
// found it (scripts/metis-config.cjs); otherwise the binding says why and the TypeScript layer
// keeps to contiguous row blocks. METIS assumes a symmetric graph without self loops in sorted
// CSR and reads out of bounds otherwise, so all of that is checked here before it is called:
// the TypeScript layer prepares such a graph, but native code trusts no caller.
#include <napi.h>

#include <cmath>
#include <string>
#include <vector>

#ifdef DYPE_HAVE_METIS
#include <metis.h>
#endif

#include "napi_util.h"

namespace dype {
namespace {

using namespace napi;

#ifndef DYPE_METIS_OFF
#define DYPE_METIS_OFF 0
#endif

[[maybe_unused]] const char* metis_off_reason() {
  switch (DYPE_METIS_OFF) {
    case 1:
      return "metis.h was not found when the addon was built (Debian: apt install libmetis-dev, then npm rebuild)";
    case 2:
      return "libmetis.so was not found when the addon was built (Debian: apt install libmetis-dev, then npm rebuild)";
    case 3:
      return "DYPE_METIS=0 was set when the addon was built";
    case 4:
      return "the metis.h found uses 64-bit indices; dype passes 32-bit CSR indices";
    default:
      return "";
  }
}

// A sorted, symmetric CSR graph without self loops, or the first fault found.
std::string graph_fault(int64_t n, const int32_t* xadj, const int32_t* adj, int64_t m) {
  if (xadj[0] != 0 || xadj[n] != m) return "rowPtr must start at 0 and end at colIdx's length";
  for (int64_t v = 0; v < n; ++v) {
    if (xadj[v + 1] < xadj[v]) return "rowPtr must not decrease (row " + std::to_string(v) + ")";
    for (int64_t e = xadj[v]; e < xadj[v + 1]; ++e) {
      const int32_t u = adj[e];
      if (u < 0 || u >= n) return "colIdx[" + std::to_string(e) + "] = " + std::to_string(u) + " is outside [0, " + std::to_string(n) + ")";
      if (u == v) return "vertex " + std::to_string(v) + " has a self loop";
      if (e > xadj[v] && adj[e - 1] >= u) return "row " + std::to_string(v) + " is not strictly sorted";
    }
  }
  // Symmetry: each (v, u) has its (u, v), found by binary search in u's sorted row.
  for (int64_t v = 0; v < n; ++v) {
    for (int64_t e = xadj[v]; e < xadj[v + 1]; ++e) {
      const int32_t u = adj[e];
      int64_t lo = xadj[u];
      int64_t hi = xadj[u + 1];
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (adj[mid] < v) lo = mid + 1;
        else hi = mid;
      }
      if (lo == xadj[u + 1] || adj[lo] != v)
        return "the graph is not symmetric: " + std::to_string(v) + " -> " + std::to_string(u) + " has no reverse";
    }
  }
  return "";
}

// metisPartition(n, rowPtr, colIdx, parts, seed, out, weights): writes each vertex's part into out
// (Int32Array of n) and returns the edge cut METIS reports (each undirected edge counted once).
// weights (Float64Array of parts, or null for equal parts): each part's target share of the work,
// positive, summing to 1 within 1e-6 (METIS's tpwgts).
Napi::Value MetisPartition(const Napi::CallbackInfo& info) {
  const char* fn = "metisPartition";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t n = get_int(info, 0, fn, "n", 0, INT32_MAX - 1);
    Borrowed rp = get_array(info, 1, fn, "rowPtr", {napi_int32_array});
    Borrowed ci = get_array(info, 2, fn, "colIdx", {napi_int32_array});
    const int64_t parts = get_int(info, 3, fn, "parts", 1, 1 << 20);
    const int64_t seed = get_int(info, 4, fn, "seed", 0, INT32_MAX);
    Borrowed out = get_array(info, 5, fn, "out", {napi_int32_array});
    std::vector<double> weights;
    if (info.Length() > 6 && !info[6].IsNull() && !info[6].IsUndefined()) {
      Borrowed w = get_array(info, 6, fn, "weights", {napi_float64_array});
      if (w.length != static_cast<size_t>(parts)) throw ArgError{arg_name(fn, "weights") + " must have length parts = " + std::to_string(parts)};
      const auto* wd = static_cast<const double*>(w.data);
      double sum = 0;
      for (size_t p = 0; p < w.length; ++p) {
        if (!(wd[p] > 0) || !std::isfinite(wd[p])) throw ArgError{arg_name(fn, "weights") + "[" + std::to_string(p) + "] must be a positive finite number"};
        sum += wd[p];
      }
      if (std::fabs(sum - 1) > 1e-6) throw ArgError{arg_name(fn, "weights") + " must sum to 1, got " + std::to_string(sum)};
      weights.assign(wd, wd + w.length);
    }
    if (rp.length != static_cast<size_t>(n) + 1) throw ArgError{arg_name(fn, "rowPtr") + " must have length n + 1 = " + std::to_string(n + 1)};
    if (out.length != static_cast<size_t>(n)) throw ArgError{arg_name(fn, "out") + " must have length n = " + std::to_string(n)};
    const auto* xadj = static_cast<const int32_t*>(rp.data);
    const auto* adj = static_cast<const int32_t*>(ci.data);
    auto* part = static_cast<int32_t*>(out.data);
    const std::string fault = graph_fault(n, xadj, adj, static_cast<int64_t>(ci.length));
    if (!fault.empty()) throw ArgError{std::string(fn) + ": " + fault};
#ifdef DYPE_HAVE_METIS
    if (parts == 1 || n == 0) {
      for (int64_t v = 0; v < n; ++v) part[v] = 0;
      return Napi::Number::New(info.Env(), 0);
    }
    // Work per vertex, as the row blocks balance it: its entries plus one.
    std::vector<idx_t> vwgt(static_cast<size_t>(n));
    for (int64_t v = 0; v < n; ++v) vwgt[static_cast<size_t>(v)] = xadj[v + 1] - xadj[v] + 1;
    idx_t nv = static_cast<idx_t>(n);
    idx_t ncon = 1;
    idx_t np = static_cast<idx_t>(parts);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = static_cast<idx_t>(seed);
    options[METIS_OPTION_NUMBERING] = 0;
    idx_t cut = 0;
    std::vector<real_t> tpwgts(weights.begin(), weights.end());
    // METIS takes non-const pointers; it does not write the graph.
    const int status = METIS_PartGraphKway(&nv, &ncon, const_cast<idx_t*>(xadj), const_cast<idx_t*>(adj), vwgt.data(), nullptr, nullptr, &np,
                                           tpwgts.empty() ? nullptr : tpwgts.data(), nullptr, options, &cut, part);
    if (status != METIS_OK) {
      throw make_error(info.Env(), "ERR_NATIVE", std::string(fn) + ": METIS failed with status " + std::to_string(status) +
                                                     (status == METIS_ERROR_MEMORY ? " (out of memory)" : ""));
    }
    return Napi::Number::New(info.Env(), static_cast<double>(cut));
#else
    (void)parts;
    (void)seed;
    (void)part;
    throw make_error(info.Env(), "ERR_UNSUPPORTED", std::string(fn) + ": METIS is not available: " + metis_off_reason());
#endif
  });
}

// metisInfo(): { available, reason }.
Napi::Value MetisInfo(const Napi::CallbackInfo& info) {
  Napi::Object o = Napi::Object::New(info.Env());
#ifdef DYPE_HAVE_METIS
  set_booleans(o, {{"available", true}});
  set_strings(o, {{"reason", ""}});
#else
  set_booleans(o, {{"available", false}});
  set_strings(o, {{"reason", metis_off_reason()}});
#endif
  return o;
}

void register_partition(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"metisPartition", MetisPartition}, {"metisInfo", MetisInfo}});
}

const ExportRegistrar reg(register_partition);

}  // namespace
}  // namespace dype
