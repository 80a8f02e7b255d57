// The `gpu-sim` backend: a trace-driven model of a GPU (H100, A100 profiles). The true result is
// computed on the CPU; time and energy are modelled from the actual data (row lengths, column
// indices, BFS frontiers) by the native simulator in native/src/sim/gpu_*.cc.

import { denseElements } from '../../data/dense.js';
import { callNative } from '../../kernels/native-call.js';
import { type GraphArgs, INLINE_WORK, inlineMode, nativeAddon, type SpmmArgs } from '../../native/addon.js';
import type { BackendDefinition } from '../backend.js';
import { BackendDevice, entriesIn, everyOperator, type Execution, outputRows, SpmmFigures, searchComplete, spmmArgs } from '../backend-device.js';
import type { Device, DeviceCapabilities, DevicePower, DeviceSpec } from '../device.js';
import type { CheckedBfs, CheckedMsbfs, CheckedSpmm } from '../run-checks.js';
import { specValues, type ParamRules } from '../spec.js';
import { GPU_TRAIT_PARAMS, gpuTraits, specNumber, type DeviceTraits } from '../traits.js';

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
  gpuSimSpmm(...args: [...SpmmArgs, params: Readonly<Record<string, number>>, inline?: boolean]): Promise<GpuSimSpmmRun>;
  gpuSimSpmv: GpuSimAddon['gpuSimSpmm'];
  /**
   * `startLevel` -1 (default) searches from `source`; L >= 0 resumes from the depths already in
   * `depth` (each in [-1, L]) at the frontier of depth L. `maxLevels` > 0 stops after that many
   * levels (0, the default: no limit). `frontier[0]` is the starting frontier's size.
   */
  gpuSimBfs(
    ...args: [
      ...GraphArgs,
      source: number,
      depth: Int32Array,
      params: Readonly<Record<string, number>>,
      inline?: boolean,
      startLevel?: number,
      maxLevels?: number,
    ]
  ): Promise<GpuSimGraphRun & { readonly frontier: Float64Array }>;
  gpuSimMsbfs(
    ...args: [...GraphArgs, sources: Int32Array, depths: Int32Array, params: Readonly<Record<string, number>>, inline?: boolean]
  ): Promise<GpuSimGraphRun>;
}

/** The native addon with the simulator's exports (they register themselves; see native/src/sim). */
export function gpuSimAddon(): GpuSimAddon {
  return nativeAddon() as unknown as GpuSimAddon;
}

const GB = 1e9;

class GpuSimDevice extends BackendDevice {
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  readonly traits: DeviceTraits;
  private readonly values: Readonly<Record<string, number>>;
  // Each SpMM's replay (it cost 2-3x the product itself): a later product of the matrix computes only its result.
  private readonly replays = new SpmmFigures<GpuSimSpmmRun>();

  constructor(name: string, spec: DeviceSpec) {
    super(gpuSimBackend, name, spec);
    const fn = 'gpuSimBackend.create';
    this.values = specValues(spec);
    this.capabilities = everyOperator({ memoryBytes: specNumber(fn, spec, 'memoryGb') * GB, concurrency: specNumber(fn, spec, 'streams'), bfsResume: true });
    this.power = { idleWatts: specNumber(fn, spec, 'idleWatts'), activeWatts: specNumber(fn, spec, 'tdpWatts'), source: 'simulated' };
    this.traits = gpuTraits(fn, spec, this.power);
  }

  protected async spmm(req: CheckedSpmm, fn: string): Promise<Execution> {
    const { a, x, range } = req;
    const y = outputRows(fn, x, range);
    const work = entriesIn(a, range) * Math.max(x.cols, 1) + (range[1] - range[0]);
    const known = this.replays.get(req);
    if (known) {
      // The same product the simulator computes its true result with (kernels/spmm.cc).
      const cpu = req.kind === 'spmm' ? nativeAddon().spmm : nativeAddon().spmv;
      const t = await callNative(fn, () => cpu(...spmmArgs(a, x, y, range), inlineMode(work)));
      return spmmExecution(y, { ...known, seconds: t.seconds, traceSeconds: 0 });
    }
    const call = req.kind === 'spmm' ? gpuSimAddon().gpuSimSpmm : gpuSimAddon().gpuSimSpmv;
    const s = await callNative(fn, () => call(...spmmArgs(a, x, y, range), this.values, work < INLINE_WORK));
    this.replays.set(req, s);
    return spmmExecution(y, s);
  }

  protected async bfs(req: CheckedBfs, fn: string): Promise<Execution> {
    const { graph: g, inEdges, depth, startLevel, maxLevels } = req;
    const s = await callNative(fn, () =>
      gpuSimAddon().gpuSimBfs(
        g.rows,
        g.rowPtr,
        g.colIdx,
        inEdges.rowPtr,
        inEdges.colIdx,
        req.source,
        depth,
        this.values,
        g.rows + g.nnz < INLINE_WORK,
        startLevel,
        maxLevels,
      ),
    );
    const output = { depth, frontier: s.frontier, complete: searchComplete(maxLevels, s.frontier) };
    return simulated(output, s, { levels: s.levels, bottomUpLevels: s.bottomUpLevels, edgesExamined: s.edgesExamined });
  }

  protected async msbfs(req: CheckedMsbfs, fn: string): Promise<Execution> {
    const { graph: g, inEdges } = req;
    const sources = req.sources.slice(req.range[0], req.range[1]);
    const depths = new Int32Array(denseElements(fn, sources.length, g.rows));
    const s = await callNative(fn, () =>
      gpuSimAddon().gpuSimMsbfs(
        g.rows,
        g.rowPtr,
        g.colIdx,
        inEdges.rowPtr,
        inEdges.colIdx,
        sources,
        depths,
        this.values,
        (g.rows + g.nnz) * Math.ceil(sources.length / 64) < INLINE_WORK,
      ),
    );
    return simulated({ depths }, s, { levels: s.levels, edgesExamined: s.edgesExamined });
  }
}

/** An SpMM's or SpMV's result, with the replay's own counters. */
function spmmExecution(y: Execution['output'], s: GpuSimSpmmRun): Execution {
  const { variant, rowSplitSeconds, nnzSplitSeconds, longestWarpSeconds, traceSeconds } = s;
  return simulated(y, s, { variant, rowSplitSeconds, nnzSplitSeconds, longestWarpSeconds, traceSeconds });
}

/** A simulated run's result: the operator's counters, then the totals every gpu-sim call reports. */
function simulated(output: Execution['output'], r: GpuSimRun, counters: Record<string, number>): Execution {
  return {
    output,
    seconds: r.modelSeconds,
    energy: { joules: r.joules, source: 'simulated' },
    counters: {
      ...counters,
      kernels: r.kernels,
      dramBytes: r.dramBytes,
      l2Sectors: r.l2Sectors,
      instructions: r.instructions,
      occupancy: r.occupancy,
      achievedBandwidth: r.achievedBandwidth,
      powerCapped: r.powerCapped,
      simulatorSeconds: r.seconds,
    },
  };
}

/** Parameters of a gpu-sim profile; docs/gpu-sim.md says how the model uses each. */
export const GPU_SIM_PARAMS: ParamRules = {
  ...GPU_TRAIT_PARAMS,
  maxWarpsPerSm: { min: 1, max: 128, integer: true, unit: 'warps', description: 'resident warps per SM' },
  schedulersPerSm: { min: 1, max: 16, integer: true, unit: 'warps/cycle', description: 'warp instructions issued per SM per cycle' },
  memoryLatencyNs: { min: 1, max: 10000, unit: 'ns', description: "average global-load latency (Little's law)" },
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
