// The one interface every device backend implements: what a device can run, and `run`, which
// returns the true result together with the time and energy it cost and how each was obtained.

import type { KeepOutputs } from './kept-outputs.js';
import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix, Precision } from '../data/dense.js';
import type { DeviceTraits } from './traits.js';

/** The operators a device may run. */
export type OperatorKind = 'spmm' | 'spmv' | 'bfs' | 'msbfs';
export const OPERATOR_KINDS: readonly OperatorKind[] = ['spmm', 'spmv', 'bfs', 'msbfs'];

/** What kind of hardware a device is (or models). */
export type DeviceKind = 'cpu' | 'gpu' | 'cgra';

/** How a time figure was obtained: read off a clock, or computed by a simulator or model. */
export type TimeSource = 'measured' | 'simulated';
/**
 * How an energy figure was obtained: read from a hardware counter (RAPL, NVML), computed from a
 * power profile and a measured time (`modelled`), or computed by a simulator (`simulated`).
 */
export type EnergySource = 'measured' | 'modelled' | 'simulated';

/** Y = A * X, output rows `range` (all rows by default). */
export interface SpmmOperator {
  readonly kind: 'spmm';
}
/** y = A * x with x an `a.cols x 1` matrix; output rows `range`. */
export interface SpmvOperator {
  readonly kind: 'spmv';
}
/** Depths of every vertex from `source` along out-edges. Not splittable: no range. */
export interface BfsOperator {
  readonly kind: 'bfs';
  readonly source: number;
  /**
   * Go on with a search begun elsewhere (an earlier call, another device) instead of starting
   * at `source`. Devices whose `capabilities.bfsResume` is false refuse it (UnsupportedError).
   */
  readonly resume?: BfsResume;
  /**
   * Stop after this many levels beyond the starting frontier; the output can be resumed. Needs
   * `capabilities.bfsResume`. Unlimited by default.
   */
  readonly maxLevels?: number;
}
/** A search in progress: what `BfsOperator.resume` continues from. */
export interface BfsResume {
  /**
   * Depths so far: 0..level for the vertices found, -1 for the rest (the output of a search
   * stopped by `maxLevels`). Read, not modified; every value must lie in [-1, level].
   */
  readonly depth: Int32Array;
  /** The frontier's depth: the vertices with `depth === level` are expanded next. */
  readonly level: number;
}
/** Depths from each of `sources`; a range selects sources `[begin, end)`. */
export interface MsBfsOperator {
  readonly kind: 'msbfs';
  readonly sources: Int32Array;
}
export type Operator = SpmmOperator | SpmvOperator | BfsOperator | MsBfsOperator;
export type OperatorOf<K extends OperatorKind> = Extract<Operator, { readonly kind: K }>;

export interface MatrixInputs {
  readonly a: CsrMatrix;
  readonly x: DenseMatrix;
}
export interface GraphInputs {
  /** A square adjacency matrix (out-edges). */
  readonly graph: CsrMatrix;
  /** Its transpose, for directed graphs; computed and cached when absent. */
  readonly inEdges?: CsrMatrix;
}

export interface BfsOutput {
  /** Hops from the source, -1 where unreachable (or, in an incomplete search, not reached yet). */
  readonly depth: Int32Array;
  /**
   * Vertices discovered at each depth from the starting frontier on: index 0 is the source (1),
   * or, when resuming at `level`, the frontier's size, index i the vertices at depth level + i.
   */
  readonly frontier: Float64Array;
  /**
   * False when `maxLevels` stopped the search with vertices still to expand: resume it with
   * `{ depth, level: startLevel + frontier.length - 1 }`.
   */
  readonly complete: boolean;
}
export interface MsBfsOutput {
  /** `(end - begin) x n` row-major depths, one row per source of the range. */
  readonly depths: Int32Array;
}

/** Inputs and output of each operator. */
export interface OperatorSignature {
  spmm: { inputs: MatrixInputs; output: DenseMatrix };
  spmv: { inputs: MatrixInputs; output: DenseMatrix };
  bfs: { inputs: GraphInputs; output: BfsOutput };
  msbfs: { inputs: GraphInputs; output: MsBfsOutput };
}
export type InputsOf<K extends OperatorKind> = OperatorSignature[K]['inputs'];
export type OutputOf<K extends OperatorKind> = OperatorSignature[K]['output'];

/** `[begin, end)`: output rows for SpMM/SpMV, sources for multi-source BFS. */
export type RowRange = readonly [number, number];

