// The `cpu` backend: dype's native kernels on every core. Time is the kernels' own measured wall
// time; energy comes from RAPL where readable, else from the per-core power profile (modelled).

import { cpus, totalmem } from 'node:os';
import { DenseMatrix } from '../../data/dense.js';
import { bfs } from '../../kernels/bfs.js';
import { msbfs } from '../../kernels/msbfs.js';
import { spmmTimed } from '../../kernels/spmm.js';
import { spmvTimed } from '../../kernels/spmv.js';
import { gemmLibrary } from '../../kernels/dense.js';
import { mpiInfo } from '../../distributed/mpi.js';
import { nativeAddon, type NativeGemmInfo } from '../../native/addon.js';
import type { BackendDefinition } from '../backend.js';
import { BackendDevice, entriesIn, everyOperator, type Execution } from '../backend-device.js';
import type { DeviceCapabilities, DevicePower, DeviceSpec } from '../device.js';
import { RaplReader } from '../rapl.js';
import type { CheckedBfs, CheckedMsbfs, CheckedSpmm } from '../run-checks.js';
import { specNumber, type DeviceTraits } from '../traits.js';
import { detectedCacheParams } from './cpu-caches.js';

class CpuDevice extends BackendDevice {
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  readonly traits: DeviceTraits;
  private readonly threads: number;

  constructor(name: string, spec: DeviceSpec) {
    super(cpuBackend, name, { ...spec, params: { ...spec.params, ...detectedCacheParams() } });
    this.threads = nativeAddon().threads();
    const opened = RaplReader.open();
    this.meter = opened instanceof RaplReader ? opened : undefined;
    this.capabilities = everyOperator({ memoryBytes: totalmem(), concurrency: 1, bfsResume: true });
    const at = (key: string): number => specNumber('cpuBackend.create', this.spec, key);
    this.power = {
      idleWatts: at('idleWattsPerCore') * this.threads,
      activeWatts: at('activeWattsPerCore') * this.threads,
      source: this.meter ? 'measured' : 'modelled',
    };
    this.traits = cpuTraits(this.spec, this.threads, this.power);
  }

  protected async spmm(req: CheckedSpmm, fn: string): Promise<Execution> {
    const counters = { threads: this.threads, flops: 2 * entriesIn(req.a, req.range) * req.x.cols };
    if (req.kind === 'spmm') {
      const r = await spmmTimed(fn, req.a, req.x, { rows: req.range });
      return { output: r.y, seconds: r.seconds, counters };
    }
    const r = await spmvTimed(fn, req.a, req.x.data, { rows: req.range });
    return { output: new DenseMatrix(req.range[1] - req.range[0], 1, r.y), seconds: r.seconds, counters };
  }

  protected async bfs(req: CheckedBfs): Promise<Execution> {
    const r = await bfs(req.graph, req.source, {
      inEdges: req.inEdges,
      out: { depth: req.depth },
      ...(req.startLevel >= 0 ? { resume: { depth: req.depth, level: req.startLevel } } : {}),
      ...(req.maxLevels > 0 ? { maxLevels: req.maxLevels } : {}),
    });
    const bottomUpLevels = r.bottomUp.reduce((s, b) => s + b, 0);
    return {
      output: { depth: r.depth, frontier: r.frontier, complete: r.complete },
      seconds: r.seconds,
      counters: { threads: this.threads, edgesExamined: r.edgesExamined, levels: r.frontier.length, bottomUpLevels },
    };
  }

  protected async msbfs(req: CheckedMsbfs): Promise<Execution> {
    const r = await msbfs(req.graph, req.sources.subarray(req.range[0], req.range[1]), { inEdges: req.inEdges });
    return { output: { depths: r.depths }, seconds: r.seconds, counters: { threads: this.threads, edgesExamined: r.edgesExamined } };
  }
}

/**
 * Fixed cost of one native dense call: a few microseconds inline (products under 2^24 flops,
 * passes under 2^21 elements run on the calling thread); larger calls add the async round trip
 * (about 35 us, bench/boundary.ts), small beside their kernels.
 */
const DENSE_LAUNCH_SECONDS = 5e-6;

