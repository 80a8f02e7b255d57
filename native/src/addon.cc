// The Node-API face of the native kernels: arguments are checked again here (the TypeScript layer
// checks first), typed arrays are borrowed zero-copy and pinned for the duration of the call,
// and every kernel runs on a libuv worker so the event loop stays free.
#include <napi.h>

#include <memory>
#include <string>
#include <vector>

#include "kernels/bfs.h"
#include "napi_util.h"
#include "kernels/spmm.h"
#include "thread_pool.h"

namespace dype {
namespace {

using namespace napi;

// spmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, inline?): Promise<{ seconds }>
class SpmmWorker : public KernelWorker {
 public:
  SpmmWorker(Napi::Env env, const char* fn, SpmmArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return spmm(fn_, args_); }

 private:
  SpmmArgs args_;
};

Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    auto* w = new SpmmWorker(info.Env(), fn, get_spmm_args(info, fn));
    const bool run_inline = get_inline(info, 10);
    if (!run_inline) w->pin(info, 0, 10);
    return KernelWorker::start(w, run_inline);
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "spmm"); }

// spmv(...): spmm's arguments with k = 1; a separate entry point so errors name spmv.
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "spmv"); }

// bfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, parent|null, direction, alpha, beta, inline?,
//     startLevel? (-1: a fresh search; else resume the search held in depth), maxLevels? (0: no limit))
//   : Promise<{ frontier: Float64Array, bottomUp: Uint8Array, edgesExamined: number }>
class BfsWorker : public KernelWorker {
 public:
  BfsWorker(Napi::Env env, const char* fn, BfsArgs args) : KernelWorker(env, fn), args_(args) {}

 protected:
  Status compute() override { return bfs(fn_, args_, &stats_); }

  Napi::Value result(Napi::Env env) override {
    Napi::Object o = timed_result(env);
    set_bfs_stats(o, stats_);
    return o;
  }

 private:
  BfsArgs args_;
  BfsStats stats_;
};

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
    if (info.Length() > 12 && !info[12].IsUndefined()) a.start_level = static_cast<int32_t>(get_int(info, 12, fn, "startLevel", -1, n - 1));
    if (info.Length() > 13 && !info[13].IsUndefined()) a.max_levels = get_int(info, 13, fn, "maxLevels", 0, INT32_MAX);
    if (a.start_level >= 0 && a.parent != nullptr) throw ArgError{arg_name(fn, "parent") + " must be null when resuming a search"};
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
    Napi::Object o = timed_result(env);
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
    const SourcesDepths sd = get_sources_depths(info, 5, fn, a.out.rows);
    a.sources = sd.sources;
    a.num_sources = sd.count;
    a.depths = sd.depths;
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

// Kernel calls not yet destroyed (see live_workers): zero once every call has settled, so tests
// can check that cancelled runs leave no native work or pinned buffers behind.
Napi::Value LiveWorkers(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(live_workers().load(std::memory_order_relaxed)));
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("spmm", Napi::Function::New(env, Spmm, "spmm"));
  exports.Set("spmv", Napi::Function::New(env, Spmv, "spmv"));
  exports.Set("bfs", Napi::Function::New(env, Bfs, "bfs"));
  exports.Set("msbfs", Napi::Function::New(env, MsBfs, "msbfs"));
  exports.Set("noopSync", Napi::Function::New(env, NoopSync, "noopSync"));
  exports.Set("noopAsync", Napi::Function::New(env, NoopAsync, "noopAsync"));
  exports.Set("threads", Napi::Function::New(env, Threads, "threads"));
  exports.Set("liveWorkers", Napi::Function::New(env, LiveWorkers, "liveWorkers"));
  for (napi::ExportFn fn : napi::registered_exports()) fn(env, exports);
  exports.Set("abiVersion", Napi::Number::New(env, 5));
  return exports;
}

}  // namespace
}  // namespace dype

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return dype::Init(env, exports); }

NODE_API_MODULE(dype_native, InitAddon)
