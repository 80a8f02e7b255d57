// Shared machinery of the Node-API bindings: argument readers that check type, range and length
// before any kernel sees a pointer, result-object setters, and a registrar through which each
// subsystem (kernels, simulators) adds its exports without addon.cc naming it. The asynchronous
// call itself is in async_call.h.
#pragma once

#include <napi.h>

#include <cstring>
#include <initializer_list>
#include <utility>
#include <string>
#include <vector>

#include "kernels/bfs.h"
#include "kernels/csr.h"
#include "kernels/spmm.h"

namespace dype {
namespace napi {

// A synchronous argument fault: thrown as a JS error carrying a dype error code.
struct ArgError {
  std::string message;
};

inline Napi::Error make_error(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error err = code == "ERR_INVALID_ARGUMENT" ? Napi::Error(env, Napi::RangeError::New(env, message).Value())
                                                   : Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

inline std::string arg_name(const char* fn, const char* what) { return std::string(fn) + ": " + what; }

inline int64_t get_int(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, int64_t lo, int64_t hi) {
  if (i >= info.Length() || !info[i].IsNumber()) throw ArgError{arg_name(fn, what) + " must be a number"};
  const double d = info[i].As<Napi::Number>().DoubleValue();
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi)) || d != static_cast<double>(static_cast<int64_t>(d))) {
    throw ArgError{arg_name(fn, what) + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  }
  return static_cast<int64_t>(d);
}

inline double get_double(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what) {
  if (i >= info.Length() || !info[i].IsNumber()) throw ArgError{arg_name(fn, what) + " must be a number"};
  return info[i].As<Napi::Number>().DoubleValue();
}

struct Borrowed {
  void* data = nullptr;
  size_t length = 0;
  napi_typedarray_type type = napi_int8_array;
  bool present = false;
};

inline Borrowed get_array(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what,
                   std::initializer_list<napi_typedarray_type> allowed, bool optional = false) {
  if (i < info.Length() && optional && (info[i].IsNull() || info[i].IsUndefined())) return Borrowed{};
  if (i >= info.Length() || !info[i].IsTypedArray()) throw ArgError{arg_name(fn, what) + " must be a typed array"};
  Napi::TypedArray arr = info[i].As<Napi::TypedArray>();
  bool ok = false;
  for (auto t : allowed) ok = ok || arr.TypedArrayType() == t;
  if (!ok) throw ArgError{arg_name(fn, what) + " has the wrong element type"};
  Napi::ArrayBuffer buf = arr.ArrayBuffer();
  Borrowed b;
  b.data = static_cast<uint8_t*>(buf.Data()) + arr.ByteOffset();
  b.length = arr.ElementLength();
  b.type = arr.TypedArrayType();
  b.present = true;
  if (b.length > 0 && b.data == nullptr) throw ArgError{arg_name(fn, what) + " is detached"};
  return b;
}

// Read CSR arguments at positions [i, i+5): rows, cols, rowPtr, colIdx, values|null.
inline Csr get_csr(const Napi::CallbackInfo& info, size_t i, const char* fn) {
  Csr c;
  c.rows = get_int(info, i, fn, "rows", 0, INT32_MAX);
  c.cols = get_int(info, i + 1, fn, "cols", 0, INT32_MAX);
  Borrowed rp = get_array(info, i + 2, fn, "rowPtr", {napi_int32_array, napi_bigint64_array});
  Borrowed ci = get_array(info, i + 3, fn, "colIdx", {napi_int32_array});
  Borrowed va = get_array(info, i + 4, fn, "values", {napi_float32_array, napi_float64_array}, true);
  if (rp.length != static_cast<size_t>(c.rows) + 1) {
    throw ArgError{arg_name(fn, "rowPtr") + " has length " + std::to_string(rp.length) + ", expected rows + 1 = " +
                   std::to_string(c.rows + 1)};
  }
  c.row_ptr = rp.data;
  c.wide_row_ptr = rp.type == napi_bigint64_array;
  c.col_idx = static_cast<const int32_t*>(ci.data);
  c.nnz = static_cast<int64_t>(ci.length);
  if (!c.wide_row_ptr && c.nnz > INT32_MAX) throw ArgError{arg_name(fn, "nnz") + " needs 64-bit row pointers"};
  if (va.present) {
    if (va.length != ci.length) {
      throw ArgError{arg_name(fn, "values") + " has length " + std::to_string(va.length) + ", expected nnz = " +
                     std::to_string(ci.length)};
    }
    c.values = va.data;
    c.value_type = va.type == napi_float32_array ? ValueType::kF32 : ValueType::kF64;
  }
  return c;
}

// Graph arguments shared by bfs and msbfs at positions [i, i+5): n, rowPtr, colIdx, inRowPtr, inColIdx.
inline void get_graph(const Napi::CallbackInfo& info, size_t i, const char* fn, Csr& out, Csr& in) {
  const int64_t n = get_int(info, i, fn, "n", 0, INT32_MAX);
  Borrowed rp = get_array(info, i + 1, fn, "rowPtr", {napi_int32_array, napi_bigint64_array});
  Borrowed ci = get_array(info, i + 2, fn, "colIdx", {napi_int32_array});
  Borrowed irp = get_array(info, i + 3, fn, "inRowPtr", {napi_int32_array, napi_bigint64_array});
  Borrowed ici = get_array(info, i + 4, fn, "inColIdx", {napi_int32_array});
  if (rp.length != static_cast<size_t>(n) + 1 || irp.length != static_cast<size_t>(n) + 1) {
    throw ArgError{arg_name(fn, "rowPtr") + " and inRowPtr must have length n + 1 = " + std::to_string(n + 1)};
  }
  if (ci.length != ici.length) throw ArgError{arg_name(fn, "inColIdx") + " must have as many entries as colIdx"};
  if (rp.type != irp.type) throw ArgError{arg_name(fn, "inRowPtr") + " must have rowPtr's element type"};
  for (Csr* c : {&out, &in}) {
    c->rows = c->cols = n;
    c->wide_row_ptr = rp.type == napi_bigint64_array;
  }
  out.row_ptr = rp.data;
  out.col_idx = static_cast<const int32_t*>(ci.data);
  out.nnz = static_cast<int64_t>(ci.length);
  in.row_ptr = irp.data;
  in.col_idx = static_cast<const int32_t*>(ici.data);
  in.nnz = static_cast<int64_t>(ici.length);
  if (!out.wide_row_ptr && out.nnz > INT32_MAX) throw ArgError{arg_name(fn, "nnz") + " needs 64-bit row pointers"};
}


// A single-source search's common arguments at positions [i, i+7): the graph (see get_graph),
// source and depth (length n). Returns the depth array as borrowed, for alias checks.
inline Borrowed get_search(const Napi::CallbackInfo& info, size_t i, const char* fn, BfsArgs& a) {
  get_graph(info, i, fn, a.out, a.in);
  const int64_t n = a.out.rows;
  if (n == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
  a.source = get_int(info, i + 5, fn, "source", 0, n - 1);
  Borrowed depth = get_array(info, i + 6, fn, "depth", {napi_int32_array});
  if (depth.length != static_cast<size_t>(n)) throw ArgError{arg_name(fn, "depth") + " must have length n"};
  a.depth = static_cast<int32_t*>(depth.data);
  return depth;
}

// Direction and Beamer's thresholds at positions [i, i+3): direction (0 auto, 1 top-down,
// 2 bottom-up), alpha, beta. Their sign is the kernel's to check.
inline void get_direction(const Napi::CallbackInfo& info, size_t i, const char* fn, BfsArgs& a) {
  a.direction = static_cast<BfsDirection>(get_int(info, i, fn, "direction", 0, 2));
  a.alpha = get_double(info, i + 1, fn, "alpha");
  a.beta = get_double(info, i + 2, fn, "beta");
}

// An optional trailing integer: `fallback` when absent or undefined, else checked like get_int.
inline int64_t get_optional_int(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, int64_t lo,
                                int64_t hi, int64_t fallback) {
  if (i >= info.Length() || info[i].IsUndefined()) return fallback;
  return get_int(info, i, fn, what, lo, hi);
}

// SpMM arguments at positions [0, 10): rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin,
// rowEnd. Checks dense lengths (overflow-safe), matching element types and that y does not overlap x.
inline SpmmArgs get_spmm_args(const Napi::CallbackInfo& info, const char* fn) {
  SpmmArgs a;
  a.a = get_csr(info, 0, fn);
  Borrowed x = get_array(info, 5, fn, "x", {napi_float32_array, napi_float64_array});
  a.k = get_int(info, 6, fn, "k", 0, INT32_MAX);
  Borrowed y = get_array(info, 7, fn, "y", {napi_float32_array, napi_float64_array});
  a.row_begin = get_int(info, 8, fn, "rowBegin", 0, a.a.rows);
  a.row_end = get_int(info, 9, fn, "rowEnd", a.row_begin, a.a.rows);
  if (x.type != y.type) throw ArgError{arg_name(fn, "x and y") + " must have the same element type"};
  int64_t want_x, want_y;
  if (__builtin_mul_overflow(a.a.cols, a.k, &want_x) || __builtin_mul_overflow(a.row_end - a.row_begin, a.k, &want_y)) {
    throw ArgError{arg_name(fn, "k") + " makes the dense sizes overflow"};
  }
  if (static_cast<int64_t>(x.length) != want_x) {
    throw ArgError{arg_name(fn, "x") + " has length " + std::to_string(x.length) + ", expected cols * k = " + std::to_string(want_x)};
  }
  if (static_cast<int64_t>(y.length) != want_y) {
    throw ArgError{arg_name(fn, "y") + " has length " + std::to_string(y.length) + ", expected (rowEnd - rowBegin) * k = " +
                   std::to_string(want_y)};
  }
  const size_t esize = x.type == napi_float32_array ? 4 : 8;
  const auto* xb = static_cast<const uint8_t*>(x.data);
  const auto* yb = static_cast<const uint8_t*>(y.data);
  if (x.length > 0 && y.length > 0 && xb < yb + y.length * esize && yb < xb + x.length * esize) {
    throw ArgError{arg_name(fn, "y") + " must not overlap x"};
  }
  a.x = x.data;
  a.y = y.data;
  a.type = x.type == napi_float32_array ? DenseType::kF32 : DenseType::kF64;
  return a;
}

// Multi-source BFS arguments at positions [i, i+2): sources, depths (sources.length x n).
struct SourcesDepths {
  const int32_t* sources = nullptr;
  int64_t count = 0;
  int32_t* depths = nullptr;
};

inline SourcesDepths get_sources_depths(const Napi::CallbackInfo& info, size_t i, const char* fn, int64_t n) {
  Borrowed sources = get_array(info, i, fn, "sources", {napi_int32_array});
  Borrowed depths = get_array(info, i + 1, fn, "depths", {napi_int32_array});
  int64_t want;
  if (__builtin_mul_overflow(static_cast<int64_t>(sources.length), n, &want) || static_cast<int64_t>(depths.length) != want) {
    throw ArgError{arg_name(fn, "depths") + " must have length sources.length * n"};
  }
  return SourcesDepths{static_cast<const int32_t*>(sources.data), static_cast<int64_t>(sources.length),
                       static_cast<int32_t*>(depths.data)};
}

// Multi-source BFS arguments at positions [0, 7): the graph (see get_graph), sources, depths.
inline MsBfsArgs get_msbfs_args(const Napi::CallbackInfo& info, const char* fn) {
  MsBfsArgs a;
  get_graph(info, 0, fn, a.out, a.in);
  const SourcesDepths sd = get_sources_depths(info, 5, fn, a.out.rows);
  a.sources = sd.sources;
  a.num_sources = sd.count;
  a.depths = sd.depths;
  return a;
}

// Numeric fields of a result object, from a table: one line per field instead of one Set each.
inline void set_numbers(Napi::Object& o, std::initializer_list<std::pair<const char*, double>> fields) {
  Napi::Env env = o.Env();
  for (const auto& f : fields) o.Set(f.first, Napi::Number::New(env, f.second));
}

// Text fields of a result object (probe and library descriptions), from a table as set_numbers.
inline void set_strings(Napi::Object& o, std::initializer_list<std::pair<const char*, std::string>> fields) {
  Napi::Env env = o.Env();
  for (const auto& f : fields) o.Set(f.first, Napi::String::New(env, f.second));
}

// Yes/no fields of a result object, from a table as set_numbers.
inline void set_booleans(Napi::Object& o, std::initializer_list<std::pair<const char*, bool>> fields) {
  Napi::Env env = o.Env();
  for (const auto& f : fields) o.Set(f.first, Napi::Boolean::New(env, f.second));
}

// A depth profile (vertices per level) as a Float64Array field.
inline void set_counts(Napi::Object& o, const char* key, const std::vector<int64_t>& counts) {
  auto arr = Napi::Float64Array::New(o.Env(), counts.size());
  for (size_t i = 0; i < counts.size(); ++i) arr[i] = static_cast<double>(counts[i]);
  o.Set(key, arr);
}

inline void set_edges_examined(Napi::Object& o, const int64_t& edges) {
  o.Set("edgesExamined", Napi::Number::New(o.Env(), static_cast<double>(edges)));
}

// A search's profile on a result object: frontier (vertices per depth), bottomUp (the direction
// of each step) and edgesExamined, as the CPU and GPU searches both report them.
inline void set_bfs_stats(Napi::Object& o, const BfsStats& st) {
  Napi::Env env = o.Env();
  // Both arrays are views of one buffer: each ArrayBuffer a call creates is a malloc here and a
  // free on V8's sweeper thread, and two of them were half of a small search's call overhead.
  const size_t levels = st.frontier.size(), steps = st.bottom_up.size();
  auto buffer = Napi::ArrayBuffer::New(env, levels * sizeof(double) + steps);
  auto* counts = static_cast<double*>(buffer.Data());
  for (size_t i = 0; i < levels; ++i) counts[i] = static_cast<double>(st.frontier[i]);
  if (steps > 0) std::memcpy(counts + levels, st.bottom_up.data(), steps);
  o.Set("frontier", Napi::Float64Array::New(env, levels, buffer, 0));
  o.Set("bottomUp", Napi::Uint8Array::New(env, steps, buffer, levels * sizeof(double)));
  o.Set("edgesExamined", Napi::Number::New(env, static_cast<double>(st.edges_examined)));
}

// Whether the trailing `inline` flag at position i is set.
// The call's inline mode at position i (src/native/addon.ts, InlineMode): 0 off the JS thread, 1 on
// it where that is safe (HostLane::inline_is_safe), 2 on it always; true and false are 1 and 0.
inline int get_inline(const Napi::CallbackInfo& info, size_t i) {
  if (info.Length() <= i) return 0;
  if (info[i].IsNumber()) {
    const double m = info[i].As<Napi::Number>().DoubleValue();
    return m >= 2 ? 2 : m >= 1 ? 1 : 0;
  }
  return info[i].ToBoolean().Value() ? 1 : 0;
}

// Run a binding body, turning an argument fault into a thrown RangeError with code ERR_INVALID_ARGUMENT.
template <class F>
Napi::Value with_arg_errors(Napi::Env env, F&& body) {
  try {
    return body();
  } catch (const ArgError& e) {
    throw make_error(env, "ERR_INVALID_ARGUMENT", e.message);
  }
}

// Exports added by a subsystem: define `static ExportRegistrar reg(fn);` at namespace scope in its
// binding file and `fn(env, exports)` runs when the addon loads.
using ExportFn = void (*)(Napi::Env, Napi::Object);

inline std::vector<ExportFn>& registered_exports() {
  static std::vector<ExportFn> fns;
  return fns;
}

// Set each named function on exports, under its own name (one line per export).
using Binding = Napi::Value (*)(const Napi::CallbackInfo&);
inline void export_functions(Napi::Env env, Napi::Object exports, std::initializer_list<std::pair<const char*, Binding>> fns) {
  for (const auto& f : fns) exports.Set(f.first, Napi::Function::New(env, f.second, f.first));
}

struct ExportRegistrar {
  explicit ExportRegistrar(ExportFn fn) { registered_exports().push_back(fn); }
};

}  // namespace napi
}  // namespace dype
