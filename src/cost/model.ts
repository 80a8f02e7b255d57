// The cost model: predicted time and energy of an operator on a device, for this input, from its
// features and the device's coefficients. It never runs a kernel or a simulator to predict.

import { CsrMatrix } from '../data/csr.js';
import type { Precision } from '../data/dense.js';
import type { Device, DeviceResult, GraphInputs, MatrixInputs, Operator, OperatorKind, RowRange } from '../devices/device.js';
import type { System } from '../devices/system.js';
import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { checkSystem } from '../devices/system.js';
import { checkRowRange } from '../kernels/row-range.js';
import { type CalibrationPayload, deviceKey, MODEL_VERSION, type OperatorFit } from './calibration.js';
import type { OperatorCostFit } from './operator-fits.js';
import { type Coefficients, defaultCoefficients, termDevice } from './defaults.js';
import type { GraphFeatures, MatrixFeatures } from './feature-types.js';
import { graphFeatures, matrixFeatures } from './features.js';
import { OnlineCorrection } from './online-correction.js';
import { type BfsLevel, packGraph, packMatrix, ResidentCoefficients, ResidentFeatures, type ModelOperator, type TermDevice } from './packed.js';

/** Whether a device's coefficients come from calibration on this machine. */
export type ModelState =
  | { readonly state: 'uncalibrated'; readonly reason: string }
  | { readonly state: 'calibrated'; readonly createdAt: string; readonly quick: boolean };

/** A predicted cost. */
export interface Prediction {
  readonly device: string;
  readonly operator: OperatorKind;
  readonly seconds: number;
  readonly joules: number;
  /**
   * Relative uncertainty: the 90th percentile of the calibration fit's relative errors (0.15 is
   * +-15%). Uncalibrated predictions carry 1 (+-100%): usable for ranking, not for promises.
   */
  readonly uncertainty: number;
  readonly state: ModelState['state'];
}

/** The shape of an operator, enough to predict it without its data. */
export type OperatorShape =
  | { readonly kind: 'spmm' | 'spmv'; readonly a: CsrMatrix; readonly k: number; readonly precision: Precision; readonly range?: RowRange }
  | { readonly kind: 'bfs'; readonly graph: CsrMatrix }
  | { readonly kind: 'msbfs'; readonly graph: CsrMatrix; readonly sources: number };

/**
 * One BFS level as the executor sees it before running it: the frontier about to be expanded,
 * its out-edges, the vertices not yet found, and the direction the device's rule would take.
 */
export type BfsLevelShape = BfsLevel;

interface DeviceEntry {
  readonly device: Device;
  readonly terms: TermDevice;
  readonly coefficients: Record<ModelOperator, ResidentCoefficients>;
  readonly fits: Partial<Record<ModelOperator, OperatorFit>>;
  readonly state: ModelState;
  /** How far its speed moved between moments during calibration (real devices), when measured. */
  readonly speedDrift: number | undefined;
}

interface InputEntry {
  mf?: MatrixFeatures;
  mfResident?: ResidentFeatures;
  gf?: GraphFeatures;
  gfResident?: ResidentFeatures;
}

const UNCALIBRATED_UNCERTAINTY = 1;
/** The factors before any observation (one array, not one per prediction). */
const NO_CORRECTION = [1, 1] as const;

/**
 * Predicts what each operator costs on each device of a system, for a particular input.
 *
 * @example
 * const model = await loadCostModel(system);           // calibrated if `dype calibrate` ran
 * const p = model.predict('gpu', { kind: 'spmm' }, { a, x });
 * p.seconds; p.joules; p.uncertainty; p.state;
 */
export class CostModel {
  private readonly devices = new Map<string, DeviceEntry>();
  private readonly inputs = new WeakMap<CsrMatrix, InputEntry>();
  /** Online refinement from observed costs (see `observe`). */
  readonly corrections = new OnlineCorrection();
  /** Whether any observation arrived: until then predictions skip the correction lookups. */
  private observed = false;
  /** Fitted time of host-computed operators, by kind, device name and precision (cost/operator-fits.ts). */
  private readonly operatorFits = new Map<string, OperatorCostFit>();

