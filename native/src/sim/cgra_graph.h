// Pieces shared by the simulated graph kernels (BFS, multi-source BFS): where the graph and the
// per-vertex state sit in the scratchpad, and checked reads of the graph's row pointers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "cgra.h"

namespace dype {
namespace cgra {

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Per-vertex state in the scratchpad: resident at `base`, or behind a line buffer when the
// array is larger than half the scratchpad.
class VertexState {
 public:
  VertexState(const Params& p, bool resident, int64_t base)
      : resident_(resident), base_(base) {
    if (!resident) lines_ = LineBuffer(base, p.spm_bytes / 2, p.line_bytes);
  }
  int64_t addr(int64_t word, bool write, Dma& dma, int64_t& misses) {
    return resident_ ? base_ + word : lines_.access(word, write, dma, misses);
  }
  void flush(Dma& dma) {
    if (!resident_) lines_.flush(dma);
  }

 private:
  bool resident_;
  int64_t base_;
  LineBuffer lines_;
};

// Row bounds of v, refusing pointers that are not non-decreasing within [0, nnz].
template <typename P>
bool row_of(const Csr& g, int64_t v, int64_t& b, int64_t& e) {
  const P* rp = static_cast<const P*>(g.row_ptr);
  b = static_cast<int64_t>(rp[v]);
  e = static_cast<int64_t>(rp[v + 1]);
  return 0 <= b && b <= e && e <= g.nnz;
}

inline Status bad_row(const char* fn, int64_t v) {
  return Status::invalid(std::string(fn) + ": rowPtr is not non-decreasing within [0, nnz] at row " + std::to_string(v));
}
inline Status bad_col(const char* fn, const Csr& g, int64_t q) {
  return Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(q) + "] = " + std::to_string(g.col_idx[q]) +
                         " is outside [0, " + std::to_string(g.rows) + ")");
}

// Where the graph lives: wholly in the scratchpad (loaded once), or streamed per frontier
// vertex (its two row pointers and its edge list, prefetched ahead from the known frontier).
struct GraphPlacement {
  bool resident = false;
  int64_t ptr_bytes = 4;
  int64_t col_base = 0;   // word address of colIdx (resident) or of the edge stream buffer
  int64_t edge_buffer_words = 1;
};

// Where a search keeps its per-vertex state and its work list in the scratchpad, beside the graph
// `gp` places (gp.resident and gp.ptr_bytes decided by the caller). Resident:
// [rowPtr | colIdx | state | list], the list `resident_list_words` long. Streamed: [state or its
// lines | edge buffers | list buffers], half the scratchpad for the state.
struct SearchRegions {
  int64_t state_base = 0;
  int64_t list_base = 0;
  int64_t list_words = 1;
};

inline SearchRegions place_search(const Params& p, GraphPlacement& gp, int64_t n, int64_t graph_bytes, int64_t state_bytes,
                                  int64_t resident_list_words) {
  SearchRegions r;
  if (gp.resident) {
    gp.col_base = region_base(p, (n + 1) * gp.ptr_bytes, 1);
    r.state_base = region_base(p, graph_bytes, 2);
    r.list_base = region_base(p, graph_bytes + state_bytes, 3);
    r.list_words = floor_pow2(std::max<int64_t>(1, resident_list_words));
  } else {
    const int64_t half = p.spm_bytes / 2;
    r.state_base = region_base(p, 0, 2);
    gp.col_base = region_base(p, half, 1);
    gp.edge_buffer_words = floor_pow2(std::max<int64_t>(1, half / 4 / 2));
    r.list_base = region_base(p, half + half / 2, 3);
    r.list_words = floor_pow2(std::max<int64_t>(1, half / 2 / 4));
  }
  return r;
}

}  // namespace cgra
}  // namespace dype
