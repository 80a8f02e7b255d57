// The one envelope around every backend's `run`, as StarPU's driver_common is around its drivers:
// the argument checks, the energy reading around the call, the labels saying how each figure
// was obtained, and the assembly of the DeviceResult. A backend supplies only what differs: its
// capabilities, power and traits, and its kernels for each operator family.

import type { KeepOutputs } from './kept-outputs.js';
import type { CsrMatrix } from '../data/csr.js';
import { DenseMatrix, denseElements } from '../data/dense.js';
import type {
  Device,
  DeviceCapabilities,
  DeviceKind,
  DevicePower,
  DeviceResult,
  DeviceSpec,
  EnergySource,
  InputsOf,
  OperatorKind,
  OperatorOf,
  OutputOf,
  RowRange,
  RunOptions,
} from './device.js';
import type { SpmmArgs } from '../native/addon.js';
import { type CheckedBfs, type CheckedMsbfs, type CheckedSpmm, checkRun } from './run-checks.js';
import type { DeviceTraits } from './traits.js';

/** What a backend's execution of one checked request returns; the envelope adds the rest. */
export interface Execution {
  readonly output: OutputOf<OperatorKind>;
  /** Time on the device: the kernel's own clock, or the simulator's figure. */
  readonly seconds: number;
  /**
   * Energy and how it was obtained, where the backend knows it (a simulator, a power reading).
   * Absent: the device's energy meter around the call where it has one (measured), else its
   * busy power over `seconds` (modelled).
   */
  readonly energy?: { readonly joules: number; readonly source: EnergySource };
  readonly counters: Readonly<Record<string, number>>;
}

/** A counter of energy read before and after each run (RAPL on the CPU). */
export interface EnergyMeter {
  sample(): number[];
  joulesBetween(before: readonly number[], after: readonly number[]): number;
}

/** What a backend definition says of its devices, which every device of it repeats. */
export interface BackendIdentity {
  readonly name: string;
  readonly kind: DeviceKind;
  readonly simulated: boolean;
  readonly hostMemory: boolean;
}

/**
 * Base of every backend's device class. Subclasses set `capabilities`, `power` and `traits` in
 * their constructor and implement one method per operator family; `run` is the same for all.
 */
export abstract class BackendDevice implements Device {
  readonly backend: string;
  readonly kind: DeviceKind;
  readonly simulated: boolean;
  readonly memorySpace: string;
  abstract readonly capabilities: DeviceCapabilities;
  abstract readonly power: DevicePower;
  abstract readonly traits: DeviceTraits;
  /** Read around each run when set; see Execution.energy. */
  protected meter: EnergyMeter | undefined;

  constructor(
    identity: BackendIdentity,
    readonly name: string,
    readonly spec: DeviceSpec,
  ) {
    this.backend = identity.name;
    this.kind = identity.kind;
    this.simulated = identity.simulated;
    this.memorySpace = identity.hostMemory ? 'host' : name;
  }

  /**
   * Run one operator: checked against the device's capabilities first (checkRun), then executed
   * by the backend, with time labelled measured or simulated and energy as the backend obtained it.
   * @throws {InvalidArgumentError} when the inputs do not fit the operator or the range is bad.
   * @throws {UnsupportedError} when the device cannot run this operator or precision.
   */
  async run<K extends OperatorKind>(op: OperatorOf<K>, inputs: InputsOf<K>, range?: RowRange, options?: RunOptions): Promise<DeviceResult<K>> {
    const req = checkRun(this, op, inputs, range, options);
    const meter = this.meter;
    const before = meter?.sample();
    const fn = `${this.name}.run`;
    const keep = options?.keepOutputs;
    const e = await (req.kind === 'bfs' ? this.bfs(req, fn, keep) : req.kind === 'msbfs' ? this.msbfs(req, fn, keep) : this.spmm(req, fn, keep));
    const energy =
      e.energy ??
      (meter && before
        ? { joules: meter.joulesBetween(before, meter.sample()), source: 'measured' as const }
        : // Every participating unit busy for the operator's duration.
          { joules: this.power.activeWatts * e.seconds, source: 'modelled' as const });
    return {
      device: this.name,
      operator: req.kind as K,
      output: e.output as OutputOf<K>,
      seconds: e.seconds,
      joules: energy.joules,
      source: this.simulated ? 'simulated' : 'measured',
      energySource: energy.source,
      counters: e.counters,
    };
  }

