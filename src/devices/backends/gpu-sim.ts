// The `gpu-sim` backend: a trace-driven model of a GPU (H100, A100 profiles). The true result is
// computed on the CPU; time and energy are modelled from the actual data (row lengths, column
// indices, BFS frontiers) by the native simulator in native/src/sim/gpu_*.cc.

import type { RowPtrArray, ValueArray } from '../../data/csr.js';
import { DenseMatrix, denseElements, type DenseArray } from '../../data/dense.js';
import { callNative } from '../../kernels/native-call.js';
import { INLINE_WORK, nativeAddon } from '../../native/addon.js';
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
import { checkRun } from '../run-checks.js';
import { specValues, type ParamRules } from '../spec.js';
import { GPU_TRAIT_PARAMS, gpuTraits, type DeviceTraits } from '../traits.js';

/** What every gpu-sim call resolves with: host wall time, modelled time and energy, totals. */
interface GpuSimRun {
  /** Wall time the simulator itself took on the host. */
  readonly seconds: number;
  readonly modelSeconds: number;
  readonly joules: number;
  readonly kernels: number;
  readonly dramBytes: number;
  readonly l2Sectors: number;
  readonly instructions: number;
  readonly occupancy: number;
  readonly powerCapped: number;
  readonly achievedBandwidth: number;
}
interface GpuSimSpmmRun extends GpuSimRun {
  readonly variant: number;
  readonly rowSplitSeconds: number;
  readonly nnzSplitSeconds: number;
  readonly longestWarpSeconds: number;
  readonly traceSeconds: number;
}
interface GpuSimGraphRun extends GpuSimRun {
  readonly levels: number;
  readonly bottomUpLevels: number;
  readonly edgesExamined: number;
}

/** The simulator's exports (native/src/sim/gpu_binding.cc), positional like the CPU kernels. */
interface GpuSimAddon {
  gpuSimSpmm(
    rows: number, cols: number, rowPtr: RowPtrArray, colIdx: Int32Array, values: ValueArray | null,
    x: DenseArray, k: number, y: DenseArray, rowBegin: number, rowEnd: number,
    params: Readonly<Record<string, number>>, inline?: boolean,
  ): Promise<GpuSimSpmmRun>;
  gpuSimSpmv: GpuSimAddon['gpuSimSpmm'];
  /**
   * `startLevel` -1 (default) searches from `source`; L >= 0 resumes from the depths already in
   * `depth` (each in [-1, L]) at the frontier of depth L. `maxLevels` > 0 stops after that many
   * levels (0, the default: no limit). `frontier[0]` is the starting frontier's size.
   */
  gpuSimBfs(
    n: number, rowPtr: RowPtrArray, colIdx: Int32Array, inRowPtr: RowPtrArray, inColIdx: Int32Array,
    source: number, depth: Int32Array, params: Readonly<Record<string, number>>, inline?: boolean,
    startLevel?: number, maxLevels?: number,
  ): Promise<GpuSimGraphRun & { readonly frontier: Float64Array }>;
  gpuSimMsbfs(
    n: number, rowPtr: RowPtrArray, colIdx: Int32Array, inRowPtr: RowPtrArray, inColIdx: Int32Array,
    sources: Int32Array, depths: Int32Array, params: Readonly<Record<string, number>>, inline?: boolean,
  ): Promise<GpuSimGraphRun>;
}

/** The native addon with the simulator's exports (they register themselves; see native/src/sim). */
export function gpuSimAddon(): GpuSimAddon {
  return nativeAddon() as unknown as GpuSimAddon;
}

const GB = 1e9;

class GpuSimDevice implements Device {
  readonly backend = 'gpu-sim';
  readonly kind = 'gpu' as const;
  readonly simulated = true;
  readonly memorySpace: string;
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  readonly traits: DeviceTraits;
  private readonly values: Readonly<Record<string, number>>;

  constructor(
    readonly name: string,
    readonly spec: DeviceSpec,
  ) {
    this.values = specValues(spec);
    this.memorySpace = name;
    this.capabilities = {
      operators: ['spmm', 'spmv', 'bfs', 'msbfs'],
      precisions: ['f32', 'f64'],
      memoryBytes: this.values['memoryGb']! * GB,
      concurrency: this.values['streams']!,
      bfsResume: true,
    };
    this.power = { idleWatts: this.values['idleWatts']!, activeWatts: this.values['tdpWatts']!, source: 'simulated' };
    this.traits = gpuTraits('gpuSimBackend.create', spec, this.power);
  }

