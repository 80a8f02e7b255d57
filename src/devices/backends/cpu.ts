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
import { checkRun } from '../run-checks.js';

class CpuDevice implements Device {
  readonly backend = 'cpu';
  readonly kind = 'cpu' as const;
  readonly simulated = false;
  readonly memorySpace = 'host';
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  private readonly threads: number;
  private readonly rapl: RaplReader | undefined;

  constructor(
    readonly name: string,
    readonly spec: DeviceSpec,
  ) {
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
