// The Node-API face of the native kernels: arguments are checked again here (the TypeScript layer
// checks first), typed arrays are borrowed zero-copy and pinned for the duration of the call,
// and every kernel runs off the JS thread (on the host lane: host_lane.h) so the event loop stays free.
#include <napi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "kernels/bfs.h"
#include "async_call.h"
#include "kernels/spmm.h"
#include "machine.h"
#include "prefault.h"
#include "thread_pool.h"

namespace dype {
namespace {

using namespace napi;

// spmm(rows, cols, rowPtr, colIdx, values|null, x, k, y, rowBegin, rowEnd, inline?): Promise<{ seconds }>
Napi::Value SpmmCommon(const Napi::CallbackInfo& info, const char* fn) {
  return with_arg_errors(info.Env(), [&] {
    const SpmmArgs a = get_spmm_args(info, fn);
    const size_t y_bytes = static_cast<size_t>((a.row_end - a.row_begin) * a.k) * (a.type == DenseType::kF32 ? 4 : 8);
    return launch<Nothing>(info.Env(), fn, get_inline(info, 10), Pins::args(info, 10).output(a.y, y_bytes),
                           [a](const char* fn, Nothing&) { return spmm(fn, a); }, no_report, Runs::kOnHostLane);
  });
}

Napi::Value Spmm(const Napi::CallbackInfo& info) { return SpmmCommon(info, "spmm"); }

// spmv(...): spmm's arguments with k = 1; a separate entry point so errors name spmv.
Napi::Value Spmv(const Napi::CallbackInfo& info) { return SpmmCommon(info, "spmv"); }

// bfs(n, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, parent|null, direction, alpha, beta, inline?,
//     startLevel? (-1: a fresh search; else resume the search held in depth), maxLevels? (0: no limit))
//   : Promise<{ frontier: Float64Array, bottomUp: Uint8Array, edgesExamined: number }>
Napi::Value Bfs(const Napi::CallbackInfo& info) {
  const char* fn = "bfs";
  return with_arg_errors(info.Env(), [&] {
    BfsArgs a;
    Borrowed depth = get_search(info, 0, fn, a);
    const int64_t n = a.out.rows;
    Borrowed parent = get_array(info, 7, fn, "parent", {napi_int32_array}, true);
    if (parent.data != nullptr && parent.length != static_cast<size_t>(n)) {
      throw ArgError{arg_name(fn, "parent") + " must have length n"};
    }
    if (parent.data != nullptr && parent.data == depth.data) throw ArgError{arg_name(fn, "parent") + " must not alias depth"};
    a.parent = static_cast<int32_t*>(parent.data);
    get_direction(info, 8, fn, a);
    a.start_level = static_cast<int32_t>(get_optional_int(info, 12, fn, "startLevel", -1, n - 1, -1));
    a.max_levels = get_optional_int(info, 13, fn, "maxLevels", 0, INT32_MAX, 0);
    if (a.start_level >= 0 && a.parent != nullptr) throw ArgError{arg_name(fn, "parent") + " must be null when resuming a search"};
    const size_t bytes = static_cast<size_t>(n) * sizeof(int32_t);
    Pins pins = Pins::args(info, 11).output(a.depth, bytes).output(a.parent, a.parent != nullptr ? bytes : 0);
    return launch<BfsStats>(info.Env(), fn, get_inline(info, 11), std::move(pins),
                            [a](const char* fn, BfsStats& st) { return bfs(fn, a, &st); },
                            [](Napi::Object& o, const BfsStats& st) { set_bfs_stats(o, st); }, Runs::kOnHostLane);
  });
}

// msbfs(n, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths, inline?): Promise<{ edgesExamined }>
Napi::Value MsBfs(const Napi::CallbackInfo& info) {
  const char* fn = "msbfs";
  return with_arg_errors(info.Env(), [&] {
    const MsBfsArgs a = get_msbfs_args(info, fn);
    const size_t bytes = static_cast<size_t>(a.num_sources * a.out.rows) * sizeof(int32_t);
    return launch<int64_t>(info.Env(), fn, get_inline(info, 7), Pins::args(info, 7).output(a.depths, bytes),
                           [a](const char* fn, int64_t& edges) { return msbfs(fn, a, &edges); }, set_edges_examined,
                           Runs::kOnHostLane);
  });
}

// Boundary-cost probes for the benchmarks: the cheapest possible sync call and async round trip
// (on the host lane, as every CPU kernel's).
Napi::Value NoopSync(const Napi::CallbackInfo& info) { return info.Env().Undefined(); }

Napi::Value NoopAsync(const Napi::CallbackInfo& info) {
  return launch<Nothing>(info.Env(), "noopAsync", false, Pins{}, [](const char*, Nothing&) { return Status{}; }, no_report,
                         Runs::kOnHostLane);
}

// Bytes of last-level cache this process can count on (machine.h): what the kernels size their
// choices by, and what the benchmarks' cache-aware bounds assume.
Napi::Value CacheShareBytes(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(cache_share_bytes()));
}

// One core's L2 in bytes (machine.h): the CPU BFS's direction rule sizes its threshold by it.
Napi::Value L2CacheBytes(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(l2_cache_bytes()));
}

