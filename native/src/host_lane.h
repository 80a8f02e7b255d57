// The host lane: the one long-lived thread on which every asynchronous CPU kernel call of the
// process runs (simulators and CUDA calls stay on libuv's workers). Why not libuv's workers: each
// call there is picked up by whichever of its four threads the condition variable wakes next, and
// the scheduler puts a thread that slept back on the core it last ran on. On a 2-vCPU machine that
// core is, one time in three or four, the one where the kernel pool's other thread is spinning, and
// the two then share one core for the whole call: a 48 us SpMM of bcsstk13 took 90 us in a quarter
// of the calls, bimodal for no reason a model of the kernel can see, and planner and oracle timed
// different modes (one thread, as with UV_THREADPOOL_SIZE=1, gave 47-50 us every time). One
// thread keeps one placement; bound to a core of its own, with each pool worker bound to another
// (thread_pool.h), caller and workers never meet.
//
// A call settles on the JS thread that made it through a thread-safe function of that thread's
// environment. When an environment is torn down (the process exits, a worker thread ends), its
// queued calls are dropped, the call running on the lane is waited for (it writes into that
// environment's arrays), and nothing of it is touched through Node-API again.
#pragma once

#include <napi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace dype {
namespace napi {

// One call on the lane.
class LaneCall {
 public:
  virtual ~LaneCall() = default;
  // Compute, on the lane thread.
  virtual void run() = 0;
  // Settle the Promise and let go of the pinned arrays, on the JS thread that made the call.
  virtual void settle(Napi::Env env) = 0;
  // The environment is gone: drop everything without Node-API (its references went with it).
  virtual void abandon() = 0;
};

// The lane's side of one environment: how its calls get back to its JS thread.
class EnvLane {
 public:
  // This environment's, made on its first call (JS thread).
  static std::shared_ptr<EnvLane> of(Napi::Env env);

  explicit EnvLane(Napi::Env env);
  // A call of this environment is about to be posted (JS thread): keep its event loop alive.
  void posted(Napi::Env env);
  // Lane thread: whether to run a call (false once the environment is closing); counts it running.
  bool begin();
  // Lane thread: hand a run call back to the JS thread, or drop it if the environment is closing.
  void finish(LaneCall* call);

 private:
  static void deliver(Napi::Env env, Napi::Function, EnvLane* self, LaneCall* call);
  static void cleanup(void* env);
  using Tsfn = Napi::TypedThreadSafeFunction<EnvLane, LaneCall, &EnvLane::deliver>;

  Tsfn tsfn_;
  std::mutex mutex_;
  std::condition_variable idle_;
  bool closed_ = false;
  bool tsfn_alive_ = true;
  int running_ = 0;
  int64_t pending_ = 0;  // JS thread only
};

class HostLane {
 public:
  static HostLane& instance();
  // Queue `call` (consumed) to run on the lane and settle through `env`.
  void post(std::shared_ptr<EnvLane> env, LaneCall* call);
  // Whether a kernel small enough to run on the JS thread may run there now: threads are not
  // bound, or the JS thread is on a core where no pool worker computes (the lane's, or one the
  // pool does not use). On a worker's core it would leave that worker idle for the call; there
  // the lane and that worker trade cores, so the JS thread then shares its core with the lane
  // (idle while the JS thread computes), at most once per kMinMoveMillis; between moves such a
  // call takes the lane instead.
  bool inline_is_safe();
  // The core the lane is bound to, or -1 where threads are not bound.
  int core() const { return core_.load(std::memory_order_relaxed); }
  // How many times the lane has traded cores with a worker (diagnostics and tests).
  int64_t moves() const { return moves_.load(std::memory_order_relaxed); }

 private:
  HostLane();
  void loop();

  std::atomic<int> core_;
  std::thread::native_handle_type thread_{};
  std::mutex move_mutex_;
  std::chrono::steady_clock::time_point last_move_{};
  std::atomic<int64_t> moves_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<std::shared_ptr<EnvLane>, LaneCall*>> queue_;
  std::atomic<int64_t> queued_{0};
};

}  // namespace napi
}  // namespace dype
