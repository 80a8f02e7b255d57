// Implementation of the shared pool: workers spin briefly before sleeping, because level-
// synchronous kernels (BFS on road graphs has thousands of levels) submit many short jobs and a
// condition-variable wake-up per level would dominate their run time.
#include "thread_pool.h"

#include <chrono>
#include <cstdlib>
#include <string>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace dype {

// How long an idle worker keeps polling for new work before it sleeps.
constexpr int kWorkerSpinMicros = 2000;
// A job its caller ran this long alone, every chunk, ran without the workers (unaided_jobs).
constexpr int kUnaidedMicros = 10;

namespace {

#if defined(__linux__)
// The cores the process may run on, read once when the addon loads (on the JS thread): a thread
// bound to one core later (the host lane, a worker) would see only its own.
const cpu_set_t& process_cores() {
  static const cpu_set_t set = [] {
    cpu_set_t s;
    CPU_ZERO(&s);
    if (sched_getaffinity(0, sizeof(s), &s) != 0) CPU_ZERO(&s);
    return s;
  }();
  return set;
}
[[maybe_unused]] const bool kCoresReadAtLoad = (process_cores(), true);
#endif

}  // namespace

int usable_cores() {
  if (const char* env = std::getenv("DYPE_THREADS")) {
    char* end = nullptr;
    long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v >= 1 && v <= 1024) return static_cast<int>(v);
  }
#if defined(__linux__)
  const int cores = CPU_COUNT(&process_cores());
  if (cores > 0) return cores;
#endif
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

int core_of_slot(int slot) {
#if defined(__linux__)
  if (const char* env = std::getenv("DYPE_PIN")) {
    if (std::string(env) == "0") return -1;
  }
  // One participant (DYPE_THREADS=1, or one core): no worker to keep apart, and several
  // processes on one machine (MPI ranks) must not all be bound to the same first core.
  if (usable_cores() < 2) return -1;
  const cpu_set_t& allowed = process_cores();
  const int n = CPU_COUNT(&allowed);
  if (n < 2) return -1;
  int want = slot % n;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed) && want-- == 0) return cpu;
  }
#else
  (void)slot;
#endif
  return -1;
}

bool pin_to_core(int core) {
#if defined(__linux__)
  return pin_thread_to_core(pthread_self(), core);
#else
  (void)core;
  return false;
#endif
}

bool pin_thread_to_core(std::thread::native_handle_type thread, int core) {
#if defined(__linux__)
  if (core < 0) return false;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(core, &one);
  return pthread_setaffinity_np(thread, sizeof(one), &one) == 0;
#else
  (void)thread;
  (void)core;
  return false;
#endif
}

