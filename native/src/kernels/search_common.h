// What the CPU searches (single- and multi-source BFS) share: a bounds-checked view of a CSR
// graph, the first fault any thread saw, bitmap and queue helpers, and the check of a graph's
// shape before a search starts. Every index read from a graph is checked as it is used; a bad
// one stops the search with a Status, never a read out of bounds.
#pragma once

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "csr.h"

namespace dype {
namespace search {

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


inline Status check_graph(const char* fn, const Csr& out, const Csr& in) {
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

}  // namespace search
}  // namespace dype