/** The outcome of running one operator on one device. */
export interface DeviceResult<K extends OperatorKind = OperatorKind> {
  readonly device: string;
  readonly operator: K;
  /** The true result, equal to the TypeScript reference (within floating-point tolerance). */
  readonly output: OutputOf<K>;
  /** Time the operator took on the device, in seconds. */
  readonly seconds: number;
  /** Energy the device spent, in joules (static plus dynamic over `seconds`). */
  readonly joules: number;
  /** Whether `seconds` was measured on real hardware or simulated. */
  readonly source: TimeSource;
  readonly energySource: EnergySource;
  /**
   * Backend-specific figures: `cycles`, `utilisation`, `dramBytes`, `levels`, ... Each backend
   * documents its own; all are numbers so they can be tabulated and compared.
   */
  readonly counters: Readonly<Record<string, number>>;
}

export interface DeviceCapabilities {
  readonly operators: readonly OperatorKind[];
  readonly precisions: readonly Precision[];
  /** Memory the device can hold operands in, in bytes. */
  readonly memoryBytes: number;
  /** Operators the device can run at once (streams, queues); 1 for a simulator. */
  readonly concurrency: number;
  /** Whether single-source BFS takes `resume` and `maxLevels` (a search handed across devices). */
  readonly bfsResume: boolean;
  /**
   * Kinds computed on the host elsewhere (GEMM, element-wise, reductions, SDDMM) that this device
   * runs on kernels of its own. A real device with memory of its own is offered only these of
   * them, so host work is never timed as its work. @default none
   */
  readonly denseKernels?: readonly string[];
}

export interface DevicePower {
  /** Drawn when the device is on but idle, in watts. */
  readonly idleWatts: number;
  /** Drawn when fully busy, in watts. */
  readonly activeWatts: number;
  readonly source: EnergySource;
}

export interface RunOptions {
  /** Refuse to start (AbortError) once aborted. A simulator or kernel already running finishes. */
  readonly signal?: AbortSignal;
  /**
   * On a device that can keep its outputs (a CUDA GPU): leave this run's output on the device as
   * its host array's resident copy (kept-outputs.ts); the executor's, for intermediates.
   */
  readonly keepOutputs?: KeepOutputs;
}

/**
 * A device: real hardware driven by dype, or a simulator of hardware that is not present.
 * Instances come from the backend table (`BACKENDS`) through a system description.
 */
export interface Device {
  /** This device's name in its system, e.g. `cpu`, `gpu0`. */
  readonly name: string;
  /** The backend that implements it (a key of the backend table). */
  readonly backend: string;
  readonly kind: DeviceKind;
  /** True when times come from a simulator, not a clock. */
  readonly simulated: boolean;
  /** Where its operands live: `host` for devices on main memory, else a memory of its own. */
  readonly memorySpace: string;
  readonly capabilities: DeviceCapabilities;
  readonly power: DevicePower;
  /** The parameters it was built from, each with its value and source. */
  readonly spec: DeviceSpec;
  /** Its rates and caches, from its backend and spec: what the cost model and planner price work by. */
  readonly traits: DeviceTraits;
  /**
   * Run one operator, optionally over a range (split operators), and return its true result with
   * time and energy.
   * @throws {InvalidArgumentError} when the inputs do not fit the operator or the range is bad.
   * @throws {UnsupportedError} when the device cannot run this operator or precision.
   */
  run<K extends OperatorKind>(op: OperatorOf<K>, inputs: InputsOf<K>, range?: RowRange, options?: RunOptions): Promise<DeviceResult<K>>;
  /**
   * For devices with memory of their own (`memorySpace !== 'host'`): copy host buffers to the
   * device ahead of the operators that read them, so copies overlap compute on another stream.
   * Later `run` calls find them resident. Resolves with the copy's time and how it was obtained.
   * Absent on devices that work on host memory.
   */
  prefetch?(
    buffers: readonly ArrayBufferView[],
    options?: RunOptions,
  ): Promise<{ readonly seconds: number; readonly bytes: number; readonly source: TimeSource }>;
  /** Drop the device's copies of these buffers (after their last reader), freeing device memory. */
  release?(buffers: readonly ArrayBufferView[]): Promise<void>;
  /**
   * For devices that can keep a run's outputs with their host copy deferred (a CUDA GPU, see
   * kept-outputs.ts): copy those among `buffers` home. The others cost nothing.
   */
  fetch?(buffers: readonly ArrayBufferView[]): Promise<{ readonly seconds: number; readonly bytes: number; readonly source: TimeSource }>;
  /** Release what the device holds (device memory, streams). Idempotent. */
  dispose(): Promise<void>;
}

/** One parameter of a device spec: a number with its unit and where it comes from. */
export interface SpecParam {
  readonly value: number;
  readonly unit: string;
  /** A spec sheet, paper or measurement; `assumption: ...` where none exists. */
  readonly source: string;
}

/** A device's parameters, as loaded from a spec file and the system file's overrides. */
export interface DeviceSpec {
  /** Profile name, e.g. `h100-sxm`. */
  readonly name: string;
  readonly description: string;
  readonly params: Readonly<Record<string, SpecParam>>;
}