int current_core() {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

ThreadPool& ThreadPool::instance() {
  // Leaked on purpose: joining threads from a static destructor at process exit can race with
  // Node's own teardown; the OS reclaims them.
  static ThreadPool* pool = new ThreadPool(usable_cores());
  return *pool;
}

ThreadPool::ThreadPool(int participants) {
  int n = participants < 1 ? 0 : participants - 1;
  worker_cores_.reset(new std::atomic<int>[static_cast<size_t>(n)]);
  for (int i = 0; i < n; ++i) worker_cores_[i].store(core_of_slot(i + 1));
  workers_.reserve(n);
  for (int i = 0; i < n; ++i) {
    workers_.emplace_back([this] { worker_loop(); });
    // Bound from here rather than by the thread itself, which could run after a move_worker.
    pin_thread_to_core(workers_.back().native_handle(), worker_cores_[i].load());
  }
}

int ThreadPool::worker_on(int core) const {
  if (core < 0) return -1;
  for (size_t i = 0; i < workers_.size(); ++i) {
    if (worker_cores_[i].load(std::memory_order_relaxed) == core) return static_cast<int>(i);
  }
  return -1;
}

void ThreadPool::move_worker(int index, int core) {
  worker_cores_[index].store(core);
  pin_thread_to_core(workers_[static_cast<size_t>(index)].native_handle(), core);
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

int64_t ThreadPool::work_on(Job& job) {
  int64_t finished = 0;
  for (;;) {
    int64_t c = job.next.fetch_add(1, std::memory_order_relaxed);
    if (c >= job.chunks) break;
    (*job.body)(c);
    ++finished;
  }
  if (finished > 0 && job.done.fetch_add(finished, std::memory_order_acq_rel) + finished == job.chunks) {
    std::lock_guard<std::mutex> lock(job.mutex);
    job.finished.notify_all();
  }
  return finished;
}

void ThreadPool::parallel_for(int64_t chunks, const std::function<void(int64_t)>& body) {
  if (chunks <= 0) return;
  if (chunks == 1 || workers_.empty()) {
    for (int64_t c = 0; c < chunks; ++c) body(c);
    return;
  }
  auto job = std::make_shared<Job>();
  job->body = &body;
  job->chunks = chunks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(job);
  }
  generation_.fetch_add(1, std::memory_order_release);
  wake_.notify_all();

  const auto started = std::chrono::steady_clock::now();
  const int64_t mine = work_on(*job);
  shared_jobs_.fetch_add(1, std::memory_order_relaxed);
  // A worker polling for jobs claims a chunk within a few microseconds; a caller that ran every
  // chunk of a longer job alone ran without it (a job shorter than that is done before any
  // worker could come: the narrow levels of a search on a mesh, hundreds a call).
  if (mine == chunks && std::chrono::steady_clock::now() - started >= std::chrono::microseconds(kUnaidedMicros)) {
    unaided_jobs_.fetch_add(1, std::memory_order_relaxed);
  }

  // Other participants may still be inside a chunk; wait for them (spin first: chunks are short).
  auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
  while (job->done.load(std::memory_order_acquire) < chunks) {
    if (std::chrono::steady_clock::now() > spin_until) {
      std::unique_lock<std::mutex> lock(job->mutex);
      job->finished.wait(lock, [&] { return job->done.load(std::memory_order_acquire) >= chunks; });
      break;
    }
    std::this_thread::yield();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
    if (it->get() == job.get()) {
      jobs_.erase(it);
      break;
    }
  }
}

void ThreadPool::worker_loop() {
  uint64_t seen = generation_.load(std::memory_order_acquire);
  auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(kWorkerSpinMicros);
  for (;;) {
    // Poll the generation counter (yielding) until the deadline: waking a sleeping thread costs
    // the waker a futex call and the sleeper 50-200 us on a VM whose vCPU went idle, more than
    // many jobs take, and callers issue jobs in bursts (BFS levels, one operator after another).
    // OpenMP runtimes make the same trade (GOMP_SPINCOUNT, KMP_BLOCKTIME).
    while (generation_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < spin_until) {
      std::this_thread::yield();
    }
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stopping_) return;
      // Remember the generation before looking, so the next poll waits for a job submitted after.
      seen = generation_.load(std::memory_order_acquire);
      job = open_job();
      if (!job) {
        // The caller took every chunk before this thread came (a short job): poll again rather
        // than sleep. A worker that slept here came late to every later short job too, missed
        // it, and slept again, so each parallel_for paid a wake-up: 6.5 us a job of trivial
        // chunks after 20 us of serial work on the Zen 5 VM, 0.4 us polling.
        if (std::chrono::steady_clock::now() < spin_until) continue;
        sleeps_.fetch_add(1, std::memory_order_relaxed);
        wake_.wait(lock, [&] { return stopping_ || generation_.load(std::memory_order_acquire) != seen; });
        if (stopping_) return;
        seen = generation_.load(std::memory_order_acquire);
        job = open_job();
      }
    }
    if (job) work_on(*job);
    spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(kWorkerSpinMicros);
  }
}

std::shared_ptr<ThreadPool::Job> ThreadPool::open_job() const {
  for (const auto& j : jobs_) {
    if (j->next.load(std::memory_order_relaxed) < j->chunks) return j;
  }
  return nullptr;
}

}  // namespace dype