  async run<K extends OperatorKind>(
    op: OperatorOf<K>,
    inputs: InputsOf<K>,
    range?: RowRange,
    options?: RunOptions,
  ): Promise<DeviceResult<K>> {
    const req = checkRun(this, op, inputs, range, options);
    const fn = `${this.name}.run`;
    const addon = gpuSimAddon();
    const params = this.values;
    let output: OutputOf<OperatorKind>;
    let r: GpuSimRun;
    const counters: Record<string, number> = {};
    switch (req.kind) {
      case 'spmm':
      case 'spmv': {
        const { a, x } = req;
        const [begin, end] = req.range;
        const k = x.cols;
        const size = denseElements(fn, end - begin, k);
        const y = new DenseMatrix(end - begin, k, x.precision === 'f32' ? new Float32Array(size) : new Float64Array(size));
        const call = req.kind === 'spmm' ? addon.gpuSimSpmm : addon.gpuSimSpmv;
        const small = (a.rowStart(end) - a.rowStart(begin)) * Math.max(k, 1) + (end - begin) < INLINE_WORK;
        const s = await callNative(fn, () =>
          call(a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x.data, k, y.data, begin, end, params, small),
        );
        output = y;
        r = s;
        Object.assign(counters, {
          variant: s.variant,
          rowSplitSeconds: s.rowSplitSeconds,
          nnzSplitSeconds: s.nnzSplitSeconds,
          longestWarpSeconds: s.longestWarpSeconds,
          traceSeconds: s.traceSeconds,
        });
        break;
      }
      case 'bfs': {
        const { graph: g, depth, startLevel, maxLevels } = req;
        const s = await callNative(fn, () =>
          addon.gpuSimBfs(g.rows, g.rowPtr, g.colIdx, req.inEdges.rowPtr, req.inEdges.colIdx, req.source, depth, params,
            g.rows + g.nnz < INLINE_WORK, startLevel, maxLevels),
        );
        output = { depth, frontier: s.frontier, complete: maxLevels === 0 || s.frontier.length - 1 < maxLevels };
        r = s;
        Object.assign(counters, { levels: s.levels, bottomUpLevels: s.bottomUpLevels, edgesExamined: s.edgesExamined });
        break;
      }
      case 'msbfs': {
        const g = req.graph;
        const sources = req.sources.slice(req.range[0], req.range[1]);
        const depths = new Int32Array(denseElements(fn, sources.length, g.rows));
        const s = await callNative(fn, () =>
          addon.gpuSimMsbfs(g.rows, g.rowPtr, g.colIdx, req.inEdges.rowPtr, req.inEdges.colIdx, sources, depths, params,
            (g.rows + g.nnz) * Math.ceil(sources.length / 64) < INLINE_WORK),
        );
        output = { depths };
        r = s;
        Object.assign(counters, { levels: s.levels, edgesExamined: s.edgesExamined });
        break;
      }
    }
    Object.assign(counters, {
      kernels: r.kernels,
      dramBytes: r.dramBytes,
      l2Sectors: r.l2Sectors,
      instructions: r.instructions,
      occupancy: r.occupancy,
      achievedBandwidth: r.achievedBandwidth,
      powerCapped: r.powerCapped,
      simulatorSeconds: r.seconds,
    });
    return {
      device: this.name,
      operator: op.kind as K,
      output: output as OutputOf<K>,
      seconds: r.modelSeconds,
      joules: r.joules,
      source: 'simulated',
      energySource: 'simulated',
      counters,
    };
  }

  async dispose(): Promise<void> {}
}

/** Parameters of a gpu-sim profile; docs/gpu-sim.md says how the model uses each. */
export const GPU_SIM_PARAMS: ParamRules = {
  ...GPU_TRAIT_PARAMS,
  maxWarpsPerSm: { min: 1, max: 128, integer: true, unit: 'warps', description: 'resident warps per SM' },
  schedulersPerSm: { min: 1, max: 16, integer: true, unit: 'warps/cycle', description: 'warp instructions issued per SM per cycle' },
  memoryLatencyNs: { min: 1, max: 10000, unit: 'ns', description: 'average global-load latency (Little\'s law)' },
  sectorsInFlightPerWarp: { min: 1, max: 1024, unit: 'sectors', description: '32-byte requests one warp keeps outstanding' },
  levelSyncUs: { min: 0.01, max: 1000, unit: 'us', description: 'host round trip per BFS level beyond the launch (frontier size read back, synchronise)' },
  idleWatts: { min: 0.1, max: 5000, unit: 'W', description: 'board power when idle' },
  tdpWatts: { min: 1, max: 5000, unit: 'W', description: 'board power limit' },
  dramPjPerBit: { min: 0.01, max: 100, unit: 'pJ/bit', description: 'device-memory access energy' },
  l2PjPerSector: { min: 0.01, max: 10000, unit: 'pJ', description: 'energy of one 32-byte L2 access' },
  pjPerFlop: { min: 0.01, max: 1000, unit: 'pJ', description: 'energy of one floating-point operation' },
  pjPerWarpInstruction: { min: 0.01, max: 10000, unit: 'pJ', description: 'issue and operand energy of one warp instruction' },
  memoryGb: { min: 0.1, max: 100000, unit: 'GB', description: 'device memory' },
  streams: { min: 1, max: 1024, integer: true, unit: 'streams', description: 'operators run at once' },
};

/**
 * The gpu-sim backend definition: always available (it simulates).
 * @example
 * const spec = loadProfile('demo', 'gpu-sim', 'h100-sxm', gpuSimBackend.params);
 * const gpu = gpuSimBackend.create('gpu0', spec);
 */
export const gpuSimBackend: BackendDefinition = {
  name: 'gpu-sim',
  description: 'a trace-driven GPU model (H100, A100 profiles): true result on the CPU, time and energy modelled from the data',
  kind: 'gpu',
  simulated: true,
  hostMemory: false,
  defaultProfile: 'h100-sxm',
  params: GPU_SIM_PARAMS,
  async probe() {
    return { available: true, detail: 'simulated; no hardware needed' };
  },
  create(name: string, spec: DeviceSpec): Device {
    return new GpuSimDevice(name, spec);
  },
};