  /** Release what the device holds; nothing by default (simulators and the CPU allocate per run). */
  async dispose(): Promise<void> {}

  // The backend's kernels for requests checkRun accepted; `fn` names the call in errors (`<device>.run`).
  /** SpMM and SpMV (`req.kind` says which) over `req.range`. */
  protected abstract spmm(req: CheckedSpmm, fn: string, keep?: KeepOutputs): Promise<Execution>;
  /** Single-source BFS, fresh or resumed (`req.startLevel`), at most `req.maxLevels` levels (0: all). */
  protected abstract bfs(req: CheckedBfs, fn: string, keep?: KeepOutputs): Promise<Execution>;
  /** Multi-source BFS of the sources in `req.range`. */
  protected abstract msbfs(req: CheckedMsbfs, fn: string, keep?: KeepOutputs): Promise<Execution>;
}

/** Capabilities of a backend that runs every operator in both precisions. */
export function everyOperator(rest: Pick<DeviceCapabilities, 'memoryBytes' | 'concurrency' | 'bfsResume'>): DeviceCapabilities {
  return { operators: ['spmm', 'spmv', 'bfs', 'msbfs'], precisions: ['f32', 'f64'], ...rest };
}

/** Stored entries of rows `[begin, end)` of `a`. */
export function entriesIn(a: CsrMatrix, [begin, end]: RowRange): number {
  return a.rowStart(end) - a.rowStart(begin);
}

/** Marshal `y[range] = a[range] * x` for a native entry point. */
export function spmmArgs(a: CsrMatrix, x: DenseMatrix, y: DenseMatrix, [begin, end]: RowRange): SpmmArgs {
  return [a.rows, a.cols, a.rowPtr, a.colIdx, a.values ?? null, x.data, x.cols, y.data, begin, end];
}

/**
 * A zeroed output block for rows `[begin, end)` of an SpMM or SpMV with `x`: its width and
 * precision.
 * @throws {LimitError} when the block would exceed the size a dense matrix may have.
 */
export function outputRows(fn: string, x: DenseMatrix, [begin, end]: RowRange): DenseMatrix {
  const size = denseElements(fn, end - begin, x.cols);
  // Zero-filled, so finite by construction: scanning a fresh output cost more than many kernels.
  return new DenseMatrix(end - begin, x.cols, x.precision === 'f32' ? new Float32Array(size) : new Float64Array(size), { allowNonFinite: true });
}

/**
 * What a simulator learnt of an SpMM or SpMV, by matrix and by rows, width, precision and kind.
 * Its figures depend on the matrix's structure and not on X's values, and a matrix's arrays are
 * not changed once built (the transposes and features dype caches by matrix assume it too), so a
 * product of a matrix seen before need only compute its result: a session's branches, a stream's
 * inputs and a GCN's layers multiply one matrix again and again. gpu-sim and cgra-sim keep their
 * replays and simulations here.
 */
export class SpmmFigures<T> {
  private readonly byMatrix = new WeakMap<CsrMatrix, Map<string, T>>();

  private static key(req: CheckedSpmm): string {
    return `${req.kind}:${req.range[0]}:${req.range[1]}:${req.x.cols}:${req.x.precision}`;
  }

  get(req: CheckedSpmm): T | undefined {
    return this.byMatrix.get(req.a)?.get(SpmmFigures.key(req));
  }

  set(req: CheckedSpmm, figures: T): void {
    let seen = this.byMatrix.get(req.a);
    if (!seen) this.byMatrix.set(req.a, (seen = new Map()));
    seen.set(SpmmFigures.key(req), figures);
  }
}

/** Whether a search that ran `frontier.length - 1` levels under a limit of `maxLevels` (0: none) is finished. */
export function searchComplete(maxLevels: number, frontier: Float64Array): boolean {
  return maxLevels === 0 || frontier.length - 1 < maxLevels;
}
