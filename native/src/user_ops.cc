// User operators' native code: shared libraries loaded with dlopen and kernels called through the
// C ABI of native/include/dype_operator.h. Every operand and the output buffer are checked here
// (the TypeScript layer checks shapes first) so a kernel never gets a length that lies.
#include <dlfcn.h>
#include <napi.h>

#include <string>
#include <vector>

#include "../include/dype_operator.h"
#include "napi_util.h"

namespace dype {
namespace {

using namespace napi;

std::vector<void*>& libraries() {
  static std::vector<void*> libs;
  return libs;
}
std::vector<dype_kernel_fn>& kernels() {
  static std::vector<dype_kernel_fn> fns;
  return fns;
}

// userLibraryOpen(path): index of the loaded library (dlopen, RTLD_NOW | RTLD_LOCAL).
Napi::Value UserLibraryOpen(const Napi::CallbackInfo& info) {
  const char* fn = "userLibraryOpen";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    if (info.Length() < 1 || !info[0].IsString()) throw ArgError{arg_name(fn, "path") + " must be a string"};
    const std::string path = info[0].As<Napi::String>().Utf8Value();
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* why = dlerror();
      throw make_error(info.Env(), "ERR_NATIVE", std::string(fn) + ": cannot load " + path + ": " + (why ? why : "unknown error"));
    }
    libraries().push_back(h);
    return Napi::Number::New(info.Env(), static_cast<double>(libraries().size() - 1));
  });
}

// userKernelFind(library, symbol): index of the kernel, or -1 when the library has no such symbol.
Napi::Value UserKernelFind(const Napi::CallbackInfo& info) {
  const char* fn = "userKernelFind";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t lib = get_int(info, 0, fn, "library", 0, static_cast<int64_t>(libraries().size()) - 1);
    if (info.Length() < 2 || !info[1].IsString()) throw ArgError{arg_name(fn, "symbol") + " must be a string"};
    const std::string symbol = info[1].As<Napi::String>().Utf8Value();
    dlerror();
    void* p = dlsym(libraries()[static_cast<size_t>(lib)], symbol.c_str());
    if (p == nullptr) return Napi::Number::New(info.Env(), -1);
    kernels().push_back(reinterpret_cast<dype_kernel_fn>(p));
    return Napi::Number::New(info.Env(), static_cast<double>(kernels().size() - 1));
  });
}

int64_t field_int(const Napi::Object& o, const char* key, const std::string& what, int64_t hi) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw ArgError{what + "." + key + " must be a number"};
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!(d >= 0 && d <= static_cast<double>(hi)) || d != static_cast<double>(static_cast<int64_t>(d))) {
    throw ArgError{what + "." + key + " must be an integer in [0, " + std::to_string(hi) + "]"};
  }
  return static_cast<int64_t>(d);
}

Napi::TypedArray field_array(const Napi::Object& o, const char* key, const std::string& what, bool optional) {
  Napi::Value v = o.Get(key);
  if (optional && (v.IsNull() || v.IsUndefined())) return Napi::TypedArray();
  if (!v.IsTypedArray()) throw ArgError{what + "." + key + " must be a typed array"};
  return v.As<Napi::TypedArray>();
}

void* data_of(const Napi::TypedArray& a) { return static_cast<uint8_t*>(a.ArrayBuffer().Data()) + a.ByteOffset(); }

int32_t float_size(const Napi::TypedArray& a, const std::string& what) {
  if (a.TypedArrayType() == napi_float32_array) return DYPE_F32;
  if (a.TypedArrayType() == napi_float64_array) return DYPE_F64;
  throw ArgError{what + " must be a Float32Array or Float64Array"};
}