function cpuTraits(spec: DeviceSpec, threads: number, power: DevicePower): DeviceTraits {
  const at = (key: string): number => specNumber('cpuBackend.create', spec, key);
  const source = (key: string): string => (spec.params[key]!.source.startsWith('read from') ? 'sysfs' : `the ${spec.name} profile`);
  return {
    caches: {
      near: at('l2KbPerCore') * 1024 * threads,
      far: at('llcKb') * 1024,
      source: `L2 per core (from ${source('l2KbPerCore')}) over ${threads} threads, and the last-level cache (from ${source('llcKb')})`,
    },
    // 64 sources per machine word (src/kernels/msbfs.ts).
    searchLanes: 64,
    // The native dense kernels (src/kernels/dense.ts) on every thread of the pool: GEMM at the
    // profile's per-core rate (FP64 at half: half the lanes of a vector), element-wise passes at
    // the streaming bandwidth the sparse loops are priced at (the same memory, the same pool).
    dense: {
      flopsPerSecond: { f32: at('denseGflopsPerCore') * 1e9 * threads, f64: at('denseGflopsPerCore') * 0.5e9 * threads },
      bytesPerSecond: at('streamGbsPerCore') * 1e9 * threads,
      launchSeconds: DENSE_LAUNCH_SECONDS,
      busyWatts: power.activeWatts,
      joulesPerFlop: 0,
      joulesPerByte: 0,
      source: `native dense kernels on ${threads} threads: GEMM at denseGflopsPerCore, passes at streamGbsPerCore (the ${spec.name} profile; measured, docs/dense.md)`,
    },
    sparse: {
      machine: 'multicore',
      cores: threads,
      streamBytesPerSecond: at('streamGbsPerCore') * 1e9 * threads,
      flopsPerSecond: at('sparseGflopsPerCore') * 1e9 * threads,
      busyWatts: power.activeWatts,
    },
  };
}

/** The GEMM the dense kernels call, as `dype system` shows it. */
export function describeGemm(g: NativeGemmInfo): string {
  if (g.library === 'openblas') return `OpenBLAS ${g.version}, ${g.threads} threads (${g.threading})`;
  return `dype's built-in blocked kernel, ${g.threads} threads (${g.reason})`;
}

export const cpuBackend: BackendDefinition = {
  name: 'cpu',
  description: 'the native C++ kernels on every core of this machine (measured time; RAPL or modelled energy)',
  kind: 'cpu',
  simulated: false,
  hostMemory: true,
  defaultProfile: 'server-core',
  params: {
    activeWattsPerCore: { min: 0, max: 1000, unit: 'W', description: 'power of one fully busy core' },
    idleWattsPerCore: { min: 0, max: 1000, unit: 'W', description: 'power of one idle core' },
    l2KbPerCore: { min: 1, max: 2 ** 20, unit: 'KiB', description: 'L2 cache per core (read from sysfs where Linux reports it)' },
    llcKb: { min: 1, max: 2 ** 24, unit: 'KiB', description: 'last-level cache (read from sysfs where Linux reports it)' },
    streamGbsPerCore: { min: 0.01, max: 1000, unit: 'GB/s', description: 'streaming bandwidth of one core on sparse loops' },
    sparseGflopsPerCore: { min: 0.01, max: 10000, unit: 'GFLOP/s', description: 'throughput of one core on sparse loops' },
    denseGflopsPerCore: { min: 0.01, max: 100000, unit: 'GFLOP/s', description: 'FP32 GEMM throughput of one core on the native dense kernels (FP64 at half)' },
  },
  async probe() {
    const rapl = RaplReader.open();
    const cpuModel = cpus()[0]?.model.trim() ?? 'unknown CPU';
    const energy = rapl instanceof RaplReader ? 'energy from RAPL' : `energy modelled (${rapl.reason})`;
    const metis = nativeAddon().metisInfo();
    const partitioning = metis.available ? 'METIS' : `row blocks only (no METIS: ${metis.reason})`;
    const mpi = mpiInfo();
    const distributed = mpi.available ? `${mpi.library} (under mpirun)` : `unavailable (${mpi.reason})`;
    const kept = nativeAddon().memoryRetention();
    const freed = kept.applied ? `kept for reuse (up to ${kept.keepFreeBytes >> 20} MiB)` : `handed back (${kept.reason})`;
    return {
      available: true,
      detail: `${cpuModel}, ${nativeAddon().threads()} threads, ${energy}, GEMM: ${describeGemm(gemmLibrary())}, partitioning: ${partitioning}, distributed runs: ${distributed}, freed memory: ${freed}`,
    };
  },
  create(name, spec) {
    return new CpuDevice(name, spec);
  },
};
