// The machine-level pieces of the CGRA model shared by every kernel: the II of a loop from its
// dataflow graph, DMA time, configuration load, and the energy and utilisation roll-up.
#include <algorithm>

#include "cgra.h"

namespace dype {
namespace cgra {

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

int64_t LoopDfg::ii(const Params& p) const {
  // Memory operations run on the memory-capable PEs, which are PEs too: they count against both
  // the port bound and the whole-array bound.
  const int64_t res_all = ceil_div(alu_ops + mem_ops, p.pes());
  const int64_t res_mem = ceil_div(mem_ops, p.mem_ports);
  return std::max<int64_t>({1, res_all, res_mem, rec_mii});
}

int64_t Dma::cycles(const Params& p) const {
  if (bytes == 0 && transactions == 0) return 0;
  // Bandwidth and latency are both integers of cycles per partition so that summing partitions
  // gives the same total whatever the thread count.
  const double transfer = static_cast<double>(bytes) / p.dma_bytes_per_cycle;
  const int64_t latency = ceil_div(transactions * p.dma_latency, p.dma_outstanding);
  return static_cast<int64_t>(transfer + 0.999999) + latency;
}

int64_t config_cycles(const Params& p, int64_t ii_slots, Dma* dma) {
  Dma d;
  d.add(p.pes() * ii_slots * p.config_bytes_per_slot);
  if (dma) dma->add(d.bytes, d.transactions);
  return d.cycles(p);
}

int64_t region_base(const Params& p, int64_t offset_bytes, int64_t index) {
  const int64_t w = ceil_div(offset_bytes, 4);
  return ceil_div(w, p.spm_banks) * p.spm_banks + index % p.spm_banks;
}

void finish(const Params& p, Counters& c) {
  c.seconds = static_cast<double>(c.cycles) / p.clock_hz;
  const double ops = static_cast<double>(c.alu_ops + c.pe_mem_ops);
  c.joules = (ops * p.op_pj + static_cast<double>(c.spm_accesses) * p.spm_access_pj +
              static_cast<double>(c.dram_bytes) * p.dram_byte_pj) * 1e-12 +
             p.static_watts * c.seconds;
  c.utilisation = c.cycles > 0 ? ops / (static_cast<double>(p.pes()) * static_cast<double>(c.cycles)) : 0.0;
}

}  // namespace cgra
}  // namespace dype
