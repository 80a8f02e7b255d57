// A persistent pool of worker threads shared by every native kernel. Callers submit a job of
// independent chunks and take part in it themselves, so several concurrent jobs (several
// AsyncWorkers at once) always make progress and never deadlock waiting for a busy pool.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace dype {

class ThreadPool {
 public:
  // The process-wide pool, created on first use with one participant per usable core
  // (sched_getaffinity aware; DYPE_THREADS overrides).
  static ThreadPool& instance();

  explicit ThreadPool(int participants);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Threads that can work on one job at once: the pool's workers plus the calling thread.
  int participants() const { return static_cast<int>(workers_.size()) + 1; }

  // Run body(chunk) for every chunk in [0, chunks), spread over the pool and the calling
  // thread; returns when all chunks are done. Chunks are claimed dynamically, so uneven
  // chunks balance themselves. body must not throw.
  void parallel_for(int64_t chunks, const std::function<void(int64_t)>& body);

  // The worker bound to `core`, or -1 where none is (threads not bound, or no worker there).
  int worker_on(int core) const;
  // Bind worker `index` to `core` instead (HostLane::inline_is_safe trades places with it).
  void move_worker(int index, int core);

  // How many times a worker has gone to sleep since the pool started (diagnostics: a worker
  // that sleeps between the jobs of a burst makes each of them pay a wake-up).
  uint64_t sleeps() const { return sleeps_.load(std::memory_order_relaxed); }

  // Jobs of two or more chunks submitted, and those of them whose caller ran every chunk because
  // no worker came in time (a worker whose core another thread held: V8's compiler or collector,
  // a simulator, another process). A call timed across such a job ran on fewer threads than it
  // will in a run, so timings that mean to price a run (probes, the oracle) retake it.
  uint64_t shared_jobs() const { return shared_jobs_.load(std::memory_order_relaxed); }
  uint64_t unaided_jobs() const { return unaided_jobs_.load(std::memory_order_relaxed); }

 private:
  struct Job {
    const std::function<void(int64_t)>* body;
    int64_t chunks;
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> done{0};
    std::mutex mutex;
    std::condition_variable finished;
  };

  void worker_loop();
  // Chunks of `job` this thread ran.
  static int64_t work_on(Job& job);
  // The first job with chunks left to claim, or null; called with mutex_ held.
  std::shared_ptr<Job> open_job() const;

  std::vector<std::thread> workers_;
  // The core each worker is bound to (-1: not bound); changed only by move_worker.
  std::unique_ptr<std::atomic<int>[]> worker_cores_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<uint64_t> sleeps_{0};
  std::atomic<uint64_t> shared_jobs_{0};
  std::atomic<uint64_t> unaided_jobs_{0};
  bool stopping_ = false;
};

// Number of cores this process may run on.
int usable_cores();

// Threads that compute are bound to cores of their own, unless DYPE_PIN=0: slot 0 is the host
// lane's (the caller of every asynchronous CPU kernel: host_lane.h), slots 1.. the pool's workers.
// A caller and a worker that share one core for a whole call leave the worker idle: on a 2-vCPU
// VM a two-thread SpMM then ran at one thread's speed in a quarter of the calls. The lane and a
// worker may later trade cores (HostLane::inline_is_safe, ThreadPool::move_worker). The core of
// `slot` among those this process may run on (wrapping around), or -1 where threads are not bound.
int core_of_slot(int slot);
// Bind the calling thread to `core` (nothing for -1); whether it was bound.
bool pin_to_core(int core);
// Bind thread `thread` to `core` (nothing for -1); whether it was bound.
bool pin_thread_to_core(std::thread::native_handle_type thread, int core);
// The core the calling thread is running on now, or -1 where unknown.
int current_core();

}  // namespace dype
