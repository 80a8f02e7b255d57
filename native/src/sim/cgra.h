// A cycle-approximate simulator of a HyCUBE-style CGRA (a PE array whose memory-capable PEs
// reach a word-interleaved, banked scratchpad, fed by a DMA engine from host DRAM). It executes
// each kernel on the real data, so results are exact, and counts cycles from the real access
// stream: modulo-scheduled loops at an II derived from each loop's dataflow graph, bank
// conflicts from the real scratchpad addresses, DMA tiles and line misses from the real indices.
// See docs/cgra-sim.md for the model, its formulas and its sources.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/csr.h"

namespace dype {
namespace cgra {

// Every parameter of a device spec (devices/cgra-sim/*.json), already range-checked.
struct Params {
  int64_t pe_rows = 4;
  int64_t pe_cols = 4;
  int64_t mem_ports = 4;          // memory-capable PEs (HyCUBE: the left column)
  double clock_hz = 1e9;
  int64_t spm_bytes = 65536;
  int64_t spm_banks = 4;          // word-interleaved: bank = word address mod banks
  int64_t fp_latency = 1;         // cycles of a floating-point add/FMA (the accumulator recurrence)
  int64_t fp64_op_slots = 2;      // PE issue slots an FP64 operation takes on 32-bit PEs
  double dma_bytes_per_cycle = 8;
  int64_t dma_latency = 100;      // cycles from request to first byte
  int64_t dma_outstanding = 4;    // transactions in flight at once
  int64_t line_bytes = 64;        // line of the scratchpad-held line buffers (and DMA burst)
  int64_t config_bytes_per_slot = 8;  // configuration bytes per PE per II slot
  int64_t pass_overhead = 200;    // cycles to start one BFS pass (sync with the host, restart)
  double op_pj = 8.7;
  double spm_access_pj = 5.0;
  double dram_byte_pj = 162.5;
  double static_watts = 0.002;

  int64_t pes() const { return pe_rows * pe_cols; }
};

// Integer event counts, summed over independent partitions so that the totals do not depend on
// how many threads ran them. `finish` turns them into cycles, seconds and joules.
struct Counters {
  int64_t cycles = 0;
  int64_t compute_cycles = 0;     // II-paced issue of the modulo-scheduled loops, fills, row switches
  int64_t bank_stall_cycles = 0;  // extra cycles when one bank gets more accesses than II allows
  int64_t dma_stall_cycles = 0;   // cycles waiting for DMA (tiles, misses, pro- and epilogue)
  int64_t config_cycles = 0;      // configuration load per launch
  int64_t pass_cycles = 0;        // per-pass overhead of BFS
  int64_t ii = 0;                 // initiation interval of the main loop
  int64_t unroll_lanes = 0;       // SpMM: columns of X per iteration (w)
  int64_t unroll_nonzeros = 0;    // SpMM: nonzeros per iteration (u)
  int64_t iterations = 0;
  int64_t alu_ops = 0;
  int64_t spm_accesses = 0;       // PE loads/stores plus words DMA moved in or out of the scratchpad
  int64_t pe_mem_ops = 0;         // the PE part of spm_accesses
  int64_t dram_bytes = 0;
  int64_t dma_transactions = 0;
  int64_t line_misses = 0;
  int64_t tiles = 0;
  int64_t passes = 0;
  int64_t resident = 0;           // 1 when the whole working set sat in the scratchpad
  double seconds = 0;
  double joules = 0;
  double utilisation = 0;

  void add(const Counters& o) {
    compute_cycles += o.compute_cycles;
    bank_stall_cycles += o.bank_stall_cycles;
    iterations += o.iterations;
    alu_ops += o.alu_ops;
    spm_accesses += o.spm_accesses;
    pe_mem_ops += o.pe_mem_ops;
    dram_bytes += o.dram_bytes;
    dma_transactions += o.dma_transactions;
    line_misses += o.line_misses;
  }
};

// Resources of one loop body (its dataflow graph) and the II a modulo scheduler reaches for it.
struct LoopDfg {
  int64_t alu_ops = 0;   // non-memory operations, in PE issue slots
  int64_t mem_ops = 0;   // loads and stores, each on a memory-capable PE
  int64_t rec_mii = 1;   // longest loop-carried cycle latency / its distance
  int64_t depth = 1;     // schedule length of one iteration (pipeline fill)

  // II = max(ResMII over all PEs, ResMII over memory ports, RecMII).
  int64_t ii(const Params& p) const;
};

// DMA work: bytes moved and transactions issued; cycles = bytes / bandwidth + latency per
// transaction, with `dma_outstanding` transactions overlapping their latency.
struct Dma {
  int64_t bytes = 0;
  int64_t transactions = 0;
  void add(int64_t b, int64_t t = 1) {
    bytes += b;
    transactions += t;
  }
  int64_t cycles(const Params& p) const;
};

// x mod d for non-negative x, with a mask instead of a division when d is a power of two (the
// simulator takes several per simulated access; a 64-bit division costs tens of cycles).
struct FastMod {
  int64_t d = 1, mask = 0;
  FastMod() = default;
  explicit FastMod(int64_t divisor) : d(divisor), mask((divisor & (divisor - 1)) == 0 ? divisor - 1 : -1) {}
  int64_t operator()(int64_t x) const { return mask >= 0 ? (x & mask) : x % d; }
};

// Largest power of two not above x (x >= 1): buffer sizes the simulator chooses itself.
inline int64_t floor_pow2(int64_t x) {
  int64_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}

// Cycles of one modulo-scheduled iteration: II, or more when one bank must serve more accesses
// than II cycles allow. Counts accesses per bank for the addresses actually touched.
class BankCounter {
 public:
  explicit BankCounter(int64_t banks) : banks_(banks), mod_(banks), count_(static_cast<size_t>(banks), 0) {}
  void clear() {
    std::fill(count_.begin(), count_.end(), 0);
    max_ = 0;
  }
  void word(int64_t addr) { bump(mod_(addr)); }
  // `n` consecutive words from `addr`: every bank gets n / banks, the first n % banks one more.
  void run(int64_t addr, int64_t n) {
    if (n == 1) return bump(mod_(addr));
    const int64_t q = n / banks_, r = n - q * banks_;
    if (q > 0) {
      for (int64_t b = 0; b < banks_; ++b) count_[b] += static_cast<int32_t>(q);
      max_ += q;  // every bank grew by q; so did the largest count
    }
    int64_t b = mod_(addr);
    for (int64_t i = 0; i < r; ++i) {
      bump(b);
      if (++b == banks_) b = 0;
    }
  }
  int64_t max() const { return max_; }