// alignmentPad(buffer, boundary = 64): bytes from an ArrayBuffer's data to the next multiple of
// `boundary` (a power of two up to 2 MiB; 0 where it is on one). Dense arrays dype allocates start
// their data on 64 bytes (src/data/aligned.ts), so a row of 64 bytes or a multiple is whole cache
// lines and a 512-bit load never spans two; large ones on 2 MiB, so their pages can be huge.
Napi::Value AlignmentPad(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsArrayBuffer()) {
    Napi::TypeError::New(env, "alignmentPad: expects an ArrayBuffer").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  uintptr_t boundary = kDenseAlignBytes;
  if (info.Length() > 1 && !info[1].IsUndefined()) {
    const double b = info[1].IsNumber() ? info[1].As<Napi::Number>().DoubleValue() : -1;
    if (!(b >= 1 && b <= double(uintptr_t{2} << 20)) || (static_cast<uintptr_t>(b) & (static_cast<uintptr_t>(b) - 1)) != 0) {
      Napi::RangeError::New(env, "alignmentPad: boundary must be a power of two from 1 to 2 MiB").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    boundary = static_cast<uintptr_t>(b);
  }
  const auto at = reinterpret_cast<uintptr_t>(info[0].As<Napi::ArrayBuffer>().Data());
  return Napi::Number::New(env, static_cast<double>((boundary - at % boundary) % boundary));
}

// provisionPages(buffer, byteOffset, byteLength): map bytes [byteOffset, byteOffset + byteLength)
// of an ArrayBuffer for writing as a kernel's output is before its clock starts (prefault.h:
// whole 2 MiB blocks as huge pages where offered), contents unchanged; returns how many of the
// range's whole pages are mapped afterwards, and of how many (`{ mapped, pages }`, asked of
// mincore: `pages` where the platform cannot say).
Napi::Value ProvisionPages(const Napi::CallbackInfo& info) {
  const char* fn = "provisionPages";
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsArrayBuffer()) {
    Napi::TypeError::New(env, std::string(fn) + ": expects (ArrayBuffer, byteOffset, byteLength)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::ArrayBuffer buffer = info[0].As<Napi::ArrayBuffer>();
  const auto size = static_cast<int64_t>(buffer.ByteLength());
  return with_arg_errors(env, [&]() -> Napi::Value {
    const int64_t offset = get_int(info, 1, fn, "byteOffset", 0, size);
    const int64_t length = get_int(info, 2, fn, "byteLength", 0, size - offset);
    auto* data = static_cast<uint8_t*>(buffer.Data()) + offset;
    prefault(data, static_cast<size_t>(length));
    const auto [first, last] = whole_pages(data, static_cast<size_t>(length));
    const int64_t pages = static_cast<int64_t>((last - first) / page_bytes());
    int64_t mapped = pages;
#if defined(__linux__)
    std::vector<unsigned char> resident(static_cast<size_t>(pages));
    if (pages > 0 && mincore(reinterpret_cast<void*>(first), last - first, resident.data()) == 0) {
      mapped = 0;
      for (unsigned char r : resident) mapped += r & 1;
    }
#endif
    Napi::Object o = Napi::Object::New(env);
    o.Set("mapped", Napi::Number::New(env, static_cast<double>(mapped)));
    o.Set("pages", Napi::Number::New(env, static_cast<double>(pages)));
    return o;
  });
}

// handOver(data: TypedArray): leaves `data` as another thread leaves what it has just written:
// one byte of every cache line written back to itself (contents unchanged), here on the JS thread.
// A run's operator reads what the operator before it has just written, part of it dirty in another
// core's cache; the planner's probes and the oracle time it on operands nobody has written since
// long before (src/executor/cache-turnover.ts says what that changed). Synchronous: an async call
// here left the next timed call preempted or short of its workers several times as often.
Napi::Value HandOver(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsTypedArray()) {
    Napi::TypeError::New(env, "handOver: expects a typed array").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::TypedArray array = info[0].As<Napi::TypedArray>();
  volatile uint8_t* at = static_cast<uint8_t*>(array.ArrayBuffer().Data()) + array.ByteOffset();
  const size_t bytes = array.ByteLength();
  constexpr size_t kLine = 64;
  for (size_t i = 0; i < bytes; i += kLine) at[i] = at[i];
  return env.Undefined();
}

// The core the host lane is bound to, or -1 where threads are not bound (host_lane.h).
Napi::Value LaneCore(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), HostLane::instance().core()); }

