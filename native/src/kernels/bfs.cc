// Direction-optimising BFS (Beamer, Asanović and Patterson, SC 2012) with the switching rule
// and thresholds of the GAP benchmark suite, and a bit-parallel multi-source BFS. Every index
// read from the graph is bounds-checked as it is used; a bad one stops the search with a Status.
#include "bfs.h"
#include "populate.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../thread_pool.h"

namespace dype {

namespace {

template <typename P>
struct Graph {
  const P* rp;
  const int32_t* ci;
  int64_t n;
  int64_t nnz;

  // Row bounds of v; false when the row pointers are inconsistent (never trusted blindly).
  inline bool row(int64_t v, int64_t& b, int64_t& e) const {
    b = static_cast<int64_t>(rp[v]);
    e = static_cast<int64_t>(rp[v + 1]);
    return 0 <= b && b <= e && e <= nnz;
  }
};

template <typename P>
Graph<P> graph_of(const Csr& c) {
  return Graph<P>{static_cast<const P*>(c.row_ptr), c.col_idx, c.rows, c.nnz};
}

// First fault seen by any thread; later ones are ignored.
struct Fault {
  std::atomic<int> kind{0};  // 0 none, 1 column out of range, 2 bad row pointers, 3 output modified
  std::atomic<int64_t> where{-1};
  const char* graph = "";

  void raise(int k, int64_t at, const char* which) {
    int expected = 0;
    if (kind.compare_exchange_strong(expected, k)) {
      where.store(at);
      graph = which;
    }
  }
  bool raised() const { return kind.load(std::memory_order_relaxed) != 0; }