 private:
  void bump(int64_t b) {
    const int32_t v = ++count_[b];
    if (v > max_) max_ = v;
  }
  int64_t banks_;
  FastMod mod_;
  std::vector<int32_t> count_;
  int64_t max_ = 0;
};

// A direct-mapped buffer of `slots` lines held in a scratchpad region, in front of an array in
// DRAM that does not fit. Data-dependent gathers go through it; a miss fetches one line (and
// writes back a dirty victim) by DMA. `flush` empties it, writing back dirty lines.
class LineBuffer {
 public:
  LineBuffer() = default;
  LineBuffer(int64_t base_word, int64_t region_bytes, int64_t line_bytes)
      : base_(base_word), line_words_(line_bytes / 4), line_mod_(line_words_),
        slots_(std::max<int64_t>(1, region_bytes / line_bytes)), slot_mod_(slots_),
        tag_(static_cast<size_t>(slots_), -1), dirty_(static_cast<size_t>(slots_), 0) {
    shift_ = line_mod_.mask >= 0 ? __builtin_ctzll(static_cast<uint64_t>(line_words_)) : -1;
  }

  // Scratchpad word address serving array word `w`; records misses and write-backs in `dma`.
  int64_t access(int64_t w, bool write, Dma& dma, int64_t& misses) {
    const int64_t line = shift_ >= 0 ? (w >> shift_) : w / line_words_;
    const int64_t slot = slot_mod_(line);
    if (tag_[slot] != line) {
      if (tag_[slot] >= 0 && dirty_[slot]) dma.add(line_words_ * 4);
      dma.add(line_words_ * 4);
      ++misses;
      tag_[slot] = line;
      dirty_[slot] = 0;
    }
    if (write) dirty_[slot] = 1;
    return base_ + slot * line_words_ + (w - line * line_words_);
  }
  void flush(Dma& dma) {
    for (int64_t s = 0; s < slots_; ++s) {
      if (tag_[s] >= 0 && dirty_[s]) dma.add(line_words_ * 4);
    }
    std::fill(tag_.begin(), tag_.end(), -1);
    std::fill(dirty_.begin(), dirty_.end(), 0);
  }
  int64_t line_words() const { return line_words_; }
  // Words left in the line holding `w`.
  int64_t left_in_line(int64_t w) const { return line_words_ - line_mod_(w); }

 private:
  int64_t base_ = 0;
  int64_t line_words_ = 16;
  FastMod line_mod_{16};
  int shift_ = 4;
  int64_t slots_ = 1;
  FastMod slot_mod_{1};
  std::vector<int64_t> tag_;
  std::vector<uint8_t> dirty_;
};

// Configuration load of one launch: every PE gets `ii_slots` configuration words by DMA.
int64_t config_cycles(const Params& p, int64_t ii_slots, Dma* dma);

// Fill in cycles-derived figures: seconds, joules (ops, scratchpad, DRAM, static) and utilisation.
void finish(const Params& p, Counters& c);

// Word address of region `index` starting at byte `offset`: aligned to the bank count and then
// staggered by `index` banks, so different arrays' element i do not all start in one bank.
int64_t region_base(const Params& p, int64_t offset_bytes, int64_t index);

struct SpmmArgs {
  Csr a;
  int64_t row_begin = 0, row_end = 0;
  const void* x = nullptr;
  void* y = nullptr;
  bool f64 = false;
  int64_t k = 0;
  // False: compute the result only, in the order the simulation accumulates it, and leave the
  // counters empty (the caller has this structure's figures from an earlier run).
  bool timing = true;
};
Status spmm(const char* fn, const Params& p, const SpmmArgs& s, Counters* out);

struct BfsArgs {
  Csr g;
  int64_t source = 0;
  int32_t* depth = nullptr;
  // -1: a fresh search from `source`. L >= 0: resume from the depths already in `depth` (each in
  // [-1, L], checked by bfs) at the frontier of depth L.
  int64_t start_level = -1;
  int64_t max_levels = 0;  // stop after this many levels; 0 for no limit
};
Status bfs(const char* fn, const Params& p, const BfsArgs& a, std::vector<int64_t>* frontier, Counters* out);

struct MsBfsArgs {
  Csr g;
  const int32_t* sources = nullptr;
  int64_t num_sources = 0;
  int32_t* depths = nullptr;  // [num_sources * n]
};
Status msbfs(const char* fn, const Params& p, const MsBfsArgs& a, Counters* out);

}  // namespace cgra
}  // namespace dype
