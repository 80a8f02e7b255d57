// Bit-parallel multi-source BFS (Then et al., "The More the Merrier", VLDB 2014): 64 sources
// per machine word, one traversal of an edge serving every source whose frontier holds it.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "../thread_pool.h"
#include "bfs.h"
#include "populate.h"
#include "search_common.h"

namespace dype {
namespace {

using namespace search;

// Levels (of the first source's search) above which multi-source BFS runs single searches.
constexpr int64_t kMaxSharedLevels = 32;
// Vertices reached in a level below which settling them stays on the calling thread.
constexpr int64_t kParallelSettle = 4096;

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
    settle(std::min<int64_t>(tail.load(), n_), base, level, chunks > 1);
  }

  // Make the vertices reached this level (touched_[0, count), each once) the next frontier: their
  // fresh lanes (next_ without seen_) join seen_ and visit_, their depths are written and they
  // become active_. Split across the pool on large levels: a dense level writes a depth for
  // every (source, vertex) it reaches, up to 64 a vertex in as many rows of the depth array, and
  // done on one thread that held a Kronecker 16 search to 1.37x its one-thread time on two.
  // `claims`: the level was pushed by several threads, which mark first touches in claimed_.
  void settle(int64_t count, int64_t base, int32_t level, bool claims) {
    for (int32_t v : active_) visit_[v] = 0;
    active_.clear();
    const int64_t chunks = count < kParallelSettle ? 1 : std::min<int64_t>(pool_.participants() * 8, count / 1024);
    if (chunks == 1) {
      settle_range(0, count, base, level, claims, active_);
      return;
    }
    std::vector<std::vector<int32_t>> kept(static_cast<size_t>(chunks));
    pool_.parallel_for(chunks, [&](int64_t c) { settle_range(count * c / chunks, count * (c + 1) / chunks, base, level, claims, kept[c]); });
    for (const auto& k : kept) active_.insert(active_.end(), k.begin(), k.end());
  }

  void settle_range(int64_t begin, int64_t end, int64_t base, int32_t level, bool claims, std::vector<int32_t>& out) {
    const int32_t* touched = touched_.data();
    for (int64_t i = begin; i < end; ++i) {
      const int32_t u = touched[i];
      if (claims) claimed_[u] = 0;
      const uint64_t fresh = next_[u] & ~seen_[u];
      next_[u] = 0;
      if (!fresh) continue;
      seen_[u] |= fresh;
      visit_[u] = fresh;
      set_depths(base, u, fresh, level);
      out.push_back(u);
    }
  }

  // Dense frontier: every vertex gathers its in-neighbours' lanes; one writer per vertex.
  void pull(int64_t base, int32_t level) {
    if (touched_.empty()) touched_.resize(static_cast<size_t>(n_));
    std::atomic<int64_t> tail(0);
    const int64_t chunks = std::min<int64_t>(pool_.participants() * 16, std::max<int64_t>(1, n_ / 1024));
    pool_.parallel_for(chunks, [&](int64_t c) {
      int64_t ex = 0;
      thread_local std::vector<int32_t> out;
      out.clear();
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
      if (!flush(out, touched_.data(), tail, n_)) fault_.raise(3, 0, "graph");
      examined_.fetch_add(ex, std::memory_order_relaxed);
    });
    if (fault_.raised()) return;
    settle(std::min<int64_t>(tail.load(), n_), base, level, false);
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

// Depth rows the single searches of a long-diameter batch search in, one per thread at work and
// reused: a search's scattered writes then land in a row its core's cache already holds, and the
// finished row is copied to its place in the output in one sequential pass. Searching straight
// into the 64 output rows (29 MB on luxembourg_osm) missed the cache on every first write of a
// row, and the batch took 1.04x the time of 64 `bfs` calls into one reused array.
class ScratchRows {
 public:
  explicit ScratchRows(int64_t n) : n_(n) {}
  int32_t* take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) {
      owned_.emplace_back(new int32_t[static_cast<size_t>(n_)]);
      return owned_.back().get();
    }
    int32_t* row = free_.back();
    free_.pop_back();
    return row;
  }
  void give_back(int32_t* row) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(row);
  }

 private:
  int64_t n_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<int32_t[]>> owned_;
  std::vector<int32_t*> free_;
};

}  // namespace

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
  // Bit-parallel search pays when the lanes reach a vertex at the same level, so that one pass
  // over its edges serves them all: on small-world graphs (a handful of levels) they do. On a
  // road network or a mesh (hundreds or thousands of levels) sources far apart reach a vertex at
  // different levels, each lane's arrival scans its edges again, and the word operations and
  // per-level bookkeeping cost more than separate searches (0.3-0.9x of 64 single searches).
  // The first source's own search, needed anyway, measures the depth: past kMaxSharedLevels the
  // rest run as single direction-optimising searches too.
  const int64_t n = a.out.rows;
  BfsArgs first;
  first.out = a.out;
  first.in = a.in;
  first.source = a.sources[0];
  first.depth = a.depths;
  BfsStats stats;
  st = bfs(fn, first, &stats);
  if (!st.ok) return st;
  *edges_examined = stats.edges_examined;
  if (a.num_sources == 1) return Status{};
  if (static_cast<int64_t>(stats.frontier.size()) > kMaxSharedLevels) {
    // The searches are independent, and a long-diameter graph's levels are thin enough that each
    // runs on one thread: spread the searches over the pool (a thick level still splits with
    // whichever participant is free). Serial, 64 searches on luxembourg_osm at 2 threads took
    // what 64 bfs calls did, each search using one core of two.
    std::mutex failure;
    Status failed;
    std::atomic<int64_t> edges{0};
    ScratchRows rows(n);
    ThreadPool::instance().parallel_for(a.num_sources - 1, [&](int64_t k) {
      BfsArgs one = first;
      one.source = a.sources[k + 1];
      int32_t* out = a.depths + (k + 1) * n;
      BfsStats own;
      Status r;
      int32_t* row = nullptr;
      try {
        row = rows.take();
        one.depth = row;
        r = bfs(fn, one, &own);
      } catch (const std::bad_alloc&) {
        // The pool's threads must not throw: report it as the call's error.
        r = Status{false, "ERR_LIMIT", std::string(fn) + ": out of memory for a search's working arrays"};
      }
      if (r.ok) {
        std::memcpy(out, row, static_cast<size_t>(n) * sizeof(int32_t));
        rows.give_back(row);
        edges.fetch_add(own.edges_examined, std::memory_order_relaxed);
        return;
      }
      if (row != nullptr) rows.give_back(row);
      std::lock_guard<std::mutex> lock(failure);
      if (failed.ok) failed = std::move(r);
    });
    if (!failed.ok) return failed;
    *edges_examined += edges.load();
    return Status{};
  }
  MsBfsArgs rest = a;
  rest.sources = a.sources + 1;
  rest.num_sources = a.num_sources - 1;
  rest.depths = a.depths + n;
  int64_t edges = 0;
  st = a.out.wide_row_ptr ? MultiSourceBfs<int64_t>(rest).run(fn, &edges) : MultiSourceBfs<int32_t>(rest).run(fn, &edges);
  *edges_examined += edges;
  return st;
}

}  // namespace dype