// One operand { kind: 0 dense | 1 csr, rows, cols, data | rowPtr, colIdx, values? }, checked;
// `wide` keeps a 64-bit copy of 32-bit row pointers alive for the call.
dype_operand get_operand(const Napi::Object& o, const std::string& what, std::vector<int64_t>& wide) {
  dype_operand d{};
  d.kind = static_cast<int32_t>(field_int(o, "kind", what, 1));
  d.rows = field_int(o, "rows", what, INT32_MAX);
  d.cols = field_int(o, "cols", what, INT32_MAX);
  if (d.kind == DYPE_DENSE) {
    Napi::TypedArray a = field_array(o, "data", what, false);
    d.precision = float_size(a, what + ".data");
    if (static_cast<int64_t>(a.ElementLength()) != d.rows * d.cols) throw ArgError{what + ".data has length " + std::to_string(a.ElementLength()) + ", expected rows * cols"};
    d.data = data_of(a);
    return d;
  }
  Napi::TypedArray rp = field_array(o, "rowPtr", what, false);
  Napi::TypedArray ci = field_array(o, "colIdx", what, false);
  Napi::TypedArray va = field_array(o, "values", what, true);
  if (ci.TypedArrayType() != napi_int32_array) throw ArgError{what + ".colIdx must be an Int32Array"};
  if (static_cast<int64_t>(rp.ElementLength()) != d.rows + 1) throw ArgError{what + ".rowPtr must have rows + 1 entries"};
  wide.resize(static_cast<size_t>(d.rows) + 1);
  if (rp.TypedArrayType() == napi_int32_array) {
    const auto* p = static_cast<const int32_t*>(data_of(rp));
    for (int64_t i = 0; i <= d.rows; i++) wide[static_cast<size_t>(i)] = p[i];
  } else if (rp.TypedArrayType() == napi_bigint64_array) {
    const auto* p = static_cast<const int64_t*>(data_of(rp));
    for (int64_t i = 0; i <= d.rows; i++) wide[static_cast<size_t>(i)] = p[i];
  } else {
    throw ArgError{what + ".rowPtr must be an Int32Array or BigInt64Array"};
  }
  const int64_t nnz = static_cast<int64_t>(ci.ElementLength());
  if (wide[0] != 0 || wide[static_cast<size_t>(d.rows)] != nnz) throw ArgError{what + ".rowPtr must start at 0 and end at the number of column indices"};
  for (int64_t i = 0; i < d.rows; i++) {
    if (wide[static_cast<size_t>(i) + 1] < wide[static_cast<size_t>(i)]) throw ArgError{what + ".rowPtr decreases at row " + std::to_string(i)};
  }
  const auto* cols = static_cast<const int32_t*>(data_of(ci));
  for (int64_t p = 0; p < nnz; p++) {
    if (cols[p] < 0 || cols[p] >= d.cols) throw ArgError{what + ".colIdx[" + std::to_string(p) + "] = " + std::to_string(cols[p]) + " is outside [0, cols)"};
  }
  d.precision = DYPE_F32;
  if (!va.IsEmpty()) {
    d.precision = float_size(va, what + ".values");
    if (static_cast<int64_t>(va.ElementLength()) != nnz) throw ArgError{what + ".values must have one entry per column index"};
    d.values = data_of(va);
  }
  d.row_ptr = wide.data();
  d.col_idx = cols;
  return d;
}

// userKernelCall(kernel, operands[], rowBegin, rowEnd, outRows, out): runs the kernel on the
// calling thread; throws its message (code ERR_OPERATOR) when it returns non-zero.
Napi::Value UserKernelCall(const Napi::CallbackInfo& info) {
  const char* fn = "userKernelCall";
  return with_arg_errors(info.Env(), [&]() -> Napi::Value {
    const int64_t k = get_int(info, 0, fn, "kernel", 0, static_cast<int64_t>(kernels().size()) - 1);
    if (info.Length() < 2 || !info[1].IsArray()) throw ArgError{arg_name(fn, "operands") + " must be an array"};
    Napi::Array arr = info[1].As<Napi::Array>();
    const uint32_t count = arr.Length();
    std::vector<dype_operand> operands(count);
    std::vector<std::vector<int64_t>> wide(count);
    for (uint32_t i = 0; i < count; i++) {
      Napi::Value v = arr.Get(i);
      const std::string what = arg_name(fn, "operands") + "[" + std::to_string(i) + "]";
      if (!v.IsObject()) throw ArgError{what + " must be an object"};
      operands[i] = get_operand(v.As<Napi::Object>(), what, wide[i]);
    }
    const int64_t out_rows = get_int(info, 4, fn, "outRows", 0, INT32_MAX);
    const int64_t begin = get_int(info, 2, fn, "rowBegin", 0, out_rows);
    const int64_t end = get_int(info, 3, fn, "rowEnd", begin, out_rows);
    if (info.Length() < 7 || !info[6].IsTypedArray()) throw ArgError{arg_name(fn, "out") + " must be a typed array"};
    Napi::TypedArray out_arr = info[6].As<Napi::TypedArray>();
    const int64_t cols = get_int(info, 5, fn, "outCols", 0, INT32_MAX);
    dype_output out{end - begin, cols, float_size(out_arr, arg_name(fn, "out")), data_of(out_arr)};
    if (static_cast<int64_t>(out_arr.ElementLength()) != out.rows * out.cols) throw ArgError{arg_name(fn, "out") + " must have (rowEnd - rowBegin) * outCols entries"};
    char error[512] = {0};
    const int32_t rc = kernels()[static_cast<size_t>(k)](operands.data(), static_cast<int32_t>(count), begin, end, &out, error, sizeof error);
    error[sizeof error - 1] = '\0';
    if (rc != 0) throw make_error(info.Env(), "ERR_OPERATOR", "returned " + std::to_string(rc) + (error[0] ? ": " + std::string(error) : ""));
    return info.Env().Undefined();
  });
}

void Register(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"userLibraryOpen", UserLibraryOpen}, {"userKernelFind", UserKernelFind}, {"userKernelCall", UserKernelCall}});
}

ExportRegistrar reg(Register);

}  // namespace
}  // namespace dype
