// Direction-optimising BFS (Beamer, Asanovic and Patterson, SC 2012) with the switching rule
// and thresholds of the GAP benchmark suite: the run loop that picks each step's direction, a
// search resumed from a depth array, and the entry point's checks.
#include "bfs.h"

#include <string>

#include "bfs_search.h"
#include "bfs_steps.h"
#include "populate.h"

namespace dype {
namespace search {

template <typename P>
Status DirectionOptimizingBfs<P>::run(const char* fn) {
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
    bool bottom_up = a_.direction == BfsDirection::kBottomUp ||
                     (a_.direction == BfsDirection::kAuto && !bottom_up_unprofitable && scout >= kMinBottomUpScout &&
                      static_cast<double>(scout) > edges_to_check / a_.alpha);
    // Before taking a bottom-up step Beamer's rule asks for, look at what it would read: on a
    // mesh or an FEM graph it scans nearly every unvisited vertex's edges, finds few, and the
    // waste rule below undoes it (19% of a bcsstk25 search). A sample of the step says so first.
    if (bottom_up && a_.direction == BfsDirection::kAuto && bottom_up_looks_wasteful(level, scout)) {
      bottom_up_unprofitable = true;
      bottom_up = false;
    }
    if (bottom_up) {
      ensure_bitmaps();
      queue_to_bitmap(q_begin, q_end);
      int64_t awake = q_end - q_begin, previous;
      // The out-edges of the frontier each step starts from: what a top-down step would read.
      int64_t frontier_edges = scout;
      bool stop = false;
      do {
        previous = awake;
        const int64_t examined_before = examined_.load();
        int64_t next_edges = 0;
        awake = bottom_up_step(level++, &next_edges);
        --steps_left;
        std::swap(front_, next_);
        record(awake, true);
        // Beamer's alpha assumes most unvisited vertices find a parent after a few edges, as in
        // social graphs. In meshes and road networks they scan every edge and find none, and a
        // bottom-up step costs many top-down steps. If this step read more than kBottomUpWaste
        // times what top-down would have read, both for this step (the frontier's own
        // out-edges) and for the next (the out-edges of the vertices it found), go back and
        // stay top-down for the rest of this search. Real edge counts, not sizes at the average
        // degree: at the switch a power-law frontier is hubs far above the average. And the next
        // step too: a frontier that grows thirtyfold (email-Enron: 351 -> 10,546 vertices) makes
        // a first bottom-up step that read many times its frontier's edges still far cheaper
        // than expanding what it found top-down, where a mesh's frontier barely grows.
        const double read = static_cast<double>(examined_.load() - examined_before);
        if (a_.direction == BfsDirection::kAuto &&
            read > kBottomUpWaste * static_cast<double>(std::max(frontier_edges, next_edges))) {
          bottom_up_unprofitable = true;
          stop = true;
        }
        frontier_edges = next_edges;
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

template <typename P>
bool DirectionOptimizingBfs<P>::bottom_up_looks_wasteful(int32_t level, int64_t scout) const {
  // Up to kWasteSample unvisited vertices, drawn by a fixed sequence (the same search decides the
  // same way every time), each scanned as the bottom-up step would: in-edges until one reaches
  // the frontier (depth == level; unvisited vertices hold negative marks).
  constexpr int64_t kWasteSample = 64, kWasteTries = 1024;
  const int32_t* depth = a_.depth;
  int64_t tries = 0, unvisited = 0, read = 0, found_degree = 0;
  uint64_t h = 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(level);
  for (; tries < kWasteTries && unvisited < kWasteSample; ++tries) {
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    const int64_t v = static_cast<int64_t>((h >> 17) % static_cast<uint64_t>(n_));
    const int32_t mark = depth[v];
    if (mark >= 0) continue;
    ++unvisited;
    int64_t b, e;
    if (!gi_.row(v, b, e)) return false;  // the step itself reports bad row pointers
    for (int64_t p = b; p < e; ++p) {
      const int32_t u = gi_.ci[p];
      if (static_cast<uint64_t>(static_cast<uint32_t>(u)) >= static_cast<uint64_t>(n_)) return false;  // and bad indices
      ++read;
      if (depth[u] == level) {
        found_degree += -static_cast<int64_t>(mark) - 1;  // the negative mark is -(out-degree + 1)
        break;
      }
    }
  }
  if (unvisited < kWasteSample) return false;  // too few unvisited vertices to judge: Beamer's rule
  // Scale the sample to all unvisited vertices: the step's reads, and the out-edges of what it
  // would find (the next step's top-down reads), as the waste rule compares them after a step.
  // Each vertex drawn stands for n / tries of the graph's.
  const double per = static_cast<double>(n_) / static_cast<double>(tries);
  const double reads = per * static_cast<double>(read);
  const double next_edges = per * static_cast<double>(found_degree);
  return reads > kBottomUpWaste * std::max(static_cast<double>(scout), next_edges);
}

template <typename P>
Status DirectionOptimizingBfs<P>::resume(const char* fn, int64_t& q_end, int64_t& scout, int64_t& edges_to_check) {
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

template <typename P>
void DirectionOptimizingBfs<P>::init_outputs() {
  const int64_t chunks = chunks_for(n_, 1 << 16);
  pool_.parallel_for(chunks, [&](int64_t c) {
    const int64_t v0 = n_ * c / chunks, v1 = n_ * (c + 1) / chunks;
    int32_t* depth = a_.depth;
    const P* rp = g_.rp;
    for (int64_t v = v0; v < v1; ++v) depth[v] = unvisited_mark(static_cast<int64_t>(rp[v + 1]) - static_cast<int64_t>(rp[v]));
    if (a_.parent) std::fill(a_.parent + v0, a_.parent + v1, -1);
  });
}

template <typename P>
void DirectionOptimizingBfs<P>::finish_outputs() {
  const int64_t chunks = chunks_for(n_, 1 << 16);
  pool_.parallel_for(chunks, [&](int64_t c) {
    int32_t* depth = a_.depth;
    for (int64_t v = n_ * c / chunks, end = n_ * (c + 1) / chunks; v < end; ++v) {
      if (depth[v] < 0) depth[v] = -1;
    }
  });
}

}  // namespace search

using search::check_graph;
using search::DirectionOptimizingBfs;

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

}  // namespace dype
