// What a run reports: each piece as it ran, the re-plans and why, the whole result, and the
// observer interface through which tracing, drift reports and progress watch a run.

import type { EnergySource } from '../devices/device.js';
import type { Metrics, TransferEntry } from '../scheduler/evaluate.js';
import type { Value } from '../workloads/reference.js';
import type { BfsStepRecord } from './bfs-steps.js';
import type { PieceSource } from './piece.js';

/** One piece of one operator, as it ran. */
export interface PieceRecord {
  readonly op: string;
  readonly kind: string;
  readonly device: string;
  /** Units (rows or sources) `[begin, end)` of the operator. */
  readonly begin: number;
  readonly end: number;
  readonly predictedSeconds: number;
  readonly observedSeconds: number;
  readonly predictedJoules: number;
  readonly observedJoules: number;
  /** `measured` (a clock), `simulated` (a simulator) or `roofline` (modelled: no simulator for it). */
  readonly source: PieceSource;
  readonly energySource: EnergySource;
  /**
   * A single-source BFS re-decided level by level: its groups of levels, each on the device
   * chosen from the actual frontier. The piece keeps its planned device's place in the
   * timeline, for the steps' time and the modelled moves between memory spaces together.
   */
  readonly steps?: readonly BfsStepRecord[];
}

/** A piece placed on the run's composed timeline (seconds from the start of the run). */
export interface TimedPieceRecord extends PieceRecord {
  readonly start: number;
  readonly finish: number;
}

/** A re-plan of the remaining operators, and why. */
export interface ReplanRecord {
  /** The operator whose completion triggered it. */
  readonly after: string;
  /** Seconds since the run started (host wall clock). */
  readonly at: number;
  readonly reason: string;
  /** Predicted seconds of the remaining work when it was planned, and now. */
  readonly plannedSeconds: number;
  readonly nowSeconds: number;
  /** The remaining operators' choices before and after (`op:choice`, comma-separated). */
  readonly from: string;
  readonly to: string;
}

export interface RunResult {
  /** The workload's outputs by operator id. */
  readonly outputs: Readonly<Record<string, Value>>;
  readonly pieces: readonly TimedPieceRecord[];
  readonly transfers: readonly TransferEntry[];
  /** Makespan and energy composed from the observed costs. */
  readonly makespan: number;
  readonly energy: number;
  /** Share of the pieces' seconds read off a clock (the rest simulated or modelled). */
  readonly measuredShare: number;
  /** What the plan predicted, for comparison. */
  readonly predicted: Metrics;
  /** Host wall time of the whole run, seconds. */
  readonly wallSeconds: number;
  /** The mapping that ran (after any re-plans), in the plan's short form. */
  readonly mapping: string;
  readonly replans: readonly ReplanRecord[];
}

/** Plugged into a run; never changes it. Hooks must not throw: an error they throw rejects the run. */
export interface ExecutionObserver {
  /** After each piece, in completion order. */
  onPiece?(record: PieceRecord): void;
  /** When the remaining operators were re-planned. */
  onReplan?(record: ReplanRecord): void;
  /** Once, with the whole result, before `runPlan` resolves. */
  onRunEnd?(result: RunResult): void;
}
