// The one asynchronous call of the addon: every operator a binding exports (CPU kernels,
// simulators, CUDA) is a `launch` of two functions, one that computes on a libuv worker and one
// that turns what it computed into the Promise's result. What used to be a worker class per
// operator (pin the JS arrays, time compute(), settle the Promise with a coded error) is here once.
#pragma once

#include <napi.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#endif

#include "host_lane.h"
#include "napi_util.h"
#include "prefault.h"

namespace dype {
namespace napi {

// Kernel calls alive in this process (queued, running, or settled but not yet destroyed): each
// pins the JS arrays it borrows, so a count that does not return to zero is a leaked buffer.
inline std::atomic<int64_t>& live_workers() {
  static std::atomic<int64_t> count{0};
  return count;
}

// While some JS timing watches (`watchPreemption`), every call counts whether the thread computing
// it was switched out against its will meanwhile (another thread took its core: one of V8's, a
// simulator, another process); the count is read with the pool's job counts (`poolJobs`).
inline std::atomic<int>& preemption_watchers() {
  static std::atomic<int> count{0};
  return count;
}
inline std::atomic<uint64_t>& preempted_calls() {
  static std::atomic<uint64_t> count{0};
  return count;
}

// Involuntary context switches of the calling thread so far (0 where the system does not say).
inline long involuntary_switches() {
#if defined(__linux__) && defined(RUSAGE_THREAD)
  rusage u{};
  if (getrusage(RUSAGE_THREAD, &u) == 0) return u.ru_nivcsw;
#endif
  return 0;
}

// The JS objects a call borrows, kept alive until it settles, and the spans of them it writes
// (provisioned before the call is timed: prefault.h).
struct Pins {
  std::vector<Napi::Object> objects;
  OutputSpans outputs;

  // Declare `bytes` at `data` as an output of the call.
  Pins&& output(void* data, size_t bytes) && {
    outputs.emplace_back(data, bytes);
    return std::move(*this);
  }

  // The object arguments at positions [0, count) (typed arrays, params objects).
  static Pins args(const Napi::CallbackInfo& info, size_t count) {
    Pins p;
    for (size_t i = 0; i < count && i < info.Length(); ++i) {
      if (info[i].IsObject()) p.objects.push_back(info[i].As<Napi::Object>());
    }
    return p;
  }
};

// Base of every queued call: pins, runs compute() on a libuv worker, times it, and settles a
// Promise with { seconds, ...fields } or a coded error. Not used directly: see launch().
class KernelWorker : public Napi::AsyncWorker {
 public:
  KernelWorker(Napi::Env env, const char* fn)
      : Napi::AsyncWorker(env, fn), fn_(fn), deferred_(Napi::Promise::Deferred::New(env)) {
    live_workers().fetch_add(1, std::memory_order_relaxed);
  }
  ~KernelWorker() override { live_workers().fetch_sub(1, std::memory_order_relaxed); }

  // Queue on a libuv worker; the caller gets the Promise. `self` must come from new and is
  // consumed.
  static Napi::Promise queue(KernelWorker* self, Pins pins) {
    Napi::Promise p = self->deferred_.Promise();
    for (Napi::Object& o : pins.objects) self->pins_.push_back(Napi::Persistent(o));
    self->outputs_ = std::move(pins.outputs);
    self->Queue();
    return p;
  }

  // Run `compute` and time it; an exception becomes a coded Status naming fn.
  template <class F>
  static Status timed(const char* fn, F&& compute, double* seconds) {
    const bool watched = preemption_watchers().load(std::memory_order_relaxed) > 0;
    const long switches = watched ? involuntary_switches() : 0;
    const auto t0 = std::chrono::steady_clock::now();
    Status st;
    try {
      st = compute();
    } catch (const std::bad_alloc&) {
      st = Status{false, "ERR_LIMIT", std::string(fn) + ": out of memory"};
    } catch (const std::exception& e) {
      st = Status{false, "ERR_NATIVE", std::string(fn) + ": " + e.what()};
    }
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (watched && involuntary_switches() != switches) preempted_calls().fetch_add(1, std::memory_order_relaxed);
    return st;
  }

  // Settle `d` with { seconds, ...report's fields } or the coded error.
  template <class Report>
  static void settle(Napi::Env env, Napi::Promise::Deferred& d, const Status& st, double seconds, Report&& report) {
    if (!st.ok) {
      d.Reject(make_error(env, st.code, st.message).Value());
      return;
    }
    Napi::Object o = Napi::Object::New(env);
    // Wall time of compute() alone, without the queueing and wake-ups of the async round trip:
    // the figure a device reports as its measured time.
    o.Set("seconds", Napi::Number::New(env, seconds));
    report(o);
    d.Resolve(o);
  }

 protected:
  virtual Status compute() = 0;
  // Adds the call's own fields to the result object, beside `seconds`.
  virtual void report(Napi::Object& result) = 0;

  const char* fn_;

 private:
  void Execute() override {
    prefault(outputs_);
    status_ = timed(fn_, [this] { return compute(); }, &seconds_);
  }

