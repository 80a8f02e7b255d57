// Pieces shared by the simulated graph kernels (BFS, multi-source BFS): where the graph and the
// per-vertex state sit in the scratchpad, and checked reads of the graph's row pointers.
#pragma once

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

}  // namespace cgra
}  // namespace dype
