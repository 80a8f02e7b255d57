// The Node-API face of the native kernels: arguments are checked again here (the TypeScript layer
// checks first), typed arrays are borrowed zero-copy and pinned for the duration of the call,
// and every kernel runs on a libuv worker so the event loop stays free.
#include <napi.h>

#include <memory>
#include <string>
#include <vector>

#include "kernels/bfs.h"
#include "kernels/spmm.h"
#include "thread_pool.h"

namespace dype {
namespace {

// A synchronous argument fault: thrown as a JS error carrying a dype error code.
struct ArgError {
  std::string message;
};

Napi::Error make_error(Napi::Env env, const std::string& code, const std::string& message) {
  Napi::Error err = code == "ERR_INVALID_ARGUMENT" ? Napi::Error(env, Napi::RangeError::New(env, message).Value())
                                                   : Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  return err;
}

std::string arg_name(const char* fn, const char* what) { return std::string(fn) + ": " + what; }

int64_t get_int(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what, int64_t lo, int64_t hi) {
  if (i >= info.Length() || !info[i].IsNumber()) throw ArgError{arg_name(fn, what) + " must be a number"};
  const double d = info[i].As<Napi::Number>().DoubleValue();
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi)) || d != static_cast<double>(static_cast<int64_t>(d))) {
    throw ArgError{arg_name(fn, what) + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  }
  return static_cast<int64_t>(d);
}

double get_double(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what) {
  if (i >= info.Length() || !info[i].IsNumber()) throw ArgError{arg_name(fn, what) + " must be a number"};
  return info[i].As<Napi::Number>().DoubleValue();
}

struct Borrowed {
  void* data = nullptr;
  size_t length = 0;
  napi_typedarray_type type = napi_int8_array;
  bool present = false;
};

Borrowed get_array(const Napi::CallbackInfo& info, size_t i, const char* fn, const char* what,
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
Csr get_csr(const Napi::CallbackInfo& info, size_t i, const char* fn) {
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

// Base of every asynchronous call: pins the JS arrays it borrows, runs Compute() on a libuv
// worker, and settles a Promise with a coded error on failure.
class KernelWorker : public Napi::AsyncWorker {
 public:
  KernelWorker(Napi::Env env, const char* fn)
      : Napi::AsyncWorker(env, fn), fn_(fn), deferred_(Napi::Promise::Deferred::New(env)) {}

  Napi::Promise promise() { return deferred_.Promise(); }

  // Run on a libuv worker, or, for work too small to repay two cross-thread wake-ups (each can
  // cost 50-200 us on a virtual machine whose other vCPU is idle), right here on the JS thread.
  // Either way the caller gets a Promise; `self` must come from new and is consumed.
  static Napi::Promise start(KernelWorker* self, bool run_inline) {
    Napi::Promise p = self->promise();
    if (!run_inline) {
      self->Queue();
      return p;
    }
    self->Execute();
    self->OnOK();
    delete self;
    return p;
  }

  void pin(const Napi::CallbackInfo& info, size_t first, size_t count) {
    for (size_t i = first; i < first + count && i < info.Length(); ++i) {
      if (info[i].IsObject()) pins_.push_back(Napi::Persistent(info[i].As<Napi::Object>()));
    }
  }

 protected:
  virtual Status compute() = 0;
  virtual Napi::Value result(Napi::Env env) { return env.Undefined(); }

  void Execute() override {
    try {
      status_ = compute();
    } catch (const std::bad_alloc&) {
      status_ = Status{false, "ERR_LIMIT", std::string(fn_) + ": out of memory"};
    } catch (const std::exception& e) {
      status_ = Status{false, "ERR_NATIVE", std::string(fn_) + ": " + e.what()};
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    if (status_.ok) {
      deferred_.Resolve(result(env));
    } else {
      deferred_.Reject(make_error(env, status_.code, status_.message).Value());
    }
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

  const char* fn_;

 private:
  Napi::Promise::Deferred deferred_;
  std::vector<Napi::ObjectReference> pins_;
  Status status_;
};

// spmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, inline?): Promise<void>
class SpmmWorker : public KernelWorker {
 public:
  SpmmWorker(Napi::Env env, const char* fn, SpmmArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return spmm(fn_, args_); }

 private:
  SpmmArgs args_;
};

Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  Napi::Env env = info.Env();
  try {
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
    const bool run_inline = info.Length() > 10 && info[10].ToBoolean().Value();
    auto* w = new SpmmWorker(env, fn, a);
    if (!run_inline) w->pin(info, 0, 10);
    return KernelWorker::start(w, run_inline);
  } catch (const ArgError& e) {
    throw make_error(env, "ERR_INVALID_ARGUMENT", e.message);
  }
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "spmm"); }

// spmv(...): spmm's arguments with k = 1; a separate entry point so errors name spmv.
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "spmv"); }

// bfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, parent|null, direction, alpha, beta, inline?)
//   : Promise<{ frontier: Float64Array, bottomUp: Uint8Array, edgesExamined: number }>
class BfsWorker : public KernelWorker {
 public:
  BfsWorker(Napi::Env env, const char* fn, BfsArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return bfs(fn_, args_, &stats_); }

  Napi::Value result(Napi::Env env) override {
    Napi::Object o = Napi::Object::New(env);
    auto frontier = Napi::Float64Array::New(env, stats_.frontier.size());
    for (size_t i = 0; i < stats_.frontier.size(); ++i) frontier[i] = static_cast<double>(stats_.frontier[i]);
    auto bottom_up = Napi::Uint8Array::New(env, stats_.bottom_up.size());
    for (size_t i = 0; i < stats_.bottom_up.size(); ++i) bottom_up[i] = stats_.bottom_up[i];
    o.Set("frontier", frontier);
    o.Set("bottomUp", bottom_up);
    o.Set("edgesExamined", Napi::Number::New(env, static_cast<double>(stats_.edges_examined)));
    return o;
  }

