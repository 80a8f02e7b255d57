// gpu-sim: a trace-driven analytical model of a GPU. The real result is computed on the CPU; a
// trace pass over the actual indices counts what each warp of the modelled kernels would do
// (instructions, 32-byte sectors, the longest warp), and the roofline-style combination below
// turns those counts into kernel time and energy. See docs/gpu-sim.md for the model and sources.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../kernels/csr.h"

namespace dype {
namespace gpusim {

// The spec profile, in base units. Names follow devices/gpu-sim/<profile>.json.
struct GpuParams {
  double sms = 132;
  double clock_hz = 1.98e9;
  double max_warps_per_sm = 64;
  double schedulers_per_sm = 4;       // warp instructions issued per SM per cycle
  double l1_bytes = 256 * 1024;       // per SM; what small lookup tables may stay in
  double l2_bytes = 50e6;
  double dram_bytes_per_s = 3.35e12;
  double l2_bytes_per_s = 5.5e12;
  double latency_s = 500e-9;          // average global-load latency seen by a warp
  double sectors_in_flight_per_warp = 16;
  double launch_s = 5e-6;
  // Host round trip a level-synchronous search pays per level beyond the launch: copying the
  // frontier's size back, synchronising, deciding the next step (measured; see docs/gpu.md).
  double level_sync_s = 0;
  double fp32_flops = 67e12;
  double fp64_flops = 34e12;
  double idle_w = 70;
  double tdp_w = 700;
  double dram_j_per_byte = 31.2e-12;
  double l2_j_per_sector = 64e-12;
  double j_per_flop = 2e-12;
  double j_per_warp_instruction = 50e-12;
};

// What one kernel launch did, summed over its warps.
struct KernelTrace {
  int64_t launches = 1;
  double warps = 0;
  double instructions = 0;      // warp instructions issued
  double l2_sectors = 0;        // 32-byte sector requests that leave the SM (L1 misses)
  double dram_bytes = 0;
  double flops = 0;
  double longest_warp_cycles = 0;

  // A warp's own serial time: two dependent latencies to start (an index load, then the
  // gather it feeds), then at most one instruction a cycle and, with a bounded number of
  // sectors in flight, no faster streaming than Little's law allows.
  void add_warp(double instr, double sectors, const GpuParams& p) {
    warps += 1;
    instructions += instr;
    l2_sectors += sectors;
    const double latency_cycles = p.latency_s * p.clock_hz;
    const double cycles =
        2.0 * latency_cycles + std::max(instr, sectors * latency_cycles / p.sectors_in_flight_per_warp);
    if (cycles > longest_warp_cycles) longest_warp_cycles = cycles;
  }
};

// The time of one kernel and the bound that set it.
struct KernelCost {
  double seconds = 0;
  double dram_s = 0, l2_s = 0, issue_s = 0, flop_s = 0, tail_s = 0;
  double achieved_bandwidth = 0;  // bytes/s the resident warps can keep in flight, <= peak
  double occupancy = 0;           // resident warps / maximum resident warps
};

KernelCost kernel_cost(const KernelTrace& t, const GpuParams& p, bool fp64);

// DRAM bytes for a stream of sector requests of which `unique` are first touches: re-touches
// hit L2 while the footprint fits it, and miss in proportion to the part that does not (each
// reuse hits with probability l2 / footprint, the uniform-reuse approximation).
double dram_bytes_for_reuse(double unique_sectors, double requested_sectors, double footprint_bytes, const GpuParams& p);

// Totals of a run (one or many kernels) and its energy.
struct RunReport {
  double seconds = 0;
  double joules = 0;
  double kernels = 0;
  double dram_bytes = 0;
  double l2_sectors = 0;
  double instructions = 0;
  double flops = 0;
  double occupancy_time = 0;  // occupancy * kernel seconds, summed (a time-weighted mean at the end)
  double power_capped = 0;

