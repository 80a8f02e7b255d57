// The drift monitor: an observer that compares each piece's observed cost with its prediction,
// feeds native kernels' observations back to the cost model (its outlier-resistant online
// correction), and says when the run has drifted past a threshold. Re-planning acts on it.

import type { CostModel } from '../cost/model.js';
import type { OperatorKind } from '../devices/device.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { ExecutionObserver, PieceRecord } from './run.js';

export interface DriftOptions {
  /** Relative error of the observed against the predicted time that counts as drift. @default 0.25 */
  readonly threshold?: number;
}

export interface DriftState {
  readonly pieces: number;
  /** (observed - predicted) / predicted over all pieces so far, by time. */
  readonly relativeError: number;
  /** The piece furthest from its prediction, relatively. */
  readonly worst?: { readonly op: string; readonly device: string; readonly relativeError: number };
  /** Whether |relativeError| has passed the threshold. */
  readonly drifted: boolean;
}

const MODEL_KINDS = new Set<string>(['spmm', 'spmv', 'bfs', 'msbfs']);

/**
 * Show the model one observed piece against its prediction (seconds and joules). Only what the
 * model predicts from features is corrected: rooflines and host-computed operators are skipped.
 */
export function observePiece(
  model: CostModel,
  piece: { readonly kind: string; readonly device: string; readonly source: string; readonly energySource: PieceRecord['energySource'] },
  predicted: { readonly seconds: number; readonly joules: number },
  observed: { readonly seconds: number; readonly joules: number },
): void {
  if (piece.source === 'roofline' || !MODEL_KINDS.has(piece.kind)) return;
  const operator = piece.kind as OperatorKind;
  model.observe(
    { device: piece.device, operator, seconds: predicted.seconds, joules: predicted.joules, uncertainty: 1, state: model.state(piece.device).state },
    { device: piece.device, operator, output: undefined as never, seconds: observed.seconds, joules: observed.joules, source: piece.source === 'measured' ? 'measured' : 'simulated', energySource: piece.energySource, counters: {} },
  );
}

/**
 * Watch a run for drift and teach the model what it sees.
 * @example
 * const drift = new DriftMonitor(plan.context.model);
 * await runPlan(plan, { observers: [drift] });
 * drift.state;   // { pieces, relativeError, worst, drifted }
 */
export class DriftMonitor implements ExecutionObserver {
  private readonly threshold: number;
  private predicted = 0;
  private observed = 0;
  private count = 0;
  private worst: DriftState['worst'];
  /** Every piece seen, in completion order. */
  readonly records: PieceRecord[] = [];

  /** @throws {InvalidArgumentError} for a threshold that is not a number > 0. */
  constructor(
    private readonly model?: CostModel,
    options: DriftOptions = {},
  ) {
    if (model !== undefined && typeof (model as { observe?: unknown } | null)?.observe !== 'function') {
      throw new InvalidArgumentError(`DriftMonitor: model must be a CostModel or undefined, got ${describe(model)}`);
    }
    if (options === null || typeof options !== 'object') throw new InvalidArgumentError(`DriftMonitor: options must be an object, got ${describe(options)}`);
    const t = options.threshold ?? 0.25;
    if (typeof t !== 'number' || !(t > 0) || !Number.isFinite(t)) throw new InvalidArgumentError(`DriftMonitor: threshold must be a number > 0, got ${describe(t)}`);
    this.threshold = t;
  }

  onPiece(r: PieceRecord): void {
    this.records.push(r);
    this.count++;
    this.predicted += r.predictedSeconds;
    this.observed += r.observedSeconds;
    const rel = r.predictedSeconds > 0 ? (r.observedSeconds - r.predictedSeconds) / r.predictedSeconds : 0;
    if (!this.worst || Math.abs(rel) > Math.abs(this.worst.relativeError)) this.worst = { op: r.op, device: r.device, relativeError: rel };
    if (this.model) observePiece(this.model, r, { seconds: r.predictedSeconds, joules: r.predictedJoules }, { seconds: r.observedSeconds, joules: r.observedJoules });
  }

  get state(): DriftState {
    const relativeError = this.predicted > 0 ? (this.observed - this.predicted) / this.predicted : 0;
    return { pieces: this.count, relativeError, ...(this.worst ? { worst: this.worst } : {}), drifted: Math.abs(relativeError) > this.threshold };
  }
}
