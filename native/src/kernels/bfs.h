// Breadth-first search on the CPU: direction-optimising single-source BFS and bit-parallel
// multi-source BFS.
#pragma once

#include <vector>

#include "csr.h"

namespace dype {

// Beamer's switching thresholds as the GAP benchmark suite sets them (Beamer, Asanovic and
// Patterson, SC 2012): the one native definition, read by the CPU search's defaults and by
// gpu-sim's search. (The TypeScript side passes its own copy in as arguments.)
constexpr double kBeamerAlpha = 15.0;
constexpr double kBeamerBeta = 18.0;

enum class BfsDirection { kAuto = 0, kTopDown = 1, kBottomUp = 2 };

struct BfsArgs {
  Csr out;  // out-edges, square
  Csr in;   // in-edges (the transpose); the same arrays as `out` for an undirected graph
  int64_t source = 0;
  int32_t* depth = nullptr;   // [n], output: hops from source, -1 when unreachable
  int32_t* parent = nullptr;  // [n] or null, output: BFS-tree parent, source's own id, -1 unreachable
  BfsDirection direction = BfsDirection::kAuto;
  // Beamer's switching thresholds (GAP's defaults): go bottom-up when the frontier's edges
  // exceed (unexplored edges) / alpha, back top-down when the frontier shrinks below n / beta.
  double alpha = kBeamerAlpha;
  double beta = kBeamerBeta;
  // Resuming a search: -1 starts afresh from `source`. Otherwise `depth` already holds a search
  // in progress (0..start_level found, -1 not yet) and the vertices at start_level are expanded
  // next; every value must lie in [-1, start_level], and `parent` must be null.
  int32_t start_level = -1;
  // Stop after this many steps (levels produced); 0 runs to the end.
  int64_t max_levels = 0;
};

struct BfsStats {
  std::vector<int64_t> frontier;   // vertices discovered at each depth (index 0: the source, or the resumed frontier)
  std::vector<uint8_t> bottom_up;  // whether the step that produced each next level ran bottom-up
  int64_t edges_examined = 0;      // edges looked at, the work behind TEPS
};

Status bfs(const char* fn, const BfsArgs& args, BfsStats* stats);

struct MsBfsArgs {
  Csr out;
  Csr in;
  const int32_t* sources = nullptr;
  int64_t num_sources = 0;
  int32_t* depths = nullptr;  // [num_sources * n], row s holds the depths from sources[s]
};

// Many BFSs at once, 64 sources per machine word (Then et al., "The More the Merrier", VLDB
// 2014): one traversal of an edge serves every source whose frontier contains it.
Status msbfs(const char* fn, const MsBfsArgs& args, int64_t* edges_examined);

}  // namespace dype
