// The direction-optimising single-source search's state: the graph views, the frontier as a
// queue (top-down) or a bitmap (bottom-up), and the counters Beamer's switching rule reads. The
// run loop and its direction policy are in bfs.cc; the steps that expand one level in
// bfs_steps.h.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <vector>

#include "../machine.h"
#include "../thread_pool.h"
#include "bfs.h"
#include "bfs_split_choice.h"
#include "search_common.h"

namespace dype {
namespace search {

// Whether a bottom-up step should prefetch in-edge lists by hand: when what it reads at random
// (the in-edges, the depth array, the frontier bitmap) is larger than the process's share of
// the last-level cache. On Kronecker 18 (31 MB) the prefetch gains 15%; on small-world graphs
// of a few MB it costs 10-20%.
inline bool prefetch_in_edges(const Csr& in) {
  const int64_t bytes = (in.rows + 1) * (in.wide_row_ptr ? 8 : 4) + in.nnz * 4 + in.rows * 4 + in.rows / 8;
  return bytes > cache_share_bytes();
}

// Whether a bottom-up step's long rows are scanned 16 in-edges at a time with gathers: where the
// build has AVX-512, on an Intel CPU. There the gathers took facebook_combined's search 1.43x
// faster (a Xeon, 27 November 2026); on an AMD Zen 5 the same scan was 12-16% slower than one
// edge at a time on email-Enron, wiki-Vote and soc-Slashdot0902 and no faster on
// facebook_combined (docs/speed.md), its gathers being slower per element than its loads.
// DYPE_BFS_GATHER=1 or 0 forces the choice (to test and compare both scans on one machine).
inline bool gathers_pay() {
#if defined(__AVX512F__)
  static const bool yes = [] {
    const char* force = std::getenv("DYPE_BFS_GATHER");
    if (force != nullptr && (force[0] == '0' || force[0] == '1') && force[1] == '\0') return force[0] == '1';
    return !__builtin_cpu_is("amd");
  }();
  return yes;
#else
  return false;
#endif
}

template <typename P>
class DirectionOptimizingBfs {
 public:
  DirectionOptimizingBfs(const BfsArgs& a, BfsStats* st)
      : a_(a), g_(graph_of<P>(a.out)), gi_(graph_of<P>(a.in)), n_(a.out.rows), st_(st),
        pool_(ThreadPool::instance()), queue_(new int32_t[static_cast<size_t>(n_)]),
        undirected_(a.in.row_ptr == a.out.row_ptr && a.in.col_idx == a.out.col_idx),
        prefetch_(prefetch_in_edges(a.in)), gather_(gathers_pay()) {}

  Status run(const char* fn);

 private:
  // Take up a search in progress from `depth`: check every value, mark the vertices not yet
  // found as init_outputs() does, queue the frontier (depth == start_level), and rebuild what
  // the switching rule keeps: the frontier's out-edges (scout) and the edges not yet explored
  // (every edge but those of vertices found before the frontier).
  Status resume(const char* fn, int64_t& q_end, int64_t& scout, int64_t& edges_to_check);

  // Whether a bottom-up step from the frontier at `level` would read more than kBottomUpWaste
  // times what top-down would (this step's `scout` edges, or the next step's), judged from a
  // fixed sample of unvisited vertices before taking it (see run()).
  bool bottom_up_looks_wasteful(int32_t level, int64_t scout) const;

  // Unvisited vertices hold -(out-degree + 1) in `depth` while the search runs (GAP keeps the
  // same trick in its parent array): a top-down step then learns a discovered vertex's degree,
  // which Beamer's switching rule needs, from the word it already loaded instead of a second
  // random read of the row pointers. finish_outputs() turns every leftover negative into -1.
  void init_outputs();

  void finish_outputs();

  void record(int64_t discovered, bool bottom_up) {
    st_->frontier.push_back(discovered);
    st_->bottom_up.push_back(bottom_up ? 1 : 0);
  }

