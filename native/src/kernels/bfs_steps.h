// The steps of the direction-optimising search, each expanding one level: top-down from the
// frontier queue (in parallel with hub edge lists split across threads, or serially for thin
// frontiers) and bottom-up over the unvisited vertices against a frontier bitmap, with the
// conversions between the two frontier forms. Included by bfs.cc only.
#pragma once

#include <chrono>

#include "bfs_scan.h"
#include "bfs_search.h"

namespace dype {
namespace search {

template <typename P>
int64_t DirectionOptimizingBfs<P>::top_down_step(int32_t level, int64_t q_begin, int64_t q_end, int64_t frontier_edges) {
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
      const uint64_t v = static_cast<uint32_t>(ci[p]);  // unsigned: see top_down_serial
      if (v >= static_cast<uint64_t>(n_)) return fault_.raise(1, p, "graph"), false;
      int32_t seen = load_relaxed(depth + v);
      if (seen >= 0) continue;
      if (__atomic_compare_exchange_n(depth + v, &seen, next_depth, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        if (a_.parent) a_.parent[v] = u;
        sc += -static_cast<int64_t>(seen) - 1;
        buf.push_back(static_cast<int32_t>(v));
        if (buf.size() >= 4096 && !flush(buf, queue_.get(), tail_, n_)) return fault_.raise(3, 0, "graph"), false;
      }
    }
    return true;
  };