  void add(const KernelTrace& t, const KernelCost& c) {
    seconds += c.seconds;
    kernels += static_cast<double>(t.launches);
    dram_bytes += t.dram_bytes;
    l2_sectors += t.l2_sectors;
    instructions += t.instructions;
    flops += t.flops;
    occupancy_time += c.occupancy * c.seconds;
  }
  double occupancy() const { return seconds > 0 ? occupancy_time / seconds : 0; }
  // Idle power over the whole time plus the dynamic energy of every byte, sector, flop and
  // instruction, capped so the average power never exceeds the board's limit.
  void finish_energy(const GpuParams& p);
};

// --- Coalescing helpers shared by the traces ---------------------------------------------------

// Sectors [first, last] touched by one lane group's access.
struct SectorRange {
  uint64_t first;
  uint64_t last;
};

inline uint64_t range_sectors(uint64_t begin_byte, uint64_t end_byte) {
  return end_byte > begin_byte ? ((end_byte - 1) >> 5) - (begin_byte >> 5) + 1 : 0;
}

// Distinct 32-byte sectors among the accesses of one warp step (n <= 32). Lanes often walk
// sorted indices (a run count suffices); otherwise a 64-slot open-addressing set, far cheaper
// than sorting 32 values for every step.
inline int distinct_sectors(const uint64_t* ids, int n) {
  if (n <= 1) return n;
  bool sorted = true;
  int runs = 1;
  for (int i = 1; i < n; ++i) {
    sorted &= ids[i] >= ids[i - 1];
    runs += ids[i] != ids[i - 1];
  }
  if (sorted) return runs;
  uint64_t keys[64];
  uint64_t used = 0;
  int d = 0;
  for (int i = 0; i < n; ++i) {
    unsigned h = static_cast<unsigned>((ids[i] * 0x9E3779B97F4A7C15ull) >> 58);
    while (true) {
      if (!((used >> h) & 1)) {
        used |= uint64_t{1} << h;
        keys[h] = ids[i];
        ++d;
        break;
      }
      if (keys[h] == ids[i]) break;
      h = (h + 1) & 63;
    }
  }
  return d;
}

// Sectors covered by the union of n ranges (one warp step of sub-warps, each reading a slice).
inline uint64_t union_sectors(SectorRange* r, int n) {
  if (n <= 0) return 0;
  bool sorted = true;
  for (int i = 1; i < n && sorted; ++i) sorted = r[i].first >= r[i - 1].first;
  if (!sorted) std::sort(r, r + n, [](const SectorRange& x, const SectorRange& y) { return x.first < y.first; });
  uint64_t total = 0;
  uint64_t lo = r[0].first, hi = r[0].last;
  for (int i = 1; i < n; ++i) {
    if (r[i].first > hi + 1) {
      total += hi - lo + 1;
      lo = r[i].first;
      hi = r[i].last;
    } else if (r[i].last > hi) {
      hi = r[i].last;
    }
  }
  return total + (hi - lo + 1);
}

// --- SpMM / SpMV -----------------------------------------------------------------------------

struct SpmmModel {
  RunReport run;            // the chosen (faster) variant
  int variant = 0;          // 0 row-split, 1 nnz-split
  double row_split_s = 0;
  double nnz_split_s = 0;
  double longest_warp_s = 0;
  double achieved_bandwidth = 0;
};

// Model Y = A[row_begin:row_end] * X with X `a.cols x k` of `elem_bytes` (4 or 8) per element.
// Checks every column index it reads; fn names the caller in errors.
Status model_spmm(const char* fn, const Csr& a, int64_t row_begin, int64_t row_end, int64_t k, int elem_bytes,
                  const GpuParams& p, SpmmModel* out);

// --- BFS -------------------------------------------------------------------------------------

struct BfsModel {
  RunReport run;
  std::vector<int64_t> frontier;  // vertices discovered at each depth, index 0 the starting frontier
  double levels = 0;              // levels run by this call
  double bottom_up_levels = 0;
  double batched_levels = 0;  // thin top-down levels launched in batches (no host read each)
  double edges_examined = 0;
  double achieved_bandwidth = 0;
};

// Level-synchronous direction-optimising BFS, written into depth[n]; the trace of each level
// (top-down advance or bottom-up scan, chosen by Beamer's rule) is costed as its own kernel.
// start_level -1 searches from `source`; start_level L >= 0 resumes a search whose depths so far
// are in depth[] (each in [-1, L], checked here), expanding the vertices at depth L, and pays one
// dense pass to rebuild the frontier from them. max_levels > 0 stops after that many levels
// (0: no limit). frontier[0] is the starting frontier's size; levels counts the levels run.
Status model_bfs(const char* fn, const Csr& out, const Csr& in, int64_t source, int32_t* depth, const GpuParams& p,
                 BfsModel* model, int64_t start_level = -1, int64_t max_levels = 0);

// Every depth[v] lies in [-1, start_level] when start_level >= 0 (a resumed search's depths);
// otherwise an invalid-argument Status naming fn, the element and its value.
inline Status check_resumed_depths(const char* fn, const int32_t* depth, int64_t n, int64_t start_level) {
  if (start_level < 0) return Status{};
  for (int64_t v = 0; v < n; ++v) {
    const int32_t d = depth[v];
    if (d < -1 || d > start_level) {
      return Status::invalid(std::string(fn) + ": depth[" + std::to_string(v) + "] = " + std::to_string(d) + " is outside [-1, " +
                             std::to_string(start_level) + "]");
    }
  }
  return Status{};
}

// Bit-parallel multi-source BFS, 64 sources per word; depths is num_sources x n, row-major.
Status model_msbfs(const char* fn, const Csr& out, const int32_t* sources, int64_t num_sources, int32_t* depths,
                   const GpuParams& p, BfsModel* model);

}  // namespace gpusim
}  // namespace dype