  Status status(const char* fn, const Csr& out, const Csr& in) const {
    const int64_t at = where.load();
    const Csr& g = std::strcmp(graph, "in-edges") == 0 ? in : out;
    switch (kind.load()) {
      case 1:
        return Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(at) + "] = " + std::to_string(g.col_idx[at]) +
                               " of the " + graph + " is outside [0, " + std::to_string(g.rows) + ")");
      case 2:
        return Status::invalid(std::string(fn) + ": rowPtr of the " + graph + " is not non-decreasing within [0, nnz] at row " +
                               std::to_string(at));
      case 3:
        return Status::invalid(std::string(fn) + ": output buffer was modified while the search ran");
      default:
        return Status{};
    }
  }
};

inline bool bit_test(const uint64_t* bm, int64_t i) { return (bm[i >> 6] >> (i & 63)) & 1u; }

inline int32_t load_relaxed(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

// Append a thread's local discoveries to the shared queue, refusing to run past its end.
inline bool flush(std::vector<int32_t>& buf, int32_t* queue, std::atomic<int64_t>& tail, int64_t capacity) {
  if (buf.empty()) return true;
  const int64_t at = tail.fetch_add(static_cast<int64_t>(buf.size()), std::memory_order_relaxed);
  if (at + static_cast<int64_t>(buf.size()) > capacity) return false;
  std::memcpy(queue + at, buf.data(), buf.size() * sizeof(int32_t));
  buf.clear();
  return true;
}

template <typename P>
class DirectionOptimizingBfs {
 public:
  DirectionOptimizingBfs(const BfsArgs& a, BfsStats* st)
      : a_(a), g_(graph_of<P>(a.out)), gi_(graph_of<P>(a.in)), n_(a.out.rows), st_(st),
        pool_(ThreadPool::instance()), queue_(new int32_t[static_cast<size_t>(n_)]),
        undirected_(a.in.row_ptr == a.out.row_ptr && a.in.col_idx == a.out.col_idx),
        average_degree_(n_ > 0 ? static_cast<double>(a.out.nnz) / static_cast<double>(n_) : 0.0) {}

  Status run(const char* fn) {
    int64_t q_begin = 0, q_end = 0;
    int64_t scout = 0;
    int64_t edges_to_check = g_.nnz;
    int32_t level = 0;
    if (a_.start_level >= 0) {
      Status st = resume(fn, q_end, scout, edges_to_check);
      if (!st.ok) return st;
      level = a_.start_level;
      st_->frontier.assign(1, q_end);
    } else {
      init_outputs();
      const int32_t src = static_cast<int32_t>(a_.source);
      a_.depth[src] = 0;
      if (a_.parent) a_.parent[src] = src;
      queue_[0] = src;
      q_end = 1;
      st_->frontier.assign(1, 1);
      int64_t b, e;
      if (!g_.row(src, b, e)) return (fault_.raise(2, src, "graph"), fault_.status(fn, a_.out, a_.in));
      scout = e - b;
    }
    bool bottom_up_unprofitable = false;
    // Steps (levels produced) left before a `max_levels` stop.
    int64_t steps_left = a_.max_levels > 0 ? a_.max_levels : INT64_MAX;

    while (q_end > q_begin && !fault_.raised() && steps_left > 0) {
      // Beamer's rule, with a floor: a bottom-up step costs a pass over the bitmap and a wake of
      // the pool whatever the frontier, so a frontier of a few edges stays top-down even when
      // little is left to explore (the end of a long tail, which a resumed search, counting
      // exactly what is left, would otherwise walk bottom-up one vertex a level).
      const bool bottom_up = a_.direction == BfsDirection::kBottomUp ||
                             (a_.direction == BfsDirection::kAuto && !bottom_up_unprofitable && scout >= kMinBottomUpScout &&
                              static_cast<double>(scout) > edges_to_check / a_.alpha);
      if (bottom_up) {
        ensure_bitmaps();
        queue_to_bitmap(q_begin, q_end);
        int64_t awake = q_end - q_begin, previous;
        bool stop = false;
        do {
          previous = awake;
          const int64_t examined_before = examined_.load();
          awake = bottom_up_step(level++);
          --steps_left;
          std::swap(front_, next_);
          record(awake, true);
          // Beamer's alpha assumes most unvisited vertices find a parent after a few edges, as in
          // social graphs. In meshes and road networks they scan every edge and find none, and a
          // bottom-up step costs many top-down steps. If this step read more than kBottomUpWaste
          // times what top-down would have (the frontier's edges, at the average degree), go
          // back and stay top-down for the rest of this search.
          const double top_down_cost = static_cast<double>(previous) * average_degree_;
          if (a_.direction == BfsDirection::kAuto &&
              static_cast<double>(examined_.load() - examined_before) > kBottomUpWaste * top_down_cost) {
            bottom_up_unprofitable = true;
            stop = true;
          }
        } while (awake > 0 && !fault_.raised() && !stop && steps_left > 0 &&
                 (a_.direction == BfsDirection::kBottomUp || awake >= previous ||
                  static_cast<double>(awake) > static_cast<double>(n_) / a_.beta));
        if (awake == 0 || fault_.raised()) break;
        q_begin = 0;
        q_end = bitmap_to_queue();
        scout = 1;
      } else {
        edges_to_check -= scout;
        const int64_t tail = q_end;
        scout = top_down_step(level++, q_begin, q_end, scout);
        --steps_left;
        q_begin = tail;
        q_end = tail_.load();
        record(q_end - q_begin, false);
      }
    }
    // The last recorded level is empty (the search ran dry); drop it from the profile.
    while (st_->frontier.size() > 1 && st_->frontier.back() == 0) {
      st_->frontier.pop_back();
      st_->bottom_up.pop_back();
    }
    st_->edges_examined = examined_.load();
    finish_outputs();
    return fault_.status(fn, a_.out, a_.in);
  }

 private:
  // Take up a search in progress from `depth`: check every value, mark the vertices not yet
  // found as init_outputs() does, queue the frontier (depth == start_level), and rebuild what
  // the switching rule keeps: the frontier's out-edges (scout) and the edges not yet explored
  // (every edge but those of vertices found before the frontier).
  Status resume(const char* fn, int64_t& q_end, int64_t& scout, int64_t& edges_to_check) {
    const int32_t level = a_.start_level;
    if (level >= n_) {
      return Status::invalid(std::string(fn) + ": start level " + std::to_string(level) + " is outside [0, " + std::to_string(n_) + ")");
    }
    std::atomic<int64_t> bad(-1), frontier_edges(0), explored(0);
    tail_.store(0);
    const int64_t chunks = chunks_for(n_, 1 << 16);
    pool_.parallel_for(chunks, [&](int64_t c) {
      thread_local std::vector<int32_t> buf;
      buf.clear();
      const int64_t v0 = n_ * c / chunks, v1 = n_ * (c + 1) / chunks;
      int32_t* depth = a_.depth;
      const P* rp = g_.rp;
      int64_t fe = 0, ex = 0;
      for (int64_t v = v0; v < v1; ++v) {
        const int32_t d = depth[v];
        const int64_t degree = static_cast<int64_t>(rp[v + 1]) - static_cast<int64_t>(rp[v]);
        if (d == -1) {
          depth[v] = unvisited_mark(degree);
        } else if (d < -1 || d > level) {
          int64_t none = -1;
          bad.compare_exchange_strong(none, v);
          return;
        } else if (d == level) {
          fe += std::max<int64_t>(0, degree);
          buf.push_back(static_cast<int32_t>(v));
          if (buf.size() >= 4096 && !flush(buf, queue_.get(), tail_, n_)) return fault_.raise(3, 0, "graph");
        } else {
          ex += std::max<int64_t>(0, degree);
        }
      }
      if (!flush(buf, queue_.get(), tail_, n_)) fault_.raise(3, 0, "graph");
      frontier_edges.fetch_add(fe, std::memory_order_relaxed);
      explored.fetch_add(ex, std::memory_order_relaxed);
    });
    const int64_t at = bad.load();
    if (at >= 0) {
      const int32_t value = a_.depth[at];  // left as it was: only -1 entries were rewritten
      finish_outputs();
      return Status::invalid(std::string(fn) + ": depth[" + std::to_string(at) + "] = " + std::to_string(value) +
                             " is outside [-1, " + std::to_string(level) + "] (resuming at level " + std::to_string(level) + ")");
    }
    if (fault_.raised()) return fault_.status(fn, a_.out, a_.in);
    q_end = tail_.load();
    scout = frontier_edges.load();
    edges_to_check = std::max<int64_t>(0, g_.nnz - explored.load());
    return Status{};
  }

  void record(int64_t discovered, bool bottom_up) {
    st_->frontier.push_back(discovered);
    st_->bottom_up.push_back(bottom_up ? 1 : 0);
  }

  int64_t chunks_for(int64_t work, int64_t grain) const {
    if (work < grain) return 1;
    return std::min<int64_t>(pool_.participants() * 16, work / grain);
  }

  // Unvisited vertices hold -(out-degree + 1) in `depth` while the search runs (GAP keeps the
  // same trick in its parent array): a top-down step then learns a discovered vertex's degree,
  // which Beamer's switching rule needs, from the word it already loaded instead of a second
  // random read of the row pointers. finish_outputs() turns every leftover negative into -1.
  void init_outputs() {
    const int64_t chunks = chunks_for(n_, 1 << 16);
    pool_.parallel_for(chunks, [&](int64_t c) {
      const int64_t v0 = n_ * c / chunks, v1 = n_ * (c + 1) / chunks;
      int32_t* depth = a_.depth;
      const P* rp = g_.rp;
      for (int64_t v = v0; v < v1; ++v) depth[v] = unvisited_mark(static_cast<int64_t>(rp[v + 1]) - static_cast<int64_t>(rp[v]));
      if (a_.parent) std::fill(a_.parent + v0, a_.parent + v1, -1);
    });
  }

  static int32_t unvisited_mark(int64_t degree) {
    // Degrees that do not fit (or garbage from bad row pointers) saturate: only the switching
    // heuristic reads them, and the row pointers are checked again where edges are read.
    if (degree < 0) return -1;
    return degree >= INT32_MAX ? INT32_MIN : static_cast<int32_t>(-degree - 1);
  }

  void finish_outputs() {
    const int64_t chunks = chunks_for(n_, 1 << 16);
    pool_.parallel_for(chunks, [&](int64_t c) {
      int32_t* depth = a_.depth;
      for (int64_t v = n_ * c / chunks, end = n_ * (c + 1) / chunks; v < end; ++v) {
        if (depth[v] < 0) depth[v] = -1;
      }
    });
  }

  void ensure_bitmaps() {
    if (!front_.empty()) return;
    words_ = (n_ + 63) / 64;
    front_.assign(static_cast<size_t>(words_), 0);
    next_.assign(static_cast<size_t>(words_), 0);
  }

  // Expand the frontier queue[q_begin, q_end); returns the out-degree sum of the discovered
  // vertices (the next step's "scout count"). Power-law frontiers are a handful of hubs with
  // most of the edges, so vertices above kHeavy edges are set aside in the first pass and their
  // edge lists are split evenly across threads in a second one.
  int64_t top_down_step(int32_t level, int64_t q_begin, int64_t q_end, int64_t frontier_edges) {
    constexpr int64_t kHeavy = 4096;
    const int64_t f = q_end - q_begin;
    tail_.store(q_end);
    std::atomic<int64_t> scout(0);
    std::atomic<int64_t> heavy_count(0);
    if (heavy_.size() < static_cast<size_t>(f)) heavy_.resize(static_cast<size_t>(f));
    const int32_t next_depth = level + 1;

    // Visit edges [b, e) of u; false on a fault.
    auto expand = [&](int32_t u, int64_t b, int64_t e, std::vector<int32_t>& buf, int64_t& sc) -> bool {
      const int32_t* ci = g_.ci;
      int32_t* depth = a_.depth;
      for (int64_t p = b; p < e; ++p) {
        const int32_t v = ci[p];
        if (static_cast<uint64_t>(static_cast<uint32_t>(v)) >= static_cast<uint64_t>(n_)) return fault_.raise(1, p, "graph"), false;
        int32_t seen = load_relaxed(depth + v);
        if (seen >= 0) continue;
        if (__atomic_compare_exchange_n(depth + v, &seen, next_depth, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
          if (a_.parent) a_.parent[v] = u;
          sc += -static_cast<int64_t>(seen) - 1;
          buf.push_back(v);
          if (buf.size() >= 4096 && !flush(buf, queue_.get(), tail_, n_)) return fault_.raise(3, 0, "graph"), false;
        }
      }
      return true;
    };

    // Below ~32k edges a level takes tens of microseconds: less than waking the pool and paying
    // for compare-and-swap on every edge (meshes and road graphs run hundreds of such levels).
    const int64_t chunks = frontier_edges < (1 << 15) ? 1 : std::min<int64_t>(chunks_for(frontier_edges, 4096), std::max<int64_t>(1, f / 4));
    if (chunks == 1) return top_down_serial(next_depth, q_begin, q_end);
    pool_.parallel_for(chunks, [&](int64_t c) {
      thread_local std::vector<int32_t> buf;
      buf.clear();
      int64_t sc = 0, ex = 0;
      const int64_t i0 = q_begin + f * c / chunks, i1 = q_begin + f * (c + 1) / chunks;
      for (int64_t i = i0; i < i1; ++i) {
        const int32_t u = queue_[i];
        int64_t b, e;
        if (!g_.row(u, b, e)) return fault_.raise(2, u, "graph");
        if (e - b > kHeavy && chunks > 1) {
          heavy_[heavy_count.fetch_add(1, std::memory_order_relaxed)] = u;
          continue;
        }
        ex += e - b;
        if (!expand(u, b, e, buf, sc)) return;
      }
      if (!flush(buf, queue_.get(), tail_, n_)) fault_.raise(3, 0, "graph");
      scout.fetch_add(sc, std::memory_order_relaxed);
      examined_.fetch_add(ex, std::memory_order_relaxed);
    });

    const int64_t h = heavy_count.load();
    if (h > 0 && !fault_.raised()) {
      std::vector<int64_t> prefix(static_cast<size_t>(h) + 1, 0);
      for (int64_t i = 0; i < h; ++i) {
        int64_t b, e;
        g_.row(heavy_[i], b, e);  // already checked in the first pass
        prefix[i + 1] = prefix[i] + (e - b);
      }
      const int64_t total = prefix[h];
      const int64_t pieces = std::max<int64_t>(1, std::min<int64_t>(pool_.participants() * 8, total / 2048));
      pool_.parallel_for(pieces, [&](int64_t c) {
        thread_local std::vector<int32_t> buf;
        buf.clear();
        int64_t sc = 0;
        const int64_t e0 = total * c / pieces, e1 = total * (c + 1) / pieces;
        // First heavy vertex whose edges reach past e0.
        int64_t i = std::upper_bound(prefix.begin(), prefix.end(), e0) - prefix.begin() - 1;
        for (int64_t pos = e0; pos < e1 && i < h; ++i) {
          const int32_t u = heavy_[i];
          int64_t b, e;
          g_.row(u, b, e);
          const int64_t from = b + (pos - prefix[i]);
          const int64_t to = b + (std::min(e1, prefix[i + 1]) - prefix[i]);
          if (!expand(u, from, to, buf, sc)) return;
          pos = prefix[i + 1];
        }
        if (!flush(buf, queue_.get(), tail_, n_)) fault_.raise(3, 0, "graph");
        scout.fetch_add(sc, std::memory_order_relaxed);
      });
      examined_.fetch_add(total, std::memory_order_relaxed);
    }
    return scout.load();
  }

  // The same step on one thread for small frontiers (every level of a road network): plain
  // stores instead of compare-and-swap, discoveries written straight to the queue. Long-diameter
  // graphs run thousands of these, so they must cost no more than a textbook serial BFS level.
  // Kept out of line so its hot loop gets registers of its own (inlined into run() it spilled).
  __attribute__((noinline)) int64_t top_down_serial(int32_t next_depth, int64_t q_begin, int64_t q_end) {
    const int32_t* ci = g_.ci;
    int32_t* depth = a_.depth;
    int32_t* parent = a_.parent;
    int32_t* queue = queue_.get();
    const uint64_t n = static_cast<uint64_t>(n_);
    int64_t tail = q_end;
    int64_t sc = 0, ex = 0;
    for (int64_t i = q_begin; i < q_end; ++i) {
      const int32_t u = queue[i];
      int64_t b, e;
      if (!g_.row(u, b, e)) return fault_.raise(2, u, "graph"), 0;
      ex += e - b;
      for (int64_t p = b; p < e; ++p) {
        const int32_t v = ci[p];
        if (static_cast<uint64_t>(static_cast<uint32_t>(v)) >= n) return fault_.raise(1, p, "graph"), 0;
        const int32_t seen = depth[v];
        if (seen >= 0) continue;
        depth[v] = next_depth;
        if (parent) parent[v] = u;
        sc += -static_cast<int64_t>(seen) - 1;
        // Cannot overflow unless the depth array changed under us; refuse rather than write past it.
        if (tail >= n_) return fault_.raise(3, 0, "graph"), 0;
        queue[tail++] = v;
      }
    }
    tail_.store(tail);
    examined_.fetch_add(ex, std::memory_order_relaxed);
    return sc;
  }

  // Every unvisited vertex looks for a parent among its in-neighbours in the frontier bitmap.
  // Chunks are whole 64-vertex words, so each word of `next_` has one writer.
  int64_t bottom_up_step(int32_t level) {
    // Rows of visited vertices are skipped, which defeats the hardware prefetcher: fetch the
    // start of the in-edge list kPrefetch vertices ahead by hand (the loop is latency-bound).
    constexpr int64_t kPrefetch = 24;
    const int32_t next_depth = level + 1;
    std::atomic<int64_t> awake(0);
    const int64_t chunks = chunks_for(words_, 64);
    pool_.parallel_for(chunks, [&](int64_t c) {
      const int64_t w0 = words_ * c / chunks, w1 = words_ * (c + 1) / chunks;
      int32_t* depth = a_.depth;
      int32_t* parent = a_.parent;
      const uint64_t* front = front_.data();
      uint64_t* next = next_.data();
      const int32_t* ci = gi_.ci;
      const uint64_t n = static_cast<uint64_t>(n_);
      const int64_t v_stop = std::min<int64_t>(n_, w1 * 64);
      // Visited vertices are >= 0. In an undirected graph an unvisited vertex's mark -(degree + 1)
      // is -1 exactly when it has no edges at all, so it can be skipped without touching its row
      // (Kronecker graphs are a third isolated vertices). Directed marks count out-edges, not the
      // in-edges scanned here, so there only visited vertices are skipped.
      const int32_t skip_from = undirected_ ? -1 : 0;
      int64_t found = 0, ex = 0;
      for (int64_t w = w0; w < w1; ++w) {
        uint64_t bits = 0;
        const int64_t v_end = std::min<int64_t>(n_, (w + 1) * 64);
        for (int64_t v = w * 64; v < v_end; ++v) {
          if (v + kPrefetch < v_stop && depth[v + kPrefetch] < skip_from) {
            const int64_t ahead = static_cast<int64_t>(gi_.rp[v + kPrefetch]);
            if (ahead >= 0 && ahead < gi_.nnz) __builtin_prefetch(ci + ahead);
          }
          if (depth[v] >= skip_from) continue;
          int64_t b, e;
          if (!gi_.row(v, b, e)) return fault_.raise(2, v, "in-edges");
          for (int64_t p = b; p < e; ++p) {
            const int32_t u = ci[p];
            if (static_cast<uint64_t>(static_cast<uint32_t>(u)) >= n) return fault_.raise(1, p, "in-edges");
            if (bit_test(front, u)) {
              ex += p - b + 1;
              depth[v] = next_depth;
              if (parent) parent[v] = u;
              bits |= uint64_t(1) << (v & 63);
              ++found;
              goto next_vertex;
            }
          }
          ex += e - b;
        next_vertex:;
        }
        next[w] = bits;
      }
      awake.fetch_add(found, std::memory_order_relaxed);
      examined_.fetch_add(ex, std::memory_order_relaxed);
    });
    return awake.load();
  }

  void queue_to_bitmap(int64_t q_begin, int64_t q_end) {
    std::fill(front_.begin(), front_.end(), 0);
    const int64_t f = q_end - q_begin;
    const int64_t chunks = chunks_for(f, 1 << 14);
    pool_.parallel_for(chunks, [&](int64_t c) {
      for (int64_t i = q_begin + f * c / chunks, end = q_begin + f * (c + 1) / chunks; i < end; ++i) {
        const int32_t v = queue_[i];
        __atomic_fetch_or(&front_[v >> 6], uint64_t(1) << (v & 63), __ATOMIC_RELAXED);
      }
    });
  }

  int64_t bitmap_to_queue() {
    tail_.store(0);
    const int64_t chunks = chunks_for(words_, 1024);
    pool_.parallel_for(chunks, [&](int64_t c) {
      thread_local std::vector<int32_t> buf;
      buf.clear();
      for (int64_t w = words_ * c / chunks, end = words_ * (c + 1) / chunks; w < end; ++w) {
        uint64_t bits = front_[w];
        while (bits) {
          buf.push_back(static_cast<int32_t>(w * 64 + __builtin_ctzll(bits)));
          bits &= bits - 1;
        }
      }
      if (!flush(buf, queue_.get(), tail_, n_)) fault_.raise(3, 0, "graph");
    });
    return std::min<int64_t>(tail_.load(), n_);
  }

  const BfsArgs& a_;
  Graph<P> g_, gi_;
  int64_t n_;
  BfsStats* st_;
  ThreadPool& pool_;
  // Uninitialised on purpose: zero-filling n entries per search costs more than a small BFS.
  std::unique_ptr<int32_t[]> queue_;
  bool undirected_;
  double average_degree_;
  static constexpr double kBottomUpWaste = 4.0;
  // Frontier edges below which a step stays top-down (see run()).
  static constexpr int64_t kMinBottomUpScout = 1024;
  std::vector<int32_t> heavy_;
  std::atomic<int64_t> tail_{0};
  std::atomic<int64_t> examined_{0};
  std::vector<uint64_t> front_, next_;
  int64_t words_ = 0;
  Fault fault_;
};

template <typename P>
class MultiSourceBfs {
 public:
  MultiSourceBfs(const MsBfsArgs& a)
      : a_(a), g_(graph_of<P>(a.out)), gi_(graph_of<P>(a.in)), n_(a.out.rows), pool_(ThreadPool::instance()),
        seen_(static_cast<size_t>(n_)), visit_(static_cast<size_t>(n_)), next_(static_cast<size_t>(n_)),
        claimed_(static_cast<size_t>(n_)) {}

  Status run(const char* fn, int64_t* edges_examined) {
    const int64_t total = a_.num_sources * n_;
    const int64_t fill_chunks = total < (1 << 18) ? 1 : pool_.participants() * 8;
    pool_.parallel_for(fill_chunks, [&](int64_t c) {
      std::fill(a_.depths + total * c / fill_chunks, a_.depths + total * (c + 1) / fill_chunks, -1);
    });
    for (int64_t base = 0; base < a_.num_sources && !fault_.raised(); base += 64) {
      run_batch(base, std::min<int64_t>(64, a_.num_sources - base));
    }
    *edges_examined = examined_.load();
    return fault_.status(fn, a_.out, a_.in);
  }

 private:
  void set_depths(int64_t base, int32_t v, uint64_t bits, int32_t d) {
    while (bits) {
      const int lane = __builtin_ctzll(bits);
      a_.depths[(base + lane) * n_ + v] = d;
      bits &= bits - 1;
    }
  }

  void run_batch(int64_t base, int64_t lanes) {
    std::fill(seen_.begin(), seen_.end(), 0);
    std::fill(visit_.begin(), visit_.end(), 0);
    std::fill(next_.begin(), next_.end(), 0);
    active_.clear();
    for (int64_t l = 0; l < lanes; ++l) {
      const int32_t s = a_.sources[base + l];
      // Re-checked here: the sources array lives in JS memory and may have changed since validation.
      if (s < 0 || s >= n_) return fault_.raise(3, 0, "graph");
      const uint64_t bit = uint64_t(1) << l;
      if (visit_[s] == 0) active_.push_back(s);
      visit_[s] |= bit;
      seen_[s] |= bit;
      a_.depths[(base + l) * n_ + s] = 0;
    }
    int32_t level = 0;
    while (!active_.empty() && !fault_.raised()) {
      int64_t frontier_edges = 0;
      for (int32_t v : active_) {
        int64_t b, e;
        if (!g_.row(v, b, e)) return fault_.raise(2, v, "graph");
        frontier_edges += e - b;
      }
      ++level;
      // A pull step reads every in-edge (it cannot stop early: all 64 lanes need the OR), so
      // unlike single-source BFS it only pays once the frontier holds a large share of edges.
      if (static_cast<double>(frontier_edges) > static_cast<double>(g_.nnz) / 3.0) {
        pull(base, level);
      } else {
        push(base, level, frontier_edges);
      }
    }
  }

  // OR active vertex v's lanes into its out-neighbours that have not seen them, calling
  // first_touch(u) once per neighbour touched this level; false on a fault. kShared: other threads
  // push at the same time, so updates are atomic and claimed_ marks first touches; alone, plain
  // read-modify-writes do and next_[u] == 0 marks them.
  template <bool kShared, typename FirstTouch>
  bool push_vertex(int32_t v, int64_t& ex, FirstTouch&& first_touch) {
    const uint64_t lanes = visit_[v];
    int64_t b, e;
    if (!g_.row(v, b, e)) return fault_.raise(2, v, "graph"), false;
    ex += e - b;
    for (int64_t p = b; p < e; ++p) {
      const int32_t u = g_.ci[p];
      if (static_cast<uint64_t>(static_cast<uint32_t>(u)) >= static_cast<uint64_t>(n_)) return fault_.raise(1, p, "graph"), false;
      if constexpr (kShared) {
        const uint64_t fresh = lanes & ~__atomic_load_n(&seen_[u], __ATOMIC_RELAXED);
        if (!fresh) continue;
        __atomic_fetch_or(&next_[u], fresh, __ATOMIC_RELAXED);
        if (!__atomic_exchange_n(&claimed_[u], uint8_t(1), __ATOMIC_RELAXED)) first_touch(u);
      } else {
        const uint64_t fresh = lanes & ~seen_[u];
        if (!fresh) continue;
        if (next_[u] == 0) first_touch(u);
        next_[u] |= fresh;
      }
    }
    return true;
  }

  // Sparse frontier: each active vertex ORs its lanes into its out-neighbours.
  void push(int64_t base, int32_t level, int64_t frontier_edges) {
    // Allocated once per search, not per level: road networks run thousands of levels.
    if (touched_.empty()) touched_.resize(static_cast<size_t>(n_));
    int32_t* touched = touched_.data();
    std::atomic<int64_t> tail(0);
    const int64_t f = static_cast<int64_t>(active_.size());
    // Split only when there is enough work to pay for waking the pool and for atomics.
    const int64_t chunks = frontier_edges < (1 << 15) ? 1 : std::min<int64_t>(pool_.participants() * 16, std::max<int64_t>(1, f / 64));
    if (chunks == 1) {
      int64_t t = 0, ex = 0;
      for (int32_t v : active_) {
        if (!push_vertex<false>(v, ex, [&](int32_t u) { touched[t++] = u; })) return;
      }
      tail.store(t);
      examined_.fetch_add(ex, std::memory_order_relaxed);
    } else {
      pool_.parallel_for(chunks, [&](int64_t c) {
        thread_local std::vector<int32_t> buf;
        buf.clear();
        int64_t ex = 0;
        for (int64_t i = f * c / chunks, end = f * (c + 1) / chunks; i < end; ++i) {
          if (!push_vertex<true>(active_[i], ex, [&](int32_t u) { buf.push_back(u); })) return;
        }
        if (!flush(buf, touched, tail, n_)) fault_.raise(3, 0, "graph");
        examined_.fetch_add(ex, std::memory_order_relaxed);
      });
    }
    if (fault_.raised()) return;
    for (int32_t v : active_) visit_[v] = 0;
    active_.clear();
    const int64_t t = std::min<int64_t>(tail.load(), n_);
    for (int64_t i = 0; i < t; ++i) {
      const int32_t u = touched[i];
      claimed_[u] = 0;
      const uint64_t fresh = next_[u] & ~seen_[u];
      next_[u] = 0;
      if (!fresh) continue;
      seen_[u] |= fresh;
      visit_[u] = fresh;
      set_depths(base, u, fresh, level);
      active_.push_back(u);
    }
  }

  // Dense frontier: every vertex gathers its in-neighbours' lanes; one writer per vertex.
  void pull(int64_t base, int32_t level) {
    const int64_t chunks = std::min<int64_t>(pool_.participants() * 16, std::max<int64_t>(1, n_ / 1024));
    std::vector<std::vector<int32_t>> found(static_cast<size_t>(chunks));
    pool_.parallel_for(chunks, [&](int64_t c) {
      int64_t ex = 0;
      auto& out = found[c];
      for (int64_t u = n_ * c / chunks, end = n_ * (c + 1) / chunks; u < end; ++u) {
        if (~seen_[u] == 0) continue;
        int64_t b, e;
        if (!gi_.row(u, b, e)) return fault_.raise(2, u, "in-edges");
        uint64_t acc = 0;
        for (int64_t p = b; p < e; ++p) {
          const int32_t v = gi_.ci[p];
          if (static_cast<uint64_t>(static_cast<uint32_t>(v)) >= static_cast<uint64_t>(n_)) return fault_.raise(1, p, "in-edges");
          acc |= visit_[v];
        }
        ex += e - b;
        const uint64_t fresh = acc & ~seen_[u];
        if (fresh) {
          next_[u] = fresh;
          out.push_back(static_cast<int32_t>(u));
        }
      }
      examined_.fetch_add(ex, std::memory_order_relaxed);
    });
    if (fault_.raised()) return;
    for (int32_t v : active_) visit_[v] = 0;
    active_.clear();
    for (auto& list : found) {
      for (int32_t u : list) {
        const uint64_t fresh = next_[u];
        next_[u] = 0;
        seen_[u] |= fresh;
        visit_[u] = fresh;
        set_depths(base, u, fresh, level);
        active_.push_back(u);
      }
    }
  }

  const MsBfsArgs& a_;
  Graph<P> g_, gi_;
  int64_t n_;
  ThreadPool& pool_;
  std::vector<uint64_t> seen_, visit_, next_;
  std::vector<uint8_t> claimed_;
  std::vector<int32_t> active_;
  std::vector<int32_t> touched_;
  std::atomic<int64_t> examined_{0};
  Fault fault_;
};

Status check_graph(const char* fn, const Csr& out, const Csr& in) {
  if (out.rows != out.cols) {
    return Status::invalid(std::string(fn) + ": the graph must be square, got " + std::to_string(out.rows) + "x" +
                           std::to_string(out.cols));
  }
  if (in.rows != out.rows || in.cols != out.cols || in.nnz != out.nnz) {
    return Status::invalid(std::string(fn) + ": in-edges must have the graph's shape and edge count");
  }
  if (in.wide_row_ptr != out.wide_row_ptr) {
    return Status::invalid(std::string(fn) + ": in-edges and graph must use the same row-pointer width");
  }
  if (out.ptr(0) != 0 || out.ptr(out.rows) != out.nnz || in.ptr(0) != 0 || in.ptr(in.rows) != in.nnz) {
    return Status::invalid(std::string(fn) + ": rowPtr must start at 0 and end at nnz");
  }
  return Status{};
}

}  // namespace

Status bfs(const char* fn, const BfsArgs& a, BfsStats* stats) {
  Status st = check_graph(fn, a.out, a.in);
  if (!st.ok) return st;
  if (a.source < 0 || a.source >= a.out.rows) {
    return Status::invalid(std::string(fn) + ": source " + std::to_string(a.source) + " is outside [0, " +
                           std::to_string(a.out.rows) + ")");
  }
  if (!(a.alpha > 0) || !(a.beta > 0)) return Status::invalid(std::string(fn) + ": alpha and beta must be positive");
  if (a.start_level >= 0 && a.parent != nullptr) return Status::invalid(std::string(fn) + ": a resumed search cannot build a parent tree");
  if (a.max_levels < 0) return Status::invalid(std::string(fn) + ": maxLevels " + std::to_string(a.max_levels) + " is negative");
  populate_for_write(a.depth, static_cast<size_t>(a.out.rows) * sizeof(int32_t));
  if (a.parent != nullptr) populate_for_write(a.parent, static_cast<size_t>(a.out.rows) * sizeof(int32_t));
  if (a.out.wide_row_ptr) return DirectionOptimizingBfs<int64_t>(a, stats).run(fn);
  return DirectionOptimizingBfs<int32_t>(a, stats).run(fn);
}

Status msbfs(const char* fn, const MsBfsArgs& a, int64_t* edges_examined) {
  Status st = check_graph(fn, a.out, a.in);
  if (!st.ok) return st;
  for (int64_t i = 0; i < a.num_sources; ++i) {
    if (a.sources[i] < 0 || a.sources[i] >= a.out.rows) {
      return Status::invalid(std::string(fn) + ": sources[" + std::to_string(i) + "] = " + std::to_string(a.sources[i]) +
                             " is outside [0, " + std::to_string(a.out.rows) + ")");
    }
  }
  *edges_examined = 0;
  if (a.out.rows == 0 || a.num_sources == 0) return Status{};
  populate_for_write(a.depths, static_cast<size_t>(a.num_sources * a.out.rows) * sizeof(int32_t));
  if (a.out.wide_row_ptr) return MultiSourceBfs<int64_t>(a).run(fn, edges_examined);
  return MultiSourceBfs<int32_t>(a).run(fn, edges_examined);
}

}  // namespace dype
