// Roofline costs of the operators the devices do not run as native sparse kernels (GEMM,
// element-wise, reductions, SDDMM): time = launch + max(flops / peak, bytes / bandwidth), energy
// from the device's power or per-operation energies. Modelled, and labelled so wherever shown;
// the true results of these operators are computed on the host.

import type { Precision } from '../data/dense.js';
import type { Device } from '../devices/device.js';

/** A device's dense throughput, from its spec. */
export interface DenseRates {
  readonly flopsPerSecond: Readonly<Record<Precision, number>>;
  readonly bytesPerSecond: number;
  /** Fixed cost per operator (kernel launch, array configuration). */
  readonly launchSeconds: number;
  /** Energy: watts while busy, plus per-flop and per-byte energies where the spec gives them. */
  readonly busyWatts: number;
  readonly joulesPerFlop: number;
  readonly joulesPerByte: number;
  readonly source: string;
}

/**
 * Host (CPU) dense operators are the TypeScript loops in src/workloads/dense-kernels.ts, one
 * thread. Measured here (2 vCPU EPYC, Node 20): GEMM 65536x64 by 64x16 about 1.2 GFLOP/s f32;
 * streaming element-wise loops about 4 GB/s. Rounded down; calibration does not cover them.
 */
const HOST_TS_FLOPS = 1.0e9;
const HOST_TS_BYTES = 4.0e9;
/** Fraction of peak a skinny GEMM or a streaming loop reaches on an accelerator (assumption). */
const GPU_FLOP_EFFICIENCY = 0.5;
const GPU_BANDWIDTH_EFFICIENCY = 0.8;

function param(device: Device, key: string, fallback: number): number {
  return device.spec.params[key]?.value ?? fallback;
}

/** Dense rates of a device, from its spec parameters. */
export function denseRates(device: Device): DenseRates {
  switch (device.kind) {
    case 'gpu': {
      const f32 = param(device, 'fp32Tflops', 60) * 1e12 * GPU_FLOP_EFFICIENCY;
      const f64 = param(device, 'fp64Tflops', 30) * 1e12 * GPU_FLOP_EFFICIENCY;
      return {
        flopsPerSecond: { f32, f64 },
        bytesPerSecond: param(device, 'dramGbs', 2000) * 1e9 * GPU_BANDWIDTH_EFFICIENCY,
        launchSeconds: param(device, 'launchUs', 5) * 1e-6,
        busyWatts: device.power.activeWatts,
        joulesPerFlop: 0,
        joulesPerByte: 0,
        source: `roofline from the ${device.spec.name} spec (fp32/fp64 peak x ${GPU_FLOP_EFFICIENCY}, DRAM bandwidth x ${GPU_BANDWIDTH_EFFICIENCY})`,
      };
    }
    case 'cgra': {
      const clock = param(device, 'clockHz', 1e9);
      const pes = param(device, 'peRows', 4) * param(device, 'peCols', 4);
      const fp64Slots = param(device, 'fp64OpSlots', pes / 2);
      return {
        // One multiply-add (2 flops) per PE per cycle when the loop is fully pipelined.
        flopsPerSecond: { f32: 2 * pes * clock, f64: 2 * fp64Slots * clock },
        bytesPerSecond: param(device, 'dmaBytesPerCycle', 8) * clock,
        launchSeconds: param(device, 'passOverheadCycles', 100) / clock,
        busyWatts: param(device, 'staticWatts', 0.1),
        joulesPerFlop: (param(device, 'opEnergyPj', 8.7) * 1e-12) / 2,
        joulesPerByte: param(device, 'dramByteEnergyPj', 20) * 1e-12,
        source: `roofline from the ${device.spec.name} spec (one multiply-add per PE per cycle, DMA bandwidth)`,
      };
    }
    default:
      return {
        flopsPerSecond: { f32: HOST_TS_FLOPS, f64: HOST_TS_FLOPS * 0.9 },
        bytesPerSecond: HOST_TS_BYTES,
        launchSeconds: 2e-6,
        busyWatts: device.power.activeWatts / Math.max(1, Math.round(device.power.activeWatts / param(device, 'activeWattsPerCore', 3.75))),
        joulesPerFlop: 0,
        joulesPerByte: 0,
        source: 'host TypeScript loops, one core (measured throughput, rounded down)',
      };
  }
}

/** Modelled time and energy of a dense operator of `flops` and `bytes` on a device. */
export function denseCost(rates: DenseRates, flops: number, bytes: number, precision: Precision): { seconds: number; joules: number } {
  const seconds = rates.launchSeconds + Math.max(flops / rates.flopsPerSecond[precision], bytes / rates.bytesPerSecond);
  return { seconds, joules: seconds * rates.busyWatts + flops * rates.joulesPerFlop + bytes * rates.joulesPerByte };
}
