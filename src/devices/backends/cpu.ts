// The `cpu` backend: dype's native kernels on every core. Time is the kernels' own measured wall
// time; energy comes from RAPL where readable, else from the per-core power profile (modelled).

import { cpus, totalmem } from 'node:os';
import { DenseMatrix } from '../../data/dense.js';
import { bfs } from '../../kernels/bfs.js';
import { msbfs } from '../../kernels/msbfs.js';
import { spmmTimed } from '../../kernels/spmm.js';
import { spmvTimed } from '../../kernels/spmv.js';
import { nativeAddon } from '../../native/addon.js';
import type { BackendDefinition } from '../backend.js';
import type {
  Device,
  DeviceCapabilities,
  DevicePower,
  DeviceResult,
  DeviceSpec,
  InputsOf,
  OperatorKind,
  OperatorOf,
  OutputOf,
  RowRange,
  RunOptions,
} from '../device.js';
import { RaplReader } from '../rapl.js';
import { specNumber, type DeviceTraits } from '../traits.js';
import { detectedCacheParams } from './cpu-caches.js';
import { checkRun } from '../run-checks.js';

class CpuDevice implements Device {
  readonly backend = 'cpu';
  readonly kind = 'cpu' as const;
  readonly simulated = false;
  readonly memorySpace = 'host';
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  readonly spec: DeviceSpec;
  readonly traits: DeviceTraits;
  private readonly threads: number;
  private readonly rapl: RaplReader | undefined;

  constructor(
    readonly name: string,
    spec: DeviceSpec,
  ) {
    this.spec = { ...spec, params: { ...spec.params, ...detectedCacheParams() } };
    this.threads = nativeAddon().threads();
    const opened = RaplReader.open();
    this.rapl = opened instanceof RaplReader ? opened : undefined;
    this.capabilities = {
      operators: ['spmm', 'spmv', 'bfs', 'msbfs'],
      precisions: ['f32', 'f64'],
      memoryBytes: totalmem(),
      concurrency: 1,
      bfsResume: true,
    };
    const active = spec.params['activeWattsPerCore']!.value;
    const idle = spec.params['idleWattsPerCore']!.value;
    this.power = { idleWatts: idle * this.threads, activeWatts: active * this.threads, source: this.rapl ? 'measured' : 'modelled' };
    this.traits = cpuTraits(this.spec, this.threads, this.power);
  }

  async run<K extends OperatorKind>(
    op: OperatorOf<K>,
    inputs: InputsOf<K>,
    range?: RowRange,
    options?: RunOptions,
  ): Promise<DeviceResult<K>> {
    const req = checkRun(this, op, inputs, range, options);
    const fn = `${this.name}.run`;
    const before = this.rapl?.sample();
    let output: OutputOf<OperatorKind>;
    let seconds: number;
    const counters: Record<string, number> = { threads: this.threads };
    switch (req.kind) {
      case 'spmm': {
        const r = await spmmTimed(fn, req.a, req.x, { rows: req.range });
        ({ seconds } = r);
        output = r.y;
        counters['flops'] = 2 * rangeNnz(req.a.rowPtr, req.range) * req.x.cols;
        break;
      }
      case 'spmv': {
        const r = await spmvTimed(fn, req.a, req.x.data, { rows: req.range });
        ({ seconds } = r);
        output = new DenseMatrix(req.range[1] - req.range[0], 1, r.y);
        counters['flops'] = 2 * rangeNnz(req.a.rowPtr, req.range);
        break;
      }
      case 'bfs': {
        const r = await bfs(req.graph, req.source, {
          inEdges: req.inEdges,
          out: { depth: req.depth },
          ...(req.startLevel >= 0 ? { resume: { depth: req.depth, level: req.startLevel } } : {}),
          ...(req.maxLevels > 0 ? { maxLevels: req.maxLevels } : {}),
        });
        ({ seconds } = r);
        output = { depth: r.depth, frontier: r.frontier, complete: r.complete };
        counters['edgesExamined'] = r.edgesExamined;
        counters['levels'] = r.frontier.length;
        counters['bottomUpLevels'] = r.bottomUp.reduce((s, b) => s + b, 0);
        break;
      }
      case 'msbfs': {
        const r = await msbfs(req.graph, req.sources.subarray(req.range[0], req.range[1]), { inEdges: req.inEdges });
        ({ seconds } = r);
        output = { depths: r.depths };
        counters['edgesExamined'] = r.edgesExamined;
        break;
      }
    }
    let joules: number;
    if (this.rapl && before) {
      joules = this.rapl.joulesBetween(before, this.rapl.sample());
    } else {
      // Every participating thread busy for the kernel's duration.
      joules = this.power.activeWatts * seconds;
    }
    return {
      device: this.name,
      operator: op.kind as K,
      output: output as OutputOf<K>,
      seconds,
      joules,
      source: 'measured',
      energySource: this.power.source,
      counters,
    };
  }

  async dispose(): Promise<void> {}
}

/**
 * Host dense operators are the TypeScript loops in src/workloads/dense-kernels.ts, one thread.
 * Measured here (2 vCPU EPYC, Node 20): GEMM 65536x64 by 64x16 about 1.2 GFLOP/s f32; streaming
 * element-wise loops about 4 GB/s. Rounded down; calibration does not cover them.
 */
const HOST_TS_FLOPS = 1.0e9;
const HOST_TS_BYTES = 4.0e9;

function cpuTraits(spec: DeviceSpec, threads: number, power: DevicePower): DeviceTraits {
  const at = (key: string): number => specNumber('cpuBackend.create', spec, key);
  const source = (key: string): string => (spec.params[key]!.source.startsWith('read from') ? 'sysfs' : `the ${spec.name} profile`);
  return {
    caches: {
      near: at('l2KbPerCore') * 1024 * threads,
      far: at('llcKb') * 1024,
      source: `L2 per core (from ${source('l2KbPerCore')}) over ${threads} threads, and the last-level cache (from ${source('llcKb')})`,
    },
    dense: {
      flopsPerSecond: { f32: HOST_TS_FLOPS, f64: HOST_TS_FLOPS * 0.9 },
      bytesPerSecond: HOST_TS_BYTES,
      launchSeconds: 2e-6,
      busyWatts: power.activeWatts / threads,
      joulesPerFlop: 0,
      joulesPerByte: 0,
      source: 'host TypeScript loops, one core (measured throughput, rounded down)',
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

function rangeNnz(rowPtr: Int32Array | BigInt64Array, [b, e]: RowRange): number {
  return Number(rowPtr[e]!) - Number(rowPtr[b]!);
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
  },
  async probe() {
    const rapl = RaplReader.open();
    const cpuModel = cpus()[0]?.model.trim() ?? 'unknown CPU';
    const energy = rapl instanceof RaplReader ? 'energy from RAPL' : `energy modelled (${rapl.reason})`;
    return { available: true, detail: `${cpuModel}, ${nativeAddon().threads()} threads, ${energy}` };
  },
  create(name, spec) {
    return new CpuDevice(name, spec);
  },
};
