// What a device says about itself for pricing work before anything runs: its rates and caches,
// read from its backend and profile. The cost model (src/cost) turns these into coefficients; it
// asks the device instead of looking parameters up by name, so a backend that lacks one fails
// when it is built, never silently with someone else's number.

import type { Precision } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { DeviceSpec } from './device.js';
import type { ParamRules } from './spec.js';

/**
 * The two cache capacities the cost model's miss terms refer to, in bytes: `near` the first
 * level a gather stream overflows, `far` the last before memory. What they are differs per
 * device (CPU L2 over its cores and LLC, GPU L1 over its SMs and L2, the part of a CGRA
 * scratchpad that holds gathered rows); `source` says which.
 */
export interface CacheTraits {
  readonly near: number;
  readonly far: number;
  readonly source: string;
}

/**
 * A device's roofline for the operators it does not run as sparse kernels (GEMM, element-wise,
 * reductions): time = launch + max(flops / peak, bytes / bandwidth), energy from busy power or
 * per-operation energies.
 */
export interface DenseTraits {
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
 * What the cost model's starting point before calibration is made of: the rates of the device's
 * sparse kernels, in the vocabulary of its kind of machine. The cost model reads each kind's
 * fields in its own way (docs/cost-model.md, "Defaults"); a new backend picks the kind whose
 * fields it can state, or adds one there.
 */
export type SparseTraits =
  /** Cores streaming from a shared memory (the CPU). */
  | {
      readonly machine: 'multicore';
      readonly cores: number;
      readonly streamBytesPerSecond: number;
      /** Throughput of the sparse loops (not the vector peak). */
      readonly flopsPerSecond: number;
      readonly busyWatts: number;
    }
  /** Kernel launches over many SMs with device memory and an L2 (a GPU). */
  | {
      readonly machine: 'simt';
      readonly dramBytesPerSecond: number;
      readonly l2BytesPerSecond: number;
      readonly launchSeconds: number;
      readonly flopsPerSecond: number;
      readonly clockHz: number;
      readonly busyWatts: number;
    }
  /** A configured array fed by DMA into a scratchpad (a CGRA). */
  | {
      readonly machine: 'spatial';
      readonly clockHz: number;
      readonly memoryPorts: number;
      readonly dmaBytesPerCycle: number;
      /** DMA latency per transaction once the outstanding ones overlap, in cycles. */
      readonly dmaLatencyCycles: number;
      readonly passOverheadCycles: number;
      readonly busyWatts: number;
    };

/** Everything a device states for the planner and the cost model. */
export interface DeviceTraits {
  readonly caches: CacheTraits;
  /** Sources its multi-source BFS carries in one bit-parallel word (its kernel's word width). */
  readonly searchLanes: number;
  readonly dense: DenseTraits;
  readonly sparse: SparseTraits;
}

/**
 * The value of parameter `key` of a spec.
 * @throws {InvalidArgumentError} naming `fn`, the spec and the key when the spec lacks it.
 */
export function specNumber(fn: string, spec: DeviceSpec, key: string): number {
  const p = spec.params[key];
  if (p === undefined || typeof p.value !== 'number' || !Number.isFinite(p.value)) {
    throw new InvalidArgumentError(`${fn}: spec ${describe(spec.name)} lacks ${key} (got ${describe(p?.value)})`);
  }
  return p.value;
}

/** The parameters {@link gpuTraits} reads, shared by every GPU backend's rules. */
export const GPU_TRAIT_PARAMS: ParamRules = {
  sms: { min: 1, max: 1024, integer: true, unit: 'SMs', description: 'streaming multiprocessors' },
  clockMhz: { min: 100, max: 5000, unit: 'MHz', description: 'SM clock under load (boost)' },
  l1KbPerSm: { min: 1, max: 4096, unit: 'KiB', description: 'L1 data cache per SM (lookups of small tables stay here)' },
  l2Mb: { min: 0.1, max: 1024, unit: 'MB', description: 'L2 cache' },
  dramGbs: { min: 1, max: 100000, unit: 'GB/s', description: 'peak device-memory bandwidth' },
  l2Gbs: { min: 1, max: 100000, unit: 'GB/s', description: 'L2 bandwidth' },
  launchUs: { min: 0.01, max: 1000, unit: 'us', description: 'kernel launch overhead' },
  fp32Tflops: { min: 0.01, max: 10000, unit: 'TFLOP/s', description: 'peak FP32 (non-tensor)' },
  fp64Tflops: { min: 0.01, max: 10000, unit: 'TFLOP/s', description: 'peak FP64 (non-tensor)' },
};

/** Fraction of peak a skinny GEMM or a streaming loop reaches on a GPU (assumption). */
const GPU_FLOP_EFFICIENCY = 0.5;
const GPU_BANDWIDTH_EFFICIENCY = 0.8;

/**
 * Traits of a GPU, simulated or real, from the parameters its spec gives (the gpu-sim names; the
 * CUDA backend fills them from the device where it can read them).
 * @throws {InvalidArgumentError} when the spec lacks one of them.
 */
export function gpuTraits(fn: string, spec: DeviceSpec, power: { readonly idleWatts: number; readonly activeWatts: number }): DeviceTraits {
  const at = (key: string): number => specNumber(fn, spec, key);
  const idle = power.idleWatts;
  return {
    caches: {
      near: at('l1KbPerSm') * 1024 * at('sms'),
      far: at('l2Mb') * 1e6,
      source: `L1 over all SMs and L2 of the ${spec.name} spec`,
    },
    // Both GPU backends' multi-source searches take 64 sources a batch (docs/gpu-sim.md).
    searchLanes: 64,
    dense: {
      flopsPerSecond: { f32: at('fp32Tflops') * 1e12 * GPU_FLOP_EFFICIENCY, f64: at('fp64Tflops') * 1e12 * GPU_FLOP_EFFICIENCY },
      bytesPerSecond: at('dramGbs') * 1e9 * GPU_BANDWIDTH_EFFICIENCY,
      launchSeconds: at('launchUs') * 1e-6,
      busyWatts: power.activeWatts,
      joulesPerFlop: 0,
      joulesPerByte: 0,
      source: `roofline from the ${spec.name} spec (fp32/fp64 peak x ${GPU_FLOP_EFFICIENCY}, DRAM bandwidth x ${GPU_BANDWIDTH_EFFICIENCY})`,
    },
    sparse: {
      machine: 'simt',
      dramBytesPerSecond: at('dramGbs') * 1e9,
      l2BytesPerSecond: at('l2Gbs') * 1e9,
      launchSeconds: at('launchUs') * 1e-6,
      flopsPerSecond: at('fp32Tflops') * 1e12,
      clockHz: at('clockMhz') * 1e6,
      // A memory-bound kernel draws well under the board limit.
      busyWatts: idle + 0.4 * (power.activeWatts - idle),
    },
  };
}
