// Node-API face of the dense kernels: gemm, relu, affine, add, reducePartial, sddmm and gemmInfo
// on the CPU (dense.h), and the same calls prefixed gpu (gpuGemm, ...) on the card (cuda/gpu.h),
// over the same arguments. Like spmm, every array's type and length is checked here (the
// TypeScript layer checks first) and outputs may not overlap inputs; the kernels then never
// index past what was checked. The GPU calls always run on a libuv worker.
#include <napi.h>

#include <string>

#include "../async_call.h"
#include "../cuda/gpu.h"
#include "../cuda/run_report.h"
#include "dense.h"

namespace dype {
namespace {

using namespace napi;

constexpr std::initializer_list<napi_typedarray_type> kFloat = {napi_float32_array, napi_float64_array};

DenseType type_of(const Borrowed& b) { return b.type == napi_float32_array ? DenseType::kF32 : DenseType::kF64; }

int64_t product(const char* fn, const char* what, int64_t a, int64_t b) {
  int64_t n;
  if (__builtin_mul_overflow(a, b, &n)) throw ArgError{arg_name(fn, what) + " overflows"};
  return n;
}

// A float array at position i of exactly `length` elements, of `like`'s element type when given.
Borrowed get_dense(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, int64_t length,
                   const Borrowed* like = nullptr) {
  Borrowed b = get_array(info, i, fn, what, kFloat);
  if (like != nullptr && b.type != like->type) throw ArgError{arg_name(fn, what) + " must have the element type of the other operands"};
  if (static_cast<int64_t>(b.length) != length) {
    throw ArgError{arg_name(fn, what) + " has length " + std::to_string(b.length) + ", expected " + std::to_string(length)};
  }
  return b;
}

void no_overlap(const char* fn, const char* out_name, const Borrowed& out, const Borrowed& in) {
  const auto* o = static_cast<const uint8_t*>(out.data);
  const auto* p = static_cast<const uint8_t*>(in.data);
  const size_t ob = out.length * (out.type == napi_float32_array ? 4 : out.type == napi_float64_array ? 8 : 1);
  const size_t pb = in.length * (in.type == napi_float32_array ? 4 : in.type == napi_float64_array ? 8 : 1);
  if (ob > 0 && pb > 0 && o < p + pb && p < o + ob) throw ArgError{arg_name(fn, out_name) + " must not overlap an input"};
}

// rowBegin, rowEnd at positions [i, i+2), within [0, rows].
void get_range(const Napi::CallbackInfo& info, size_t i, const char* fn, int64_t rows, int64_t* begin, int64_t* end) {
  *begin = get_int(info, i, fn, "rowBegin", 0, rows);
  *end = get_int(info, i + 1, fn, "rowEnd", *begin, rows);
}

// Bytes of a borrowed float array.
size_t bytes_of(const Borrowed& b) { return b.length * (b.type == napi_float32_array ? 4 : 8); }

// Launch `compute`, its output `out` provisioned before it is timed (prefault.h).
template <class Compute>
Napi::Value run(const Napi::CallbackInfo& info, const char* fn, size_t inline_at, const Borrowed& out, Compute compute) {
  return launch<Nothing>(info.Env(), fn, get_inline(info, inline_at), Pins::args(info, inline_at).output(out.data, bytes_of(out)),
                         [compute](const char* f, Nothing&) { return compute(f); }, no_report, Runs::kOnHostLane);
}

// Where a dense call runs: the CPU's kernels or the card's, over the same checked arguments.
enum class On { kCpu, kGpu };

// Run `a` on the CPU (`cpu`) or the card (`gpu_fn`, which also reports the GPU's costs).
template <class Args>
Napi::Value dispatch(const Napi::CallbackInfo& info, const char* fn, On on, size_t inline_at, const Borrowed& out, const Args& a,
                     Status (*cpu)(const char*, const Args&), Status (*gpu_fn)(const char*, const Args&, gpu::Run*)) {
  if (on == On::kGpu) {
    return launch<gpu::Run>(info.Env(), fn, false, Pins::args(info, inline_at).output(out.data, bytes_of(out)),
                            [a, gpu_fn](const char* f, gpu::Run& r) { return gpu_fn(f, a, &r); },
                            [](Napi::Object& o, const gpu::Run& r) { gpu::set_run(o, r); });
  }
  return run(info, fn, inline_at, out, [a, cpu](const char* f) { return cpu(f, a); });
}

// gemm(m, k, n, x, w, y, rowBegin, rowEnd, inline?): y = x[rowBegin:rowEnd, :] * w.
Napi::Value GemmCommon(const Napi::CallbackInfo& info, const char* fn, On on) {
  return with_arg_errors(info.Env(), [&] {
    GemmArgs a;
    a.x.rows = get_int(info, 0, fn, "m", 0, INT32_MAX);
    a.x.cols = a.w.rows = get_int(info, 1, fn, "k", 0, INT32_MAX);
    a.w.cols = get_int(info, 2, fn, "n", 0, INT32_MAX);
    Borrowed x = get_dense(info, 3, fn, "x", product(fn, "m * k", a.x.rows, a.x.cols));
    Borrowed w = get_dense(info, 4, fn, "w", product(fn, "k * n", a.w.rows, a.w.cols), &x);
    get_range(info, 6, fn, a.x.rows, &a.row_begin, &a.row_end);
    Borrowed y = get_dense(info, 5, fn, "y", product(fn, "rows * n", a.row_end - a.row_begin, a.w.cols), &x);
    no_overlap(fn, "y", y, x);
    no_overlap(fn, "y", y, w);
    a.x.data = x.data;
    a.w.data = w.data;
    a.y = y.data;
    a.type = type_of(x);
    return dispatch(info, fn, on, 8, y, a, &dype::gemm, &gpu::gemm);
  });
}

// The element-wise maps: (rows, cols, x, [scale, shift | z,] y, rowBegin, rowEnd, inline?).
Napi::Value MapCommon(const Napi::CallbackInfo& info, const char* fn, MapOp op, On on) {
  return with_arg_errors(info.Env(), [&] {
    MapArgs a;
    a.op = op;
    a.x.rows = get_int(info, 0, fn, "rows", 0, INT32_MAX);
    a.x.cols = get_int(info, 1, fn, "cols", 0, INT32_MAX);
    const int64_t all = product(fn, "rows * cols", a.x.rows, a.x.cols);
    Borrowed x = get_dense(info, 2, fn, "x", all);
    size_t at = 3;
    Borrowed z;
    if (op == MapOp::kAffine) {
      a.scale = get_double(info, at++, fn, "scale");
      a.shift = get_double(info, at++, fn, "shift");
    } else if (op == MapOp::kAdd) {
      z = get_dense(info, at++, fn, "y", all, &x);
      a.z = z.data;
    }
    const size_t out_at = at++;
    get_range(info, at, fn, a.x.rows, &a.row_begin, &a.row_end);
    Borrowed y = get_dense(info, out_at, fn, "out", product(fn, "rows * cols", a.row_end - a.row_begin, a.x.cols), &x);
    no_overlap(fn, "out", y, x);
    if (z.present) no_overlap(fn, "out", y, z);
    a.x.data = x.data;
    a.y = y.data;
    a.type = type_of(x);
    return dispatch(info, fn, on, at + 2, y, a, &dype::map, &gpu::map);
  });
}

Napi::Value Gemm(const Napi::CallbackInfo& info) { return GemmCommon(info, "gemm", On::kCpu); }
Napi::Value Relu(const Napi::CallbackInfo& info) { return MapCommon(info, "relu", MapOp::kRelu, On::kCpu); }
Napi::Value Affine(const Napi::CallbackInfo& info) { return MapCommon(info, "affine", MapOp::kAffine, On::kCpu); }
Napi::Value Add(const Napi::CallbackInfo& info) { return MapCommon(info, "add", MapOp::kAdd, On::kCpu); }
Napi::Value GpuGemm(const Napi::CallbackInfo& info) { return GemmCommon(info, "gpuGemm", On::kGpu); }
Napi::Value GpuRelu(const Napi::CallbackInfo& info) { return MapCommon(info, "gpuRelu", MapOp::kRelu, On::kGpu); }
Napi::Value GpuAffine(const Napi::CallbackInfo& info) { return MapCommon(info, "gpuAffine", MapOp::kAffine, On::kGpu); }
Napi::Value GpuAdd(const Napi::CallbackInfo& info) { return MapCommon(info, "gpuAdd", MapOp::kAdd, On::kGpu); }

// reducePartial(rows, cols, x, op (0 sum, 1 max, 2 norm2), acc (cols doubles), rowBegin, rowEnd, inline?).
Napi::Value ReduceCommon(const Napi::CallbackInfo& info, const char* fn, On on) {
  return with_arg_errors(info.Env(), [&] {
    ReduceArgs a;
    a.x.rows = get_int(info, 0, fn, "rows", 0, INT32_MAX);
    a.x.cols = get_int(info, 1, fn, "cols", 0, INT32_MAX);
    Borrowed x = get_dense(info, 2, fn, "x", product(fn, "rows * cols", a.x.rows, a.x.cols));
    a.op = static_cast<ReduceOp>(get_int(info, 3, fn, "op", 0, 2));
    Borrowed acc = get_array(info, 4, fn, "acc", {napi_float64_array});
    if (static_cast<int64_t>(acc.length) != a.x.cols) {
      throw ArgError{arg_name(fn, "acc") + " has length " + std::to_string(acc.length) + ", expected cols = " + std::to_string(a.x.cols)};
    }
    no_overlap(fn, "acc", acc, x);
    get_range(info, 5, fn, a.x.rows, &a.row_begin, &a.row_end);
    a.x.data = x.data;
    a.acc = static_cast<double*>(acc.data);
    a.type = type_of(x);
    return dispatch(info, fn, on, 7, acc, a, &dype::reduce_partial, &gpu::reduce_partial);
  });
}

Napi::Value ReducePartial(const Napi::CallbackInfo& info) { return ReduceCommon(info, "reducePartial", On::kCpu); }
Napi::Value GpuReducePartial(const Napi::CallbackInfo& info) { return ReduceCommon(info, "gpuReducePartial", On::kGpu); }

// sddmm(rows, cols, rowPtr, colIdx, values|null, u, v, k, out, rowBegin, rowEnd, inline?).
Napi::Value SddmmCommon(const Napi::CallbackInfo& info, const char* fn, On on) {
  return with_arg_errors(info.Env(), [&] {
    SddmmArgs a;
    a.a = get_csr(info, 0, fn);
    a.k = get_int(info, 7, fn, "k", 0, INT32_MAX);
    Borrowed u = get_dense(info, 5, fn, "u", product(fn, "rows * k", a.a.rows, a.k));
    Borrowed v = get_dense(info, 6, fn, "v", product(fn, "cols * k", a.a.cols, a.k), &u);
    if (a.a.values != nullptr && (a.a.value_type == ValueType::kF32) != (u.type == napi_float32_array)) {
      throw ArgError{arg_name(fn, "values") + " must have the element type of u and v"};
    }
    // The range's entry count depends on rowPtr, which the kernel checks first; here, the type only.
    Borrowed out = get_array(info, 8, fn, "out", kFloat);
    if (out.type != u.type) throw ArgError{arg_name(fn, "out") + " must have the element type of u and v"};
    no_overlap(fn, "out", out, u);
    no_overlap(fn, "out", out, v);
    get_range(info, 9, fn, a.a.rows, &a.row_begin, &a.row_end);
    a.u = u.data;
    a.v = v.data;
    a.out = out.data;
    a.out_length = static_cast<int64_t>(out.length);
    a.type = type_of(u);
    return dispatch(info, fn, on, 11, out, a, &dype::sddmm, &gpu::sddmm);
  });
}

Napi::Value Sddmm(const Napi::CallbackInfo& info) { return SddmmCommon(info, "sddmm", On::kCpu); }
Napi::Value GpuSddmm(const Napi::CallbackInfo& info) { return SddmmCommon(info, "gpuSddmm", On::kGpu); }

Napi::Value GemmInfoBinding(const Napi::CallbackInfo& info) {
  const GemmInfo g = gemm_info();
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  set_strings(o, {{"library", g.library}, {"version", g.version}, {"threading", g.threading}, {"config", g.config}});
  set_numbers(o, {{"threads", g.threads}});
  set_strings(o, {{"reason", g.reason}});
  return o;
}

void register_dense(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"gemm", Gemm}, {"relu", Relu}, {"affine", Affine}, {"add", Add},
                                   {"reducePartial", ReducePartial}, {"sddmm", Sddmm}, {"gemmInfo", GemmInfoBinding},
                                   {"gpuGemm", GpuGemm}, {"gpuRelu", GpuRelu}, {"gpuAffine", GpuAffine}, {"gpuAdd", GpuAdd},
                                   {"gpuReducePartial", GpuReducePartial}, {"gpuSddmm", GpuSddmm}});
}

const ExportRegistrar reg(register_dense);

}  // namespace
}  // namespace dype
