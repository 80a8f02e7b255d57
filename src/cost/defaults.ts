// Coefficients before calibration, derived from each device's spec: a bytes-over-bandwidth,
// flops-over-peak, launches-times-overhead reading of every basis term. They rank devices
// sensibly but can be off by several times; a model using them says it is `uncalibrated`.

import { readFileSync } from 'node:fs';
import type { Device } from '../devices/device.js';
import { type Caches, TERMS, type ModelOperator } from './packed.js';

export interface Coefficients {
  readonly time: readonly number[];
  readonly energy: readonly number[];
}

function param(device: Device, key: string, fallback: number): number {
  return device.spec.params[key]?.value ?? fallback;
}

let cpuCaches: Caches | undefined;

/** Size of the CPU cache at sysfs index `index` (Linux), or undefined. */
function sysfsCache(index: number): number | undefined {
  try {
    const text = readFileSync(`/sys/devices/system/cpu/cpu0/cache/index${index}/size`, 'utf8').trim();
    const m = /^(\d+)([KMG]?)/.exec(text);
    return m ? Number(m[1]) * ({ '': 1, K: 1024, M: 2 ** 20, G: 2 ** 30 } as Record<string, number>)[m[2]!]! : undefined;
  } catch {
    return undefined; // not Linux, or no such level
  }
}

/**
 * The two cache capacities the model's "beyond near/far cache" terms refer to: CPU L2 (all
 * cores) and LLC from sysfs (1 MiB per core and 32 MiB when unreadable), GPU L1 (all SMs) and L2,
 * and an eighth and a half of a CGRA scratchpad (the rest holds tiles of A and Y).
 */
export function cachesOf(device: Device): Caches {
  switch (device.kind) {
    case 'gpu':
      return { near: param(device, 'l1KbPerSm', 128) * 1024 * param(device, 'sms', 100), far: param(device, 'l2Mb', 50) * 1e6 };
    case 'cgra': {
      const spm = param(device, 'spmBytes', 65536);
      return { near: spm / 8, far: spm / 2 };
    }
    default: {
      if (!cpuCaches) {
        const threads = Math.max(1, Math.round(device.power.activeWatts / Math.max(1e-9, param(device, 'activeWattsPerCore', 3.75))));
        cpuCaches = { near: (sysfsCache(2) ?? 2 ** 20) * threads, far: sysfsCache(3) ?? 32 * 2 ** 20 };
      }
      return cpuCaches;
    }
  }
}

/** Spec-derived coefficients of every operator the model knows, for one device. */
export function defaultCoefficients(device: Device): Record<ModelOperator, Coefficients> {
  const rows = device.kind === 'gpu' ? gpuDefaults(device) : device.kind === 'cgra' ? cgraDefaults(device) : cpuDefaults(device);
  const out = {} as Record<ModelOperator, Coefficients>;
  for (const op of Object.keys(TERMS) as ModelOperator[]) {
    const time = rows.time[op];
    // Energy: the device's busy power over the predicted time, term by term.
    out[op] = { time, energy: time.map((c) => c * rows.busyWatts) };
  }
  return out;
}

interface DefaultRows {
  readonly time: Record<ModelOperator, number[]>;
  readonly busyWatts: number;
}

function cpuDefaults(device: Device): DefaultRows {
  // Spec: only power; bandwidth and throughput are conservative figures for one server core.
  const threads = Math.max(1, device.power.activeWatts / Math.max(1e-9, param(device, 'activeWattsPerCore', 3.75)));
  const bw = 10e9 * threads; // assumption: ~10 GB/s of streaming bandwidth per core
  const flops = 16e9 * threads; // assumption: ~16 GFLOP/s per core on sparse loops
  const line = 64 / bw;
  const spmm = [5e-6, 8 / bw, 8 / bw, 2 / flops, 0.1 * line, 0.3 * line, line, line, 0];
  return {
    time: {
      spmm,
      spmv: spmm,
      bfs: [10e-6, 2e-6, 8 / bw, 0, 0.3 * line, line, 4 / bw, 12 / bw, 8 / bw],
      msbfs: [10e-6, 2e-6, 4 / bw, 16 / bw, 16 / bw, 0.3 * line, line, 0.3 * line],
    },
    busyWatts: device.power.activeWatts,
  };
}

function gpuDefaults(device: Device): DefaultRows {
  const dram = param(device, 'dramGbs', 2000) * 1e9;
  const l2 = param(device, 'l2Gbs', 5000) * 1e9;
  const launch = param(device, 'launchUs', 5) * 1e-6;
  const flops = param(device, 'fp32Tflops', 60) * 1e12;
  const clock = param(device, 'clockMhz', 1500) * 1e6;
  const spmm = [launch, 8 / dram, 8 / dram, 2 / flops, 32 / l2, 32 / l2, 64 / dram, 64 / dram, 4 / clock];
  const idle = device.power.idleWatts;
  return {
    time: {
      spmm,
      spmv: spmm,
      bfs: [launch, 2 * launch, 4 / dram, 0, 32 / l2, 32 / dram, 4 / dram, 8 / dram, 8 / dram],
      msbfs: [launch, 2 * launch, 4 / dram, 16 / dram, 16 / dram, 32 / l2, 32 / dram, 32 / l2],
    },
    // A memory-bound kernel draws well under the board limit.
    busyWatts: idle + 0.4 * (device.power.activeWatts - idle),
  };
}

function cgraDefaults(device: Device): DefaultRows {
  const clock = param(device, 'clockHz', 1e9);
  const ports = param(device, 'memPorts', 4);
  const dma = param(device, 'dmaBytesPerCycle', 8);
  const latency = param(device, 'dmaLatencyCycles', 100) / Math.max(1, param(device, 'dmaOutstanding', 4));
  const pass = param(device, 'passOverheadCycles', 200);
  const cycle = 1 / clock;
  const spmm = [2000 * cycle, 4 * cycle, (2 / ports) * cycle, (1 / ports) * cycle, 0, (64 / dma) * cycle, (latency + 64 / dma) * cycle, (64 / dma) * cycle, 0];
  return {
    time: {
      spmm,
      spmv: spmm,
      bfs: [2000 * cycle, pass * cycle, 2 * cycle, 1 * cycle, 0.5 * latency * cycle, latency * cycle, 2 * cycle, 0, 0],
      msbfs: [2000 * cycle, 2 * pass * cycle, cycle / 8, 2 * cycle, 2 * cycle, 0.5 * latency * cycle, latency * cycle, 0.5 * latency * cycle],
    },
    busyWatts: device.power.activeWatts,
  };
}