  constructor(
    readonly system: System,
    calibration?: CalibrationPayload,
    uncalibratedReason = 'no calibration given',
  ) {
    checkSystem('CostModel', system);
    if (calibration !== undefined && calibration.modelVersion !== MODEL_VERSION) {
      throw new InvalidArgumentError(`CostModel: calibration is for model version ${calibration.modelVersion}, this is ${MODEL_VERSION}`);
    }
    for (const device of system.devices) {
      const found = calibration?.devices.find((d) => d.key === deviceKey(device));
      const defaults = defaultCoefficients(device);
      const coefficients = {} as Record<ModelOperator, ResidentCoefficients>;
      for (const op of Object.keys(defaults) as ModelOperator[]) {
        const fit = found?.operators[op];
        const c: Coefficients = fit ?? defaults[op];
        coefficients[op] = new ResidentCoefficients(op, c.time, c.energy);
      }
      const state: ModelState =
        found && calibration
          ? { state: 'calibrated', createdAt: calibration.createdAt, quick: calibration.quick }
          : { state: 'uncalibrated', reason: calibration ? `the calibration has no entry for ${deviceKey(device)}` : uncalibratedReason };
      const drift = found?.speedDrift?.drift;
      // A stored figure is data from a file: only a plausible fraction counts.
      const speedDrift = typeof drift === 'number' && drift > 0 && drift <= 1 && !device.simulated ? drift : undefined;
      this.devices.set(device.name, { device, terms: termDevice(device), coefficients, fits: found?.operators ?? {}, state, speedDrift });
    }
  }

  /** Use `fits` (cost/operator-fits.ts) for their operators on this system's devices of the same calibration key. */
  setOperatorFits(fits: readonly OperatorCostFit[]): void {
    for (const fit of fits) {
      for (const d of this.system.devices) if (deviceKey(d) === fit.device) this.operatorFits.set(`${fit.kind}\u0000${d.name}\u0000${fit.precision}`, fit);
    }
  }

  /** The fitted time of host-computed `kind` on `device` at `precision` (else at the other one), when one was calibrated. */
  operatorFit(kind: string, device: string | Device, precision: 'f32' | 'f64' = 'f32'): OperatorCostFit | undefined {
    const name = typeof device === 'string' ? device : device.name;
    const other = precision === 'f32' ? 'f64' : 'f32';
    return this.operatorFits.get(`${kind}\u0000${name}\u0000${precision}`) ?? this.operatorFits.get(`${kind}\u0000${name}\u0000${other}`);
  }

  /**
   * How far `device`'s speed moved, either way, between moments of its calibration (0.2: 20%
   * faster or slower than usual); undefined for a simulator, or where it was not measured.
   */
  speedDrift(device: string | Device): number | undefined {
    return this.entry('CostModel.speedDrift', device).speedDrift;
  }

  /** Whether `device`'s predictions are calibrated, and if not why. */
  state(device: string | Device): ModelState {
    return this.entry('CostModel.state', device).state;
  }

  /** Features of a matrix, computed once per matrix object. */
  matrixFeatures(a: CsrMatrix): MatrixFeatures {
    const e = this.input(a);
    e.mf ??= matrixFeatures(a);
    return e.mf;
  }

  /** BFS features of a graph, computed once per graph object. */
  graphFeatures(g: CsrMatrix): GraphFeatures {
    const e = this.input(g);
    e.gf ??= graphFeatures(g);
    return e.gf;
  }

