// Coefficients before calibration, derived from each device's own rates (its traits): a
// bytes-over-bandwidth, flops-over-peak, launches-times-overhead reading of every basis term.
// They rank devices sensibly but can be off by several times; a model using them says it is
// `uncalibrated`. Calibration also pulls its fits towards them (see calibrate.ts).

import type { Device } from '../devices/device.js';
import type { SparseTraits } from '../devices/traits.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { TERMS, type ModelOperator, type TermDevice } from './packed.js';

export interface Coefficients {
  readonly time: readonly number[];
  readonly energy: readonly number[];
}

/**
 * What the terms read of a device, as it states it (its traits): the two cache capacities of
 * the "beyond near/far cache" terms and the sources its multi-source BFS carries per word.
 * @throws {InvalidArgumentError} for something that is not a device with traits.
 */
export function termDevice(device: Device): TermDevice {
  const t = traitsOf('termDevice', device);
  return { near: t.caches.near, far: t.caches.far, lanes: t.searchLanes };
}

/**
 * Spec-derived coefficients of every operator the model knows, for one device.
 * @throws {InvalidArgumentError} for something that is not a device with traits.
 */
export function defaultCoefficients(device: Device): Record<ModelOperator, Coefficients> {
  const sparse = traitsOf('defaultCoefficients', device).sparse;
  const time = timeRows(sparse);
  const out = {} as Record<ModelOperator, Coefficients>;
  for (const op of Object.keys(TERMS) as ModelOperator[]) {
    // Energy: the device's busy power over the predicted time, term by term.
    out[op] = { time: time[op], energy: time[op].map((c) => c * sparse.busyWatts) };
  }
  return out;
}

function traitsOf(fn: string, device: Device): Device['traits'] {
  const traits = (device as { traits?: Device['traits'] } | null)?.traits;
  if (traits === undefined) throw new InvalidArgumentError(`${fn}: device must be a device of a System (with traits), got ${describe(device)}`);
  return traits;
}

/** Seconds per unit of each term, per operator, read from the rates of each kind of machine. */
function timeRows(t: SparseTraits): Record<ModelOperator, number[]> {
  switch (t.machine) {
    case 'multicore': {
      const bw = t.streamBytesPerSecond;
      const line = 64 / bw;
      const spmm = [5e-6, 8 / bw, 8 / bw, 2 / t.flopsPerSecond, 0.1 * line, 0.3 * line, line, line, 0];
      return {
        spmm,
        spmv: spmm,
        bfs: [10e-6, 2e-6, 8 / bw, 0, 0.3 * line, line, 4 / bw, 12 / bw, 8 / bw],
        msbfs: [10e-6, 2e-6, 4 / bw, 16 / bw, 16 / bw, 0.3 * line, line, 16 / bw, 0.3 * line],
      };
    }
    case 'simt': {
      const dram = t.dramBytesPerSecond;
      const l2 = t.l2BytesPerSecond;
      const launch = t.launchSeconds;
      const spmm = [launch, 8 / dram, 8 / dram, 2 / t.flopsPerSecond, 32 / l2, 32 / l2, 64 / dram, 64 / dram, 4 / t.clockHz];
      return {
        spmm,
        spmv: spmm,
        bfs: [launch, 2 * launch, 4 / dram, 0, 32 / l2, 32 / dram, 4 / dram, 8 / dram, 8 / dram],
        msbfs: [launch, 2 * launch, 4 / dram, 16 / dram, 16 / dram, 32 / l2, 32 / dram, 16 / dram, 32 / l2],
      };
    }
    case 'spatial': {
      const cycle = 1 / t.clockHz;
      const ports = t.memoryPorts;
      const dma = t.dmaBytesPerCycle;
      const latency = t.dmaLatencyCycles;
      const pass = t.passOverheadCycles;
      const spmm = [
        2000 * cycle,
        4 * cycle,
        (2 / ports) * cycle,
        (1 / ports) * cycle,
        0,
        (64 / dma) * cycle,
        (latency + 64 / dma) * cycle,
        (64 / dma) * cycle,
        0,
      ];
      return {
        spmm,
        spmv: spmm,
        // Every depth starts at -1 by a DMA fill (4 bytes a vertex) unless it fits the scratchpad.
        bfs: [2000 * cycle, pass * cycle, (4 / dma) * cycle, 1 * cycle, 0.5 * latency * cycle, latency * cycle, 2 * cycle, 0, 0],
        // A repeat activation re-runs the push loop over the vertex's edges (II = 2).
        msbfs: [2000 * cycle, 2 * pass * cycle, cycle / 8, 2 * cycle, 2 * cycle, 0.5 * latency * cycle, latency * cycle, 2 * cycle, 0.5 * latency * cycle],
      };
    }
  }
}
