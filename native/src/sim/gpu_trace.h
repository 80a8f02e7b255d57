// gpu-sim trace helpers shared by the graph kernels: per-sector stamps that tell first touches
// (DRAM) from re-touches (L2), warp-step gathers, and reading a CSR graph without trusting it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "gpu_model.h"

namespace dype {
namespace gpusim {

// Per-sector stamps of one array: the kernel (epoch) that last touched each sector, 0 for never.
struct Region {
  std::vector<uint32_t> stamp;
  int shift = 3;  // log2(elements per 32-byte sector)
  void init(uint64_t elements, int elem_bytes) {
    shift = elem_bytes == 8 ? 2 : (elem_bytes == 4 ? 3 : 8);  // 8: a bitmap, 256 bits a sector
    stamp.assign(static_cast<size_t>((elements >> shift) + 1), 0);
  }
};

// Sectors first touched in this kernel (unique) and first touched ever (compulsory).
struct Touches {
  uint32_t epoch = 0;
  double unique = 0;
  double first = 0;
  inline void touch(Region& r, uint64_t element) {
    uint32_t& s = r.stamp[element >> r.shift];
    if (s != epoch) {
      first += s == 0;
      unique += 1;
      s = epoch;
    }
  }
  void touch_range(Region& r, uint64_t b, uint64_t e) {
    if (e <= b) return;
    for (uint64_t sec = b >> r.shift, last = (e - 1) >> r.shift; sec <= last; ++sec) touch(r, sec << r.shift);
  }
};

template <typename P>
struct Graph {
  const P* rp;
  const int32_t* ci;
  int64_t n;
  int64_t nnz;
  const char* name;
  bool row(int64_t v, int64_t& b, int64_t& e) const {
    b = static_cast<int64_t>(rp[v]);
    e = static_cast<int64_t>(rp[v + 1]);
    return 0 <= b && b <= e && e <= nnz;
  }
};

struct Faults {
  const char* fn;
  Status st;
  bool bad_row(const char* graph, int64_t v) {
    st = Status::invalid(std::string(fn) + ": rowPtr of the " + graph + " is not non-decreasing within [0, nnz] at row " +
                         std::to_string(v));
    return false;
  }
  bool bad_col(const char* graph, int64_t q, int32_t c, int64_t n) {
    st = Status::invalid(std::string(fn) + ": colIdx[" + std::to_string(q) + "] = " + std::to_string(c) + " of the " + graph +
                         " is outside [0, " + std::to_string(n) + ")");
    return false;
  }
};

// A warp step's gather: up to 32 sector ids, collapsed to the distinct ones when full.
struct Gather {
  uint64_t ids[32];
  int n = 0;
  double sectors = 0;
  inline void add(uint64_t id) {
    ids[n++] = id;
    if (n == 32) flush();
  }
  void flush() {
    sectors += distinct_sectors(ids, n);
    n = 0;
  }
};

// A vertex-parallel pass over n vertices reading and writing `bytes_per_vertex` in total:
// frontier format conversions and the multi-source update step. Costed in closed form.
inline KernelTrace dense_pass(int64_t n, double bytes_per_vertex, double instr_per_warp, const GpuParams& gp) {
  KernelTrace t;
  const double warps = std::max(1.0, static_cast<double>((n + 31) / 32));
  const double sectors_per_warp = 32.0 * bytes_per_vertex / 32.0;
  t.add_warp(instr_per_warp, sectors_per_warp, gp);
  t.warps = warps;
  t.instructions = warps * instr_per_warp;
  t.l2_sectors = warps * sectors_per_warp;
  t.dram_bytes = static_cast<double>(n) * bytes_per_vertex;
  return t;
}

}  // namespace gpusim
}  // namespace dype