  void OnOK() override {
    settle(Env(), deferred_, status_, seconds_, [this](Napi::Object& o) { report(o); });
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

  double seconds_ = 0;
  Napi::Promise::Deferred deferred_;
  std::vector<Napi::ObjectReference> pins_;
  OutputSpans outputs_;
  Status status_;
};

// A call's two halves: `compute(fn, out)` runs off the JS thread and returns a Status, filling
// `out` (an Out, default-constructed); `report(result, out)` runs on the JS thread and sets
// fields of the result object from it.
template <class Out, class Compute, class Report>
class AsyncCall final : public KernelWorker {
 public:
  AsyncCall(Napi::Env env, const char* fn, Compute compute, Report report)
      : KernelWorker(env, fn), compute_(std::move(compute)), report_(std::move(report)) {}

 protected:
  Status compute() override { return compute_(fn_, out_); }
  void report(Napi::Object& result) override { report_(result, static_cast<const Out&>(out_)); }

 private:
  Compute compute_;
  Report report_;
  Out out_{};
};

// For calls whose result is { seconds } alone.
struct Nothing {};
constexpr auto no_report = [](Napi::Object&, const auto&) {};

// A call run on the host lane (host_lane.h): the same halves and pins as an AsyncCall, held by
// raw references so that a call whose environment is gone can be dropped without Node-API.
template <class Out, class Compute, class Report>
class HostLaneCall final : public LaneCall {
 public:
  HostLaneCall(Napi::Env env, const char* fn, Compute compute, Report report, Pins pins)
      : fn_(fn), deferred_(Napi::Promise::Deferred::New(env)), compute_(std::move(compute)), report_(std::move(report)),
        outputs_(std::move(pins.outputs)) {
    live_workers().fetch_add(1, std::memory_order_relaxed);
    for (Napi::Object& o : pins.objects) {
      napi_ref ref = nullptr;
      if (napi_create_reference(env, o, 1, &ref) == napi_ok) refs_.push_back(ref);
    }
  }
  ~HostLaneCall() override { live_workers().fetch_sub(1, std::memory_order_relaxed); }

  Napi::Promise promise() const { return deferred_.Promise(); }

  void run() override {
    prefault(outputs_);
    status_ = KernelWorker::timed(fn_, [this] { return compute_(fn_, out_); }, &seconds_);
  }

  void settle(Napi::Env env) override {
    for (napi_ref ref : refs_) napi_delete_reference(env, ref);
    refs_.clear();
    KernelWorker::settle(env, deferred_, status_, seconds_, [this](Napi::Object& o) { report_(o, static_cast<const Out&>(out_)); });
  }

  void abandon() override { refs_.clear(); }

 private:
  const char* fn_;
  Napi::Promise::Deferred deferred_;
  Compute compute_;
  Report report_;
  OutputSpans outputs_;
  std::vector<napi_ref> refs_;
  Out out_{};
  Status status_;
  double seconds_ = 0;
};

// Where a queued call computes: a libuv worker, or the host lane (CPU kernels, timed on the host's
// cores: host_lane.h says why one thread).
enum class Runs { kOnWorker, kOnHostLane };

// Start one call: `Out` is what compute fills and report reads. Work too small to repay two
// cross-thread wake-ups (each can cost 50-200 us on a virtual machine whose other vCPU is idle)
// runs right here on the JS thread (`run_inline` 2; 1 for a host-lane call only where the JS
// thread shares no pool worker's core: HostLane::inline_is_safe), with no worker object at all
// (creating an AsyncWorker's async resource was a measurable share of a 100 us call); an inline
// call settles before returning, so it borrows its arrays without pinning them. Either way the
// caller gets a Promise.
template <class Out, class Compute, class Report>
Napi::Promise launch(Napi::Env env, const char* fn, int run_inline, Pins pins, Compute compute, Report report,
                     Runs where = Runs::kOnWorker) {
  if (run_inline == 2 || (run_inline == 1 && (where != Runs::kOnHostLane || HostLane::instance().inline_is_safe()))) {
    prefault(pins.outputs);
    Out out{};
    double seconds = 0;
    const Status st = KernelWorker::timed(fn, [&] { return compute(fn, out); }, &seconds);
    Napi::Promise::Deferred d = Napi::Promise::Deferred::New(env);
    KernelWorker::settle(env, d, st, seconds, [&](Napi::Object& o) { report(o, static_cast<const Out&>(out)); });
    return d.Promise();
  }
  if (where == Runs::kOnHostLane) {
    std::shared_ptr<EnvLane> lane = EnvLane::of(env);
    auto* call = new HostLaneCall<Out, Compute, Report>(env, fn, std::move(compute), std::move(report), std::move(pins));
    Napi::Promise p = call->promise();
    lane->posted(env);
    HostLane::instance().post(std::move(lane), call);
    return p;
  }
  auto* call = new AsyncCall<Out, Compute, Report>(env, fn, std::move(compute), std::move(report));
  return KernelWorker::queue(call, std::move(pins));
}

}  // namespace napi
}  // namespace dype