  // Thin levels run on the calling thread alone: below kParallelTopDownEdges a level takes a
  // few microseconds, less than handing chunks to the pool and paying for compare-and-swap on
  // every edge, and for the depth array's lines moving between the cores' caches. Above it
  // even a mesh's or a road network's levels are split (about 1024 edges a chunk): with the
  // pool's workers spinning between jobs a hand-off costs a few microseconds.
  // Up to kParallelTopDownEdges per participant a level is cut into one contiguous piece per
  // participant: more, smaller pieces balanced no better at that size and each piece pays a
  // flush, and neighbouring pieces on different cores share the depth array's lines (two
  // threads, `await bfs()` back to back over eight sources, builds in alternate processes, three
  // pairs: bcsstk25 1.07-1.18x; delaunay_n16, mdual, Kronecker 16 and email-Enron within their
  // spread).
  const int64_t participants = pool_.participants();
  const int64_t chunks = frontier_edges < kParallelTopDownEdges || participants == 1 ? 1
                         : frontier_edges < participants * kParallelTopDownEdges
                             ? std::min<int64_t>(participants, std::max<int64_t>(1, f / 4))
                             : std::min<int64_t>(participants * 16, std::max<int64_t>(1, std::min(frontier_edges / 1024, f / 4)));
  if (chunks == 1) return top_down_serial(next_depth, q_begin, q_end);
  // A level that could go either way runs the way this search measured faster (bfs_split_choice.h).
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  if (!split_choice_.split(frontier_edges)) {
    const int64_t found = top_down_serial(next_depth, q_begin, q_end);
    split_choice_.record(frontier_edges, false, seconds());
    return found;
  }
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
  split_choice_.record(frontier_edges, true, seconds());
  return scout.load();
}

template <typename P>
int64_t DirectionOptimizingBfs<P>::top_down_serial(int32_t next_depth, int64_t q_begin, int64_t q_end) {
  return a_.parent != nullptr ? top_down_serial_loop<true>(next_depth, q_begin, q_end) : top_down_serial_loop<false>(next_depth, q_begin, q_end);
}

// A loop per parent choice, the row bounds read once into 64-bit values and each fault a return:
// the branch on `parent` inside one loop and the checked row view kept more values alive than
// the registers hold, and the spills (to vector registers, round trips on every vertex) made
// the level 12-15% slower than this form. A/B in one plain C++ process on the Zen 5 VM, median
// of 200 searches, the textbook serial queue BFS in the same rounds (its time / ours): bcsstk25
// 0.76-0.77 -> 0.86-0.87, luxembourg_osm 0.74-0.75 -> 0.86-0.87, delaunay_n16 0.84-0.85 -> 0.96.
// What is left to the textbook loop is the checks, each 3-9% and kept: a bad index, row pointer
// or an overrun queue stops the search with a Status.
template <typename P>
template <bool kParent>
int64_t DirectionOptimizingBfs<P>::top_down_serial_loop(int32_t next_depth, int64_t q_begin, int64_t q_end) {
  const int32_t* ci = g_.ci;
  const P* rp = g_.rp;
  int32_t* depth = a_.depth;
  int32_t* parent = a_.parent;
  int32_t* queue = queue_.get();
  const uint64_t n = static_cast<uint64_t>(n_);
  const int64_t nnz = g_.nnz;
  int64_t tail = q_end;
  int64_t sc = 0, ex = 0;
  for (int64_t i = q_begin; i < q_end; ++i) {
    const int32_t u = queue[i];
    const int64_t b = static_cast<int64_t>(rp[u]), e = static_cast<int64_t>(rp[u + 1]);
    if (!(0 <= b && b <= e && e <= nnz)) return fault_.raise(2, u, "graph"), 0;
    ex += e - b;
    for (int64_t p = b; p < e; ++p) {
      // The index read as unsigned, so the bounds check and the address use one zero-extended
      // load instead of a load, a sign extension and a check (docs/speed-zen3.md).
      const uint64_t v = static_cast<uint32_t>(ci[p]);
      if (v >= n) return fault_.raise(1, p, "graph"), 0;
      const int32_t seen = depth[v];
      if (seen >= 0) continue;
      depth[v] = next_depth;
      if constexpr (kParent) parent[v] = u;
      sc += -static_cast<int64_t>(seen) - 1;
      // Cannot overflow unless the depth array changed under us; refuse rather than write past it.
      if (tail >= n_) return fault_.raise(3, 0, "graph"), 0;
      queue[tail++] = static_cast<int32_t>(v);
    }
  }
  tail_.store(tail);
  examined_.fetch_add(ex, std::memory_order_relaxed);
  return sc;
}

template <typename P>
int64_t DirectionOptimizingBfs<P>::bottom_up_step(int32_t level, int64_t* next_edges) {
  std::atomic<int64_t> awake(0), edges(0);
  // Chunks of whole words holding about kBottomUpChunkEdges in-edges at the graph's average
  // degree: a word of a small dense graph (facebook_combined: 2,800 edges) is work worth a
  // thread, where a fixed 64 words a chunk left such a graph's every bottom-up step on one.
  // At most two chunks a participant: each chunk costs a claim and three counter updates on
  // lines the other core holds, and with 16 a participant that outweighed the balance they buy.
  // Two threads on the Zen 5 VM, median kernel time of a search over eight sources, 16 / 2
  // chunks a participant. Chosen by an environment switch, alternated in one process in a slow
  // hour of the VM: facebook_combined 58-62 / 45-49 us, wiki-Vote 101-104 / 88-90, email-Enron
  // 273 / 258, Kronecker 16 445-455 / 417-421, Kronecker 18 2043 / 1955; one chunk a
  // participant was no better than two. The two builds in alternate processes (four pairs):
  // facebook_combined 34.7-35.3 / 30.7-31.9 us, wiki-Vote 41-45 / 40-45, email-Enron and
  // Kronecker 16 within 1-2%.
  const int64_t edges_per_word = std::max<int64_t>(1, 64 * g_.nnz / std::max<int64_t>(1, n_));
  const int64_t chunks = chunks_for(words_, std::max<int64_t>(1, kBottomUpChunkEdges / edges_per_word), kBottomUpChunksPerParticipant);
  pool_.parallel_for(chunks, [&](int64_t c) {
    const int64_t w0 = words_ * c / chunks, w1 = words_ * (c + 1) / chunks;
    int64_t found = 0, sc = 0;
    const int32_t d = level + 1;
    const bool ok = prefetch_ ? (gather_ ? bottom_up_words<true, true>(d, w0, w1, found, sc) : bottom_up_words<true, false>(d, w0, w1, found, sc))
                              : (gather_ ? bottom_up_words<false, true>(d, w0, w1, found, sc) : bottom_up_words<false, false>(d, w0, w1, found, sc));
    if (!ok) return;
    awake.fetch_add(found, std::memory_order_relaxed);
    edges.fetch_add(sc, std::memory_order_relaxed);
  });
  *next_edges = edges.load();
  return awake.load();
}

// Words [w0, w1) of the bitmap. kPrefetch: rows of visited vertices are skipped, which defeats
// the hardware prefetcher, so the start of the in-edge list kAhead vertices on is fetched by
// hand; worth it only where the in-edges do not sit in the cache (see prefetch_), and a cost
// (10-20% on small-world graphs) where they do. kGather: long rows are scanned 16 edges at a
// time after the first few (see gather_).
template <typename P>
template <bool kPrefetch, bool kGather>
bool DirectionOptimizingBfs<P>::bottom_up_words(int32_t next_depth, int64_t w0, int64_t w1, int64_t& found, int64_t& sc) {
  constexpr int64_t kAhead = 24;
  int32_t* depth = a_.depth;
  int32_t* parent = a_.parent;
  const uint64_t* front = front_.data();
  uint64_t* next = next_.data();
  const int32_t* ci = gi_.ci;
  const int64_t v_stop = std::min<int64_t>(n_, w1 * 64);
  // Visited vertices are >= 0. In an undirected graph an unvisited vertex's mark -(degree + 1)
  // is -1 exactly when it has no edges at all, so it can be skipped without touching its row
  // (Kronecker graphs are a third isolated vertices). Directed marks count out-edges, not the
  // in-edges scanned here, so there only visited vertices are skipped.
  const int32_t skip_from = undirected_ ? -1 : 0;
  const uint64_t limit = static_cast<uint64_t>(n_);
  int64_t ex = 0;
  for (int64_t w = w0; w < w1; ++w) {
    uint64_t bits = 0;
    for (uint64_t todo = unvisited_in_word(depth, w, n_, skip_from); todo != 0; todo &= todo - 1) {
      const int64_t v = w * 64 + __builtin_ctzll(todo);
      if constexpr (kPrefetch) {
        if (v + kAhead < v_stop && depth[v + kAhead] < skip_from) {
          const int64_t ahead = static_cast<int64_t>(gi_.rp[v + kAhead]);
          if (ahead >= 0 && ahead < gi_.nnz) __builtin_prefetch(ci + ahead);
        }
      }
      // The mark holds the out-degree: the next frontier's edges, what a top-down step from it
      // would read, counted for the waste rule.
      const int32_t mark = depth[v];
      int64_t b, e;
      if (!gi_.row(v, b, e)) return fault_.raise(2, v, "in-edges"), false;
      // In-edges one at a time, each index read as unsigned: one load, one check. With kGather
      // only the first few, and the rest of a long row 16 at a time (rest_in_frontier).
      const int64_t head = kGather ? std::min<int64_t>(e, b + kScalarInEdges) : e;
      int64_t p = b;
      int32_t source = 0;
      for (; p < head; ++p) {
        const uint64_t u = static_cast<uint32_t>(ci[p]);
        if (u >= limit) return fault_.raise(1, p, "in-edges"), false;
        if ((front[u >> 6] >> (u & 63)) & 1u) {
          source = static_cast<int32_t>(u);
          break;
        }
      }
      if constexpr (kGather) {
        if (p == head && head < e) {
          p = rest_in_frontier(ci, head, e, front, n_, &source);
          if (p < 0) return fault_.raise(1, -p - 1, "in-edges"), false;
        }
      }
      if (p == e) {
        ex += e - b;
        continue;
      }
      ex += p - b + 1;
      sc += -static_cast<int64_t>(mark) - 1;
      depth[v] = next_depth;
      if (parent) parent[v] = source;
      bits |= uint64_t(1) << (v & 63);
      ++found;
    }
    next[w] = bits;
  }
  examined_.fetch_add(ex, std::memory_order_relaxed);
  return true;
}

template <typename P>
void DirectionOptimizingBfs<P>::queue_to_bitmap(int64_t q_begin, int64_t q_end) {
  std::fill(front_.begin(), front_.end(), 0);
  const int64_t f = q_end - q_begin;
  const int64_t chunks = chunks_for(f, 1 << 14);
  // One thread alone sets the bits with plain stores: an atomic OR per vertex cost 6 ns each, a
  // fifth of a facebook_combined search (7.1 of 31 us, at one thread as at two).
  if (chunks == 1) {
    uint64_t* front = front_.data();
    for (int64_t i = q_begin; i < q_end; ++i) {
      const int32_t v = queue_[i];
      front[v >> 6] |= uint64_t(1) << (v & 63);
    }
    return;
  }
  pool_.parallel_for(chunks, [&](int64_t c) {
    for (int64_t i = q_begin + f * c / chunks, end = q_begin + f * (c + 1) / chunks; i < end; ++i) {
      const int32_t v = queue_[i];
      __atomic_fetch_or(&front_[v >> 6], uint64_t(1) << (v & 63), __ATOMIC_RELAXED);
    }
  });
}

template <typename P>
int64_t DirectionOptimizingBfs<P>::bitmap_to_queue() {
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

}  // namespace search
}  // namespace dype