  /**
   * Predicted time and energy of `op` on `device` for these inputs (and row or source range).
   * @throws {InvalidArgumentError} on an unknown device or inputs that do not fit the operator.
   * @throws {UnsupportedError} when the device cannot run the operator.
   */
  predict(device: string | Device, op: Operator, inputs: MatrixInputs | GraphInputs, range?: RowRange): Prediction {
    const fn = 'CostModel.predict';
    if (op === null || typeof op !== 'object') throw new InvalidArgumentError(`${fn}: op must be an operator, got ${describe(op)}`);
    switch (op.kind) {
      case 'spmm':
      case 'spmv': {
        const { a, x } = inputs as MatrixInputs;
        if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: inputs.a must be a CsrMatrix, got ${describe(a)}`);
        if (x === null || typeof x !== 'object' || x.rows !== a.cols) {
          throw new InvalidArgumentError(`${fn}: inputs.x must be a DenseMatrix with ${a.cols} rows, got ${describe(x)}`);
        }
        if (op.kind === 'spmv' && x.cols !== 1) throw new InvalidArgumentError(`${fn}: spmv needs x with one column, got ${x.cols}`);
        return this.shapePrediction(fn, device, { kind: op.kind, a, k: x.cols, precision: x.precision, ...(range ? { range } : {}) });
      }
      case 'bfs':
        if (range !== undefined) throw new InvalidArgumentError(`${fn}: bfs cannot be split by range`);
        return this.shapePrediction(fn, device, { kind: 'bfs', graph: (inputs as GraphInputs).graph });
      case 'msbfs': {
        const [b, e] = checkRowRange(fn, range, op.sources.length);
        return this.shapePrediction(fn, device, { kind: 'msbfs', graph: (inputs as GraphInputs).graph, sources: e - b });
      }
      default:
        throw new InvalidArgumentError(`${fn}: unknown operator ${describe((op as { kind?: unknown }).kind)}`);
    }
  }

  /**
   * Prediction from an operator's shape alone (the scheduler prices operators whose inputs do not
   * exist yet). `factors` replaces the online correction's factors [time, energy] as they stand
   * now: a run prices pieces lazily at the factors of its start (learning changes nothing else).
   */
  predictShape(device: string | Device, shape: OperatorShape, factors?: readonly [number, number]): Prediction {
    return this.shapePrediction('CostModel.predictShape', device, shape, factors);
  }

  private shapePrediction(fn: string, device: string | Device, shape: OperatorShape, factors?: readonly [number, number]): Prediction {
    const entry = this.entry(fn, device);
    if (!entry.device.capabilities.operators.includes(shape.kind)) {
      throw new UnsupportedError(`${fn}: device ${entry.device.name} cannot run ${shape.kind}`);
    }
    let raw: [number, number];
    const coef = entry.coefficients[shape.kind];
    if ('a' in shape) {
      const a = shape.a;
      const [b, e] = checkRowRange(fn, shape.range, a.rows);
      const nnzR = Number(a.rowPtr[e]!) - Number(a.rowPtr[b]!);
      raw = coef.predictSpmm(this.residentMatrix(a), shape.k, shape.precision === 'f32' ? 4 : 8, e - b, nnzR, entry.terms);
    } else {
      const g = shape.graph;
      if (!(g instanceof CsrMatrix) || g.rows !== g.cols) throw new InvalidArgumentError(`${fn}: graph must be a square CsrMatrix, got ${describe(g)}`);
      const resident = this.residentGraph(g);
      raw = 'sources' in shape ? coef.predictMsbfs(resident, shape.sources, entry.terms) : coef.predictBfs(resident, entry.terms);
    }
    const calibrated = entry.state.state === 'calibrated';
    const fit = entry.fits[shape.kind];
    const [timeFactor, energyFactor] = factors ?? this.correctionFactors(entry.device, shape.kind);
    return {
      device: entry.device.name,
      operator: shape.kind,
      seconds: raw[0] * timeFactor,
      joules: raw[1] * energyFactor,
      uncertainty: calibrated && fit ? fit.timeSpread : UNCALIBRATED_UNCERTAINTY,
      state: entry.state.state,
    };
  }

  /**
   * Predicted time and energy of one level of a single-source BFS on `device`, from the actual
   * frontier: the whole-search model's terms taken level by level (the frontier's edges, its
   * vertices, and the unvisited vertices a bottom-up step scans), so that the levels of a search
   * add up to the whole-search prediction. `call` adds what a call pays once: its fixed cost and
   * a pass over the depth array (a search resumed on another device pays it again).
   * @throws {InvalidArgumentError} on an unknown device or a graph that is not square.
   * @throws {UnsupportedError} when the device cannot run BFS.
   */
  predictBfsLevel(device: string | Device, graph: CsrMatrix, level: BfsLevelShape, call = false): { seconds: number; joules: number } {
    const fn = 'CostModel.predictBfsLevel';
    const entry = this.entry(fn, device);
    if (!entry.device.capabilities.operators.includes('bfs')) throw new UnsupportedError(`${fn}: device ${entry.device.name} cannot run bfs`);
    if (!(graph instanceof CsrMatrix) || graph.rows !== graph.cols)
      throw new InvalidArgumentError(`${fn}: graph must be a square CsrMatrix, got ${describe(graph)}`);
    const [seconds, joules] = entry.coefficients.bfs.predictBfsLevel(this.residentGraph(graph), entry.terms, level, call);
    const [timeFactor, energyFactor] = this.correctionFactors(entry.device, 'bfs');
    return { seconds: seconds * timeFactor, joules: joules * energyFactor };
  }

  /** Predictions for every device of the system that can run `op`. */
  predictAll(op: Operator, inputs: MatrixInputs | GraphInputs, range?: RowRange): Prediction[] {
    return this.system.devices.filter((d) => d.capabilities.operators.includes(op.kind)).map((d) => this.predict(d, op, inputs, range));
  }

  /**
   * Feed an observed cost back: later predictions for this device and operator are scaled by an
   * outlier-resistant correction (see OnlineCorrection). The executor calls this after each operator.
   */
  observe(prediction: Prediction, result: DeviceResult): void {
    const [tf, ef] = this.correctionFactors(prediction.device, prediction.operator);
    // The correction applies to the raw model, so undo the factor already in the prediction.
    this.observeUncorrected(prediction.device, prediction.operator, { seconds: prediction.seconds / tf, joules: prediction.joules / ef }, result);
  }

  /**
   * The online correction's factors [time, energy] for a device and operator: what the model's
   * own output is multiplied by in a prediction made now (1 until observations arrive).
   */
  correctionFactors(device: string | Device, operator: OperatorKind): readonly [number, number] {
    const entry = this.entry('CostModel.correctionFactors', device);
    if (!this.observed) return NO_CORRECTION;
    const [timeKey, energyKey] = correctionKeys(entry.device, operator);
    return [this.corrections.factor(timeKey), this.corrections.factor(energyKey)];
  }

  /**
   * `observe` for a caller that kept the model's uncorrected prediction (its output before the
   * online correction): the executor prices a run's pieces once at the start and learns from
   * each piece against that, without predicting again.
   */
  observeUncorrected(
    device: string | Device,
    operator: OperatorKind,
    uncorrected: { readonly seconds: number; readonly joules: number },
    result: { readonly seconds: number; readonly joules: number },
  ): void {
    this.observed = true;
    const entry = this.entry('CostModel.observe', device);
    const [timeKey, energyKey] = correctionKeys(entry.device, operator);
    if (uncorrected.seconds > 0 && result.seconds > 0) this.corrections.observe(timeKey, uncorrected.seconds, result.seconds);
    if (uncorrected.joules > 0 && result.joules > 0) this.corrections.observe(energyKey, uncorrected.joules, result.joules);
  }

  /** Modelled time to copy `bytes` between two memory spaces of the system. */
  transferSeconds(bytes: number, from: string, to: string): number {
    return this.system.transferSeconds(bytes, from, to);
  }

  private entry(fn: string, device: string | Device): DeviceEntry {
    const name = typeof device === 'string' ? device : device?.name;
    const e = typeof name === 'string' ? this.devices.get(name) : undefined;
    if (!e) {
      throw new InvalidArgumentError(`${fn}: no device ${describe(name)} in the system (devices: ${[...this.devices.keys()].join(', ')})`);
    }
    return e;
  }

  private input(a: CsrMatrix): InputEntry {
    if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`CostModel: expected a CsrMatrix, got ${describe(a)}`);
    let e = this.inputs.get(a);
    if (!e) {
      e = {};
      this.inputs.set(a, e);
    }
    return e;
  }

  private residentMatrix(a: CsrMatrix): ResidentFeatures {
    const e = this.input(a);
    e.mfResident ??= new ResidentFeatures(packMatrix(this.matrixFeatures(a)));
    return e.mfResident;
  }

  private residentGraph(g: CsrMatrix): ResidentFeatures {
    const e = this.input(g);
    e.gfResident ??= new ResidentFeatures(packGraph(this.graphFeatures(g), this.matrixFeatures(g)));
    return e.gfResident;
  }
}

// The online correction's keys for a device and operator, made once: the executor looks them up
// for every operator, and a string built afresh is hashed afresh.
const correctionKeyCache = new WeakMap<Device, Map<string, readonly [string, string]>>();
function correctionKeys(device: Device, op: OperatorKind): readonly [string, string] {
  let byOp = correctionKeyCache.get(device);
  if (!byOp) correctionKeyCache.set(device, (byOp = new Map()));
  let keys = byOp.get(op);
  if (!keys) byOp.set(op, (keys = [`${device.name}/${op}/time`, `${device.name}/${op}/energy`]));
  return keys;
}