  // Chunks of about `grain` units of `work`, at most `per_participant` for each thread.
  int64_t chunks_for(int64_t work, int64_t grain, int64_t per_participant = 16) const {
    if (work < grain) return 1;
    return std::min<int64_t>(pool_.participants() * per_participant, work / grain);
  }

  static int32_t unvisited_mark(int64_t degree) {
    // Degrees that do not fit (or garbage from bad row pointers) saturate: only the switching
    // heuristic reads them, and the row pointers are checked again where edges are read.
    if (degree < 0) return -1;
    return degree >= INT32_MAX ? INT32_MIN : static_cast<int32_t>(-degree - 1);
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
  int64_t top_down_step(int32_t level, int64_t q_begin, int64_t q_end, int64_t frontier_edges);

  // The same step on one thread for small frontiers (every level of a road network): plain
  // stores instead of compare-and-swap, discoveries written straight to the queue. Long-diameter
  // graphs run thousands of these, so they must cost no more than a textbook serial BFS level.
  // Kept out of line so its hot loop gets registers of its own (inlined into run() it spilled).
  int64_t top_down_serial(int32_t next_depth, int64_t q_begin, int64_t q_end);
  template <bool kParent>
  __attribute__((noinline)) int64_t top_down_serial_loop(int32_t next_depth, int64_t q_begin, int64_t q_end);

  // Every unvisited vertex looks for a parent among its in-neighbours in the frontier bitmap.
  // Chunks are whole 64-vertex words, so each word of `next_` has one writer. Returns the
  // vertices found and sets *next_edges to their out-edges.
  int64_t bottom_up_step(int32_t level, int64_t* next_edges);
  template <bool kPrefetch, bool kGather>
  bool bottom_up_words(int32_t next_depth, int64_t w0, int64_t w1, int64_t& found, int64_t& sc);

  void queue_to_bitmap(int64_t q_begin, int64_t q_end);

  int64_t bitmap_to_queue();

  const BfsArgs& a_;
  Graph<P> g_, gi_;
  int64_t n_;
  BfsStats* st_;
  ThreadPool& pool_;
  // Uninitialised on purpose: zero-filling n entries per search costs more than a small BFS.
  std::unique_ptr<int32_t[]> queue_;
  bool undirected_;
  // Whether bottom-up steps prefetch in-edge lists by hand: only where the in-edges and the
  // depth array do not fit in this process's share of the last-level cache.
  bool prefetch_;
  // Whether bottom-up steps scan long rows with gathers (gathers_pay).
  bool gather_;
  static constexpr double kBottomUpWaste = 4.0;
  // Frontier edges below which a top-down step runs on the calling thread alone (see
  // top_down_step). It was 16,384, set on the Intel VM before the host lane and the workers were
  // bound to cores of their own; since, a mesh's levels (3,500 edges each on delaunay_n16) gain
  // from the second thread. Two threads on the Zen 5 VM, `await bfs()` back to back over eight
  // sources, three processes per bound alternated (median us, 16,384 / 4,096 / 2,048):
  // delaunay_n16 1452-1582 / 1266-1277 / 1249-1286, mdual 4385-4727 / 4032-4687 / 4110-4262,
  // bcsstk25 301-319 / 301-308 / 320-327, 4elt and email-Enron alike within their spread.
  static constexpr int64_t kParallelTopDownEdges = 4096;
  // In-edges a bottom-up chunk should hold, and the most chunks a step gives each participant
  // (see bottom_up_step).
  static constexpr int64_t kBottomUpChunkEdges = 8192;
  static constexpr int64_t kBottomUpChunksPerParticipant = 2;
  // Frontier edges below which a step stays top-down (see run()).
  static constexpr int64_t kMinBottomUpScout = 1024;
  // Whether candidate top-down levels (kParallelTopDownEdges and more) are split, as measured.
  SplitChoice split_choice_{kParallelTopDownEdges};
  std::vector<int32_t> heavy_;
  std::atomic<int64_t> tail_{0};
  std::atomic<int64_t> examined_{0};
  std::vector<uint64_t> front_, next_;
  int64_t words_ = 0;
  Fault fault_;
};

}  // namespace search
}  // namespace dype