 private:
  BfsArgs args_;
  BfsStats stats_;
};

// Graph arguments shared by bfs and msbfs at positions [i, i+5): n, rowPtr, colIdx, inRowPtr, inColIdx.
void get_graph(const Napi::CallbackInfo& info, size_t i, const char* fn, Csr& out, Csr& in) {
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

Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "bfs";
  Napi::Env env = info.Env();
  try {
    BfsArgs a;
    get_graph(info, 0, fn, a.out, a.in);
    const int64_t n = a.out.rows;
    a.source = get_int(info, 5, fn, "source", 0, n > 0 ? n - 1 : 0);
    if (n == 0) throw ArgError{arg_name(fn, "graph") + " has no vertices"};
    Borrowed depth = get_array(info, 6, fn, "depth", {napi_int32_array});
    Borrowed parent = get_array(info, 7, fn, "parent", {napi_int32_array}, true);
    if (depth.length != static_cast<size_t>(n)) throw ArgError{arg_name(fn, "depth") + " must have length n"};
    if (parent.data != nullptr && parent.length != static_cast<size_t>(n)) {
      throw ArgError{arg_name(fn, "parent") + " must have length n"};
    }
    if (parent.data != nullptr && parent.data == depth.data) throw ArgError{arg_name(fn, "parent") + " must not alias depth"};
    a.depth = static_cast<int32_t*>(depth.data);
    a.parent = static_cast<int32_t*>(parent.data);
    a.direction = static_cast<BfsDirection>(get_int(info, 8, fn, "direction", 0, 2));
    a.alpha = get_double(info, 9, fn, "alpha");
    a.beta = get_double(info, 10, fn, "beta");
    const bool run_inline = info.Length() > 11 && info[11].ToBoolean().Value();
    auto* w = new BfsWorker(env, fn, a);
    if (!run_inline) w->pin(info, 0, 11);
    return KernelWorker::start(w, run_inline);
  } catch (const ArgError& e) {
    throw make_error(env, "ERR_INVALID_ARGUMENT", e.message);
  }
}

// msbfs(n, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths, inline?): Promise<{ edgesExamined }>
class MsBfsWorker : public KernelWorker {
 public:
  MsBfsWorker(Napi::Env env, const char* fn, MsBfsArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return msbfs(fn_, args_, &edges_); }

  Napi::Value result(Napi::Env env) override {
    Napi::Object o = Napi::Object::New(env);
    o.Set("edgesExamined", Napi::Number::New(env, static_cast<double>(edges_)));
    return o;
  }

 private:
  MsBfsArgs args_;
  int64_t edges_ = 0;
};

Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "msbfs";
  Napi::Env env = info.Env();
  try {
    MsBfsArgs a;
    get_graph(info, 0, fn, a.out, a.in);
    Borrowed sources = get_array(info, 5, fn, "sources", {napi_int32_array});
    Borrowed depths = get_array(info, 6, fn, "depths", {napi_int32_array});
    int64_t want;
    if (__builtin_mul_overflow(static_cast<int64_t>(sources.length), a.out.rows, &want) ||
        static_cast<int64_t>(depths.length) != want) {
      throw ArgError{arg_name(fn, "depths") + " must have length sources.length * n"};
    }
    a.sources = static_cast<const int32_t*>(sources.data);
    a.num_sources = static_cast<int64_t>(sources.length);
    a.depths = static_cast<int32_t*>(depths.data);
    const bool run_inline = info.Length() > 7 && info[7].ToBoolean().Value();
    auto* w = new MsBfsWorker(env, fn, a);
    if (!run_inline) w->pin(info, 0, 7);
    return KernelWorker::start(w, run_inline);
  } catch (const ArgError& e) {
    throw make_error(env, "ERR_INVALID_ARGUMENT", e.message);
  }
}

// Boundary-cost probes for the benchmarks: the cheapest possible sync call and async round trip.
class NoopWorker : public KernelWorker {
 public:
  explicit NoopWorker(Napi::Env env) : KernelWorker(env, "noopAsync") {}

 protected:
  Status compute() override { return Status{}; }
};

Napi::Value NoopSync(const Napi::CallbackInfo& info) { return info.Env().Undefined(); }

Napi::Value NoopAsync(const Napi::CallbackInfo& info) {
  auto* w = new NoopWorker(info.Env());
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

Napi::Value Threads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), ThreadPool::instance().participants());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("spmm", Napi::Function::New(env, Spmm, "spmm"));
  exports.Set("spmv", Napi::Function::New(env, Spmv, "spmv"));
  exports.Set("bfs", Napi::Function::New(env, Bfs, "bfs"));
  exports.Set("msbfs", Napi::Function::New(env, MsBfs, "msbfs"));
  exports.Set("noopSync", Napi::Function::New(env, NoopSync, "noopSync"));
  exports.Set("noopAsync", Napi::Function::New(env, NoopAsync, "noopAsync"));
  exports.Set("threads", Napi::Function::New(env, Threads, "threads"));
  exports.Set("abiVersion", Napi::Number::New(env, 3));
  return exports;
}

}  // namespace
}  // namespace dype

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return dype::Init(env, exports); }

NODE_API_MODULE(dype_native, InitAddon)