// How many times the lane has traded cores with a pool worker to let a call run on the JS thread
// (HostLane::inline_is_safe).
Napi::Value LaneMoves(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(HostLane::instance().moves()));
}

// poolJobs(): { shared, unaided, preempted } since the process started (ThreadPool::unaided_jobs;
// preempted: calls switched out while watched, async_call.h).
Napi::Value PoolJobs(const Napi::CallbackInfo& info) {
  ThreadPool& pool = ThreadPool::instance();
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("shared", Napi::Number::New(info.Env(), static_cast<double>(pool.shared_jobs())));
  o.Set("unaided", Napi::Number::New(info.Env(), static_cast<double>(pool.unaided_jobs())));
  o.Set("preempted", Napi::Number::New(info.Env(), static_cast<double>(preempted_calls().load(std::memory_order_relaxed))));
  return o;
}

// watchPreemption(on): one more (true) or one fewer (false) watcher of calls' preemption.
Napi::Value WatchPreemption(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && info[0].ToBoolean().Value()) {
    preemption_watchers().fetch_add(1, std::memory_order_relaxed);
  } else if (preemption_watchers().fetch_sub(1, std::memory_order_relaxed) <= 0) {
    preemption_watchers().fetch_add(1, std::memory_order_relaxed);  // never below zero
  }
  return info.Env().Undefined();
}

Napi::Value Threads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), ThreadPool::instance().participants());
}

// Kernel calls not yet destroyed (see live_workers): zero once every call has settled, so tests
// can check that cancelled runs leave no native work or pinned buffers behind.
Napi::Value LiveWorkers(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(live_workers().load(std::memory_order_relaxed)));
}

// poolProbe(jobs, chunks, gapMicros): Promise<{ sleeps }>. On the host lane, `jobs` pool jobs of
// `chunks` empty chunks, each after `gapMicros` of serial work, as a level-synchronous kernel
// issues them; resolves with how many times a worker went to sleep meanwhile. A worker that
// stays awake through such a burst costs each job well under a microsecond; one that sleeps
// costs each a wake-up (test/kernels/pool-bursts.test.ts).
Napi::Value PoolProbe(const Napi::CallbackInfo& info) {
  const char* fn = "poolProbe";
  return with_arg_errors(info.Env(), [&] {
    const int64_t jobs = get_int(info, 0, fn, "jobs", 1, 1 << 20);
    const int64_t chunks = get_int(info, 1, fn, "chunks", 1, 1 << 10);
    const int64_t gap = get_int(info, 2, fn, "gapMicros", 0, 1000);
    return launch<int64_t>(
        info.Env(), fn, false, Pins{},
        [jobs, chunks, gap](const char*, int64_t& sleeps) {
          ThreadPool& pool = ThreadPool::instance();
          const uint64_t before = pool.sleeps();
          std::atomic<int64_t> sink{0};
          for (int64_t j = 0; j < jobs; ++j) {
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(gap);
            while (std::chrono::steady_clock::now() < until) {
            }
            pool.parallel_for(chunks, [&](int64_t c) { sink.fetch_add(c, std::memory_order_relaxed); });
          }
          sleeps = static_cast<int64_t>(pool.sleeps() - before);
          return Status{};
        },
        [](Napi::Object& o, const int64_t& sleeps) { o.Set("sleeps", Napi::Number::New(o.Env(), static_cast<double>(sleeps))); },
        Runs::kOnHostLane);
  });
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  export_functions(env, exports, {{"spmm", Spmm}, {"spmv", Spmv}, {"bfs", Bfs}, {"msbfs", MsBfs}, {"noopSync", NoopSync},
                                   {"noopAsync", NoopAsync}, {"threads", Threads}, {"laneCore", LaneCore}, {"laneMoves", LaneMoves}, {"liveWorkers", LiveWorkers},
                                   {"poolProbe", PoolProbe}, {"poolJobs", PoolJobs}, {"watchPreemption", WatchPreemption},
                                   {"cacheShareBytes", CacheShareBytes}, {"l2CacheBytes", L2CacheBytes},
                                   {"alignmentPad", AlignmentPad}, {"provisionPages", ProvisionPages},
                                   {"handOver", HandOver}});
  for (napi::ExportFn fn : napi::registered_exports()) fn(env, exports);
  exports.Set("abiVersion", Napi::Number::New(env, 17));
  return exports;
}

}  // namespace
}  // namespace dype

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return dype::Init(env, exports); }

NODE_API_MODULE(dype_native, InitAddon)
