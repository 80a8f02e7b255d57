// gpu-sim: from a kernel's traced counts to its time, and from a run's totals to its energy.
// The kernel takes as long as its tightest bound (DRAM, L2, issue, arithmetic, or its slowest
// warp) plus the launch; achieved DRAM bandwidth is what the resident warps can keep in flight.
#include <algorithm>

#include "gpu_model.h"

namespace dype {
namespace gpusim {

KernelCost kernel_cost(const KernelTrace& t, const GpuParams& p, bool fp64) {
  KernelCost c;
  const double slots = p.sms * p.max_warps_per_sm;
  const double resident = std::min(t.warps, slots);
  c.occupancy = slots > 0 ? resident / slots : 0;
  // Little's law: bytes in flight / latency. A handful of warps cannot saturate HBM, however
  // fast it is; a full GPU can, and then the peak is the limit.
  const double in_flight = resident * p.sectors_in_flight_per_warp * 32.0;
  c.achieved_bandwidth = std::min(p.dram_bytes_per_s, in_flight / p.latency_s);
  if (t.dram_bytes > 0 && c.achieved_bandwidth > 0) c.dram_s = t.dram_bytes / c.achieved_bandwidth;
  c.l2_s = t.l2_sectors * 32.0 / p.l2_bytes_per_s;
  // Each warp issues at most one instruction a cycle; each SM issues schedulers_per_sm.
  const double issue_rate = std::min(t.warps, p.sms * p.schedulers_per_sm) * p.clock_hz;
  if (t.instructions > 0 && issue_rate > 0) c.issue_s = t.instructions / issue_rate;
  c.flop_s = t.flops / (fp64 ? p.fp64_flops : p.fp32_flops);
  c.tail_s = t.longest_warp_cycles / p.clock_hz;
  const double busy = std::max({c.dram_s, c.l2_s, c.issue_s, c.flop_s, c.tail_s});
  c.seconds = static_cast<double>(t.launches) * p.launch_s + busy;
  return c;
}

double dram_bytes_for_reuse(double unique_sectors, double requested_sectors, double footprint_bytes, const GpuParams& p) {
  const double reuse = std::max(0.0, requested_sectors - unique_sectors);
  const double miss = footprint_bytes > p.l2_bytes ? 1.0 - p.l2_bytes / footprint_bytes : 0.0;
  return (unique_sectors + reuse * miss) * 32.0;
}

void RunReport::finish_energy(const GpuParams& p) {
  const double dynamic = dram_bytes * p.dram_j_per_byte + l2_sectors * p.l2_j_per_sector + flops * p.j_per_flop +
                         instructions * p.j_per_warp_instruction;
  joules = p.idle_w * seconds + dynamic;
  const double cap = p.tdp_w * seconds;
  power_capped = joules > cap ? 1 : 0;
  if (joules > cap) joules = cap;
}

}  // namespace gpusim
}  // namespace dype
