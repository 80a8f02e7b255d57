// A reference direction-optimising BFS in the style of the GAP benchmark suite, written for this
// bench from the published description (Beamer, Asanovic and Patterson, "Direction-Optimizing
// Breadth-First Search", SC 2012; Beamer, Asanovic and Patterson, "The GAP Benchmark Suite",
// arXiv:1508.03619): a parent array initialised to -(out-degree) for unvisited vertices, a
// top-down step that claims children with compare-and-swap into per-thread buffers appended to
// one sliding queue, a bottom-up step over a frontier bitmap that stops at the first parent
// found, and the alpha/beta switching rule (go bottom-up when the frontier's out-edges exceed
// the unexplored edges / alpha; back when the frontier shrinks below n / beta and stops
// growing), alpha = 15, beta = 18, compared in integer arithmetic. OpenMP: the bottom-up step in
// dynamic chunks of 1024 vertices, every other loop on the default (static) schedule. The
// parent array is the caller's and reused (the suite allocates it per search: the faster
// choice here, so ratios do not flatter dype). docs/speed.md records how its times were checked against gapbs itself.
// Benchmark-only; header-only so the reference addon and the standalone timer share it.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gapref {

struct Graph {
  int64_t n = 0;
  int64_t nnz = 0;            // directed edges (each undirected edge twice)
  const int32_t* rp = nullptr;   // out-edges
  const int32_t* ci = nullptr;
  const int32_t* irp = nullptr;  // in-edges (the same arrays for an undirected graph)
  const int32_t* ici = nullptr;
  int64_t out_degree(int64_t v) const { return rp[v + 1] - rp[v]; }
};

class Bitmap {
 public:
  explicit Bitmap(int64_t n) : words_(static_cast<size_t>((n + 63) / 64), 0) {}
  void reset() { std::fill(words_.begin(), words_.end(), 0); }
  bool get(int64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  void set(int64_t i) { words_[i >> 6] |= uint64_t(1) << (i & 63); }
  void set_atomic(int64_t i) { __atomic_fetch_or(&words_[i >> 6], uint64_t(1) << (i & 63), __ATOMIC_RELAXED); }
  void swap(Bitmap& o) { words_.swap(o.words_); }

 private:
  std::vector<uint64_t> words_;
};

// The frontier queue: one array, the current window [begin, end), the next level appended
// after `end` by per-thread buffers; slide() makes what was appended the window.
class SlidingQueue {
 public:
  explicit SlidingQueue(int64_t n) : q_(static_cast<size_t>(n)) {}
  void push(int32_t v) { q_[next_++] = v; }
  void slide() {
    begin_ = end_;
    end_ = next_;
  }
  void clear() { begin_ = end_ = next_ = 0; }
  bool empty() const { return begin_ == end_; }
  int64_t size() const { return end_ - begin_; }
  const int32_t* begin() const { return q_.data() + begin_; }
  // Append a thread's buffer (one atomic add per flush).
  void append(const int32_t* v, int64_t count) {
    const int64_t at = __atomic_fetch_add(&next_, count, __ATOMIC_RELAXED);
    std::memcpy(q_.data() + at, v, static_cast<size_t>(count) * sizeof(int32_t));
  }

 private:
  std::vector<int32_t> q_;
  int64_t begin_ = 0, end_ = 0, next_ = 0;
};

// A thread's discoveries, flushed to the queue when full and at the end of a step.
class LocalBuffer {
 public:
  explicit LocalBuffer(SlidingQueue& q) : q_(q) {}
  ~LocalBuffer() { flush(); }
  void push(int32_t v) {
    buf_[size_++] = v;
    if (size_ == kSize) flush();
  }
  void flush() {
    if (size_ > 0) q_.append(buf_, size_);
    size_ = 0;
  }

