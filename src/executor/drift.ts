// The drift monitor: an observer that reports how far a run's observed costs are from their
// predictions (relative error over the run, the worst piece, whether a threshold is passed). It
// only watches: the run itself is the one path through which observations teach the cost model
// (runPlan's `learn` option), so a piece is never learnt twice.

import { describe, InvalidArgumentError } from '../errors.js';
import type { ExecutionObserver, PieceRecord } from './records.js';

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

/**
 * Watch a run for drift.
 * @throws {InvalidArgumentError} for options that are not an object or a threshold that is not a number > 0.
 * @example
 * const drift = new DriftMonitor({ threshold: 0.25 });
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

  constructor(options: DriftOptions = {}) {
    if (options === null || typeof options !== 'object' || Array.isArray(options))
      throw new InvalidArgumentError(`DriftMonitor: options must be an object, got ${describe(options)}`);
    if (typeof (options as { observe?: unknown }).observe === 'function') {
      throw new InvalidArgumentError(
        "DriftMonitor: it no longer takes a cost model: runPlan teaches the plan's model itself (its `learn` option); pass { threshold } only",
      );
    }
    const t = options.threshold ?? 0.25;
    if (typeof t !== 'number' || !(t > 0) || !Number.isFinite(t))
      throw new InvalidArgumentError(`DriftMonitor: threshold must be a number > 0, got ${describe(t)}`);
    this.threshold = t;
  }

  onPiece(r: PieceRecord): void {
    this.records.push(r);
    this.count++;
    this.predicted += r.predictedSeconds;
    this.observed += r.observedSeconds;
    const rel = r.predictedSeconds > 0 ? (r.observedSeconds - r.predictedSeconds) / r.predictedSeconds : 0;
    if (!this.worst || Math.abs(rel) > Math.abs(this.worst.relativeError)) this.worst = { op: r.op, device: r.device, relativeError: rel };
  }

  get state(): DriftState {
    const relativeError = this.predicted > 0 ? (this.observed - this.predicted) / this.predicted : 0;
    return { pieces: this.count, relativeError, ...(this.worst ? { worst: this.worst } : {}), drifted: Math.abs(relativeError) > this.threshold };
  }
}
