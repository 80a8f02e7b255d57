// The host lane's thread and its per-environment delivery (see host_lane.h).
#include "host_lane.h"

#include <chrono>
#include <thread>
#include <unordered_map>

#include "thread_pool.h"

namespace dype {
namespace napi {

namespace {

// How long the lane polls for the next call before it sleeps.
constexpr int kLaneSpinMicros = 200;

// The least time between two trades of cores with a worker (HostLane::inline_is_safe): a JS
// thread that keeps moving, or two environments' threads on different cores, send their calls to
// the lane in between rather than moving threads back and forth.
constexpr int kMinMoveMillis = 10;

// Environments with calls on the lane, until each is torn down.
std::mutex& lanes_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<napi_env, std::shared_ptr<EnvLane>>& lanes() {
  static auto* map = new std::unordered_map<napi_env, std::shared_ptr<EnvLane>>();
  return *map;
}

}  // namespace

std::shared_ptr<EnvLane> EnvLane::of(Napi::Env env) {
  napi_env key = env;
  {
    std::lock_guard<std::mutex> lock(lanes_mutex());
    auto it = lanes().find(key);
    if (it != lanes().end()) return it->second;
  }
  auto lane = std::make_shared<EnvLane>(env);
  {
    std::lock_guard<std::mutex> lock(lanes_mutex());
    lanes()[key] = lane;
  }
  napi_add_env_cleanup_hook(key, &EnvLane::cleanup, key);
  return lane;
}

EnvLane::EnvLane(Napi::Env env) : tsfn_(Tsfn::New(env, "dype host lane", 0, 1, this)) {
  // Only calls in flight keep the event loop alive (posted() and deliver() count them).
  tsfn_.Unref(env);
}

void EnvLane::posted(Napi::Env env) {
  if (pending_++ == 0) tsfn_.Ref(env);
}

bool EnvLane::begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return false;
  ++running_;
  return true;
}

void EnvLane::finish(LaneCall* call) {
  std::unique_lock<std::mutex> lock(mutex_);
  --running_;
  bool delivered = false;
  if (!closed_ && tsfn_alive_) {
    delivered = tsfn_.BlockingCall(call) == napi_ok;
    // napi_closing: the function is being torn down and must not be used again.
    if (!delivered) tsfn_alive_ = false, closed_ = true;
  }
  idle_.notify_all();
  lock.unlock();
  if (!delivered) {
    call->abandon();
    delete call;
  }
}

void EnvLane::deliver(Napi::Env env, Napi::Function, EnvLane* self, LaneCall* call) {
  if (static_cast<napi_env>(env) == nullptr) {
    // The environment's teardown empties the queue this way.
    call->abandon();
    delete call;
    return;
  }
  try {
    call->settle(env);
  } catch (...) {
    // A settlement that cannot allocate its result leaves the Promise pending; never unwind into Node.
  }
  delete call;
  if (--self->pending_ == 0) self->tsfn_.Unref(env);
}

void EnvLane::cleanup(void* arg) {
  const napi_env key = static_cast<napi_env>(arg);
  std::shared_ptr<EnvLane> lane;
  {
    std::lock_guard<std::mutex> lock(lanes_mutex());
    auto it = lanes().find(key);
    if (it == lanes().end()) return;
    lane = it->second;
    lanes().erase(it);
  }
  std::unique_lock<std::mutex> lock(lane->mutex_);
  lane->closed_ = true;
  // The call running now writes into this environment's arrays: wait for it before they go.
  lane->idle_.wait(lock, [&] { return lane->running_ == 0; });
  if (lane->tsfn_alive_) {
    lane->tsfn_alive_ = false;
    lane->tsfn_.Release();
  }
}

HostLane& HostLane::instance() {
  // Leaked on purpose, like the kernel pool: its thread outlives static destruction at exit.
  static HostLane* lane = new HostLane();
  return *lane;
}

HostLane::HostLane() : core_(core_of_slot(0)) {
  std::thread lane([this] { loop(); });
  // Bound from here rather than by the thread itself, which could run after a move.
  thread_ = lane.native_handle();
  pin_thread_to_core(thread_, core_.load());
  lane.detach();  // it never ends, so its handle stays valid
}

bool HostLane::inline_is_safe() {
  // Bound (core >= 0) only where the pool has workers to keep apart (core_of_slot).
  const int lane = core_.load(std::memory_order_relaxed);
  if (lane < 0) return true;
  const int here = current_core();
  if (here == lane) return true;
  if (here < 0) return false;
  ThreadPool& pool = ThreadPool::instance();
  const int worker = pool.worker_on(here);
  if (worker < 0) return true;
  // The scheduler put the JS thread on a worker's core, and it seldom moves it: a call sent to
  // the lane from there cost 8-11 us more than the kernel (SpMV of bcsstk13 at two threads on a
  // 2-vCPU VM, docs/threads.md), and processes whose JS thread settled there paid it on every
  // mid-size call. Trade places instead, the worker to the lane's core and the lane to this one.
  std::lock_guard<std::mutex> lock(move_mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - last_move_ < std::chrono::milliseconds(kMinMoveMillis) || core_.load() != lane) return false;
  last_move_ = now;
  pool.move_worker(worker, lane);
  pin_thread_to_core(thread_, here);
  core_.store(here);
  moves_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void HostLane::post(std::shared_ptr<EnvLane> env, LaneCall* call) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.emplace_back(std::move(env), call);
    queued_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_one();
}

void HostLane::loop() {
  for (;;) {
    std::pair<std::shared_ptr<EnvLane>, LaneCall*> next;
    {
      // Poll a while before sleeping: calls come in bursts (a plan's probes, a run's pieces), and
      // the JS thread posts the next within tens of microseconds of the last one settling.
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(kLaneSpinMicros);
      while (queued_.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return !queue_.empty(); });
      queued_.fetch_sub(1, std::memory_order_relaxed);
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    auto& [env, call] = next;
    if (!env->begin()) {
      call->abandon();
      delete call;
      continue;
    }
    call->run();
    env->finish(call);
  }
}

}  // namespace napi
}  // namespace dype