 private:
  static constexpr int64_t kSize = 16384;
  SlidingQueue& q_;
  int32_t buf_[kSize];
  int64_t size_ = 0;
};

inline int64_t top_down_step(const Graph& g, int32_t* parent, SlidingQueue& queue) {
  int64_t scout = 0;
  const int32_t* frontier = queue.begin();
  const int64_t f = queue.size();
#pragma omp parallel
  {
    auto* local = new LocalBuffer(queue);
#pragma omp for reduction(+ : scout) nowait
    for (int64_t i = 0; i < f; ++i) {
      const int32_t u = frontier[i];
      for (int32_t p = g.rp[u]; p < g.rp[u + 1]; ++p) {
        const int32_t v = g.ci[p];
        int32_t curr = __atomic_load_n(parent + v, __ATOMIC_RELAXED);
        if (curr < 0 && __atomic_compare_exchange_n(parent + v, &curr, u, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
          local->push(v);
          scout += -curr;
        }
      }
    }
    delete local;  // flushes
  }
  return scout;
}

// Chunks of 1024 vertices are whole bitmap words, so `next` needs no atomics.
inline int64_t bottom_up_step(const Graph& g, int32_t* parent, const Bitmap& front, Bitmap& next) {
  int64_t awake = 0;
  next.reset();
#pragma omp parallel for reduction(+ : awake) schedule(dynamic, 1024)
  for (int64_t u = 0; u < g.n; ++u) {
    if (parent[u] >= 0) continue;
    for (int32_t p = g.irp[u]; p < g.irp[u + 1]; ++p) {
      const int32_t v = g.ici[p];
      if (front.get(v)) {
        parent[u] = v;
        ++awake;
        next.set(u);
        break;
      }
    }
  }
  return awake;
}

inline void queue_to_bitmap(const SlidingQueue& queue, Bitmap& bm) {
  const int32_t* q = queue.begin();
  const int64_t f = queue.size();
#pragma omp parallel for
  for (int64_t i = 0; i < f; ++i) bm.set_atomic(q[i]);
}

inline void bitmap_to_queue(const Graph& g, const Bitmap& bm, SlidingQueue& queue) {
#pragma omp parallel
  {
    auto* local = new LocalBuffer(queue);
#pragma omp for nowait
    for (int64_t u = 0; u < g.n; ++u) {
      if (bm.get(u)) local->push(static_cast<int32_t>(u));
    }
    delete local;
  }
  queue.slide();
}

// One search from `source` into parent[n] (source's own id at the root, negative where
// unreached: left as the suite leaves it, -(out-degree) or -1); returns the vertices reached.
// Allocates its queue and bitmaps per call, as the suite's kernel does.
inline int64_t search(const Graph& g, int32_t source, int32_t* parent, int64_t alpha = 15, int64_t beta = 18) {
#pragma omp parallel for
  for (int64_t v = 0; v < g.n; ++v) {
    const int64_t d = g.out_degree(v);
    parent[v] = d != 0 ? static_cast<int32_t>(-d) : -1;
  }
  parent[source] = source;
  SlidingQueue queue(g.n);
  queue.push(source);
  queue.slide();
  Bitmap front(g.n), next(g.n);
  front.reset();
  next.reset();
  int64_t edges_to_check = g.nnz;
  int64_t scout = g.out_degree(source);
  int64_t reached = 1;
  while (!queue.empty()) {
    if (scout > edges_to_check / alpha) {  // integer division, as in the suite
      queue_to_bitmap(queue, front);
      int64_t awake = queue.size(), old;
      queue.slide();
      do {
        old = awake;
        awake = bottom_up_step(g, parent, front, next);
        front.swap(next);
        reached += awake;
      } while (awake >= old || awake > g.n / beta);
      bitmap_to_queue(g, front, queue);
      scout = 1;
    } else {
      edges_to_check -= scout;
      scout = top_down_step(g, parent, queue);
      queue.slide();
      reached += queue.size();
    }
  }
  return reached;
}

}  // namespace gapref
