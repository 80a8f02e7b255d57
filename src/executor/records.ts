// What a run reports: each piece as it ran, the re-plans and why, the whole result, and the
// observer interface through which tracing, drift reports and progress watch a run.

import type { EnergySource } from '../devices/device.js';
import type { Metrics, TransferEntry } from '../scheduler/evaluate.js';
import type { Value } from '../workloads/reference.js';
import type { BfsStepRecord } from './bfs-steps.js';
import type { DeviceCopies } from './device-values.js';
import type { PieceCopies, PieceSource } from './piece.js';

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
  /** When the piece started and finished on the host's clock, seconds since the run started (for a simulated piece: the simulation's host time, not the device's). */
  readonly wallStart: number;
  readonly wallFinish: number;
  /**
   * A single-source BFS re-decided level by level: its groups of levels, each on the device
   * chosen from the actual frontier. The piece keeps its planned device's place in the
   * timeline, for the steps' time and the modelled moves between memory spaces together.
   */
  readonly steps?: readonly BfsStepRecord[];
  /** On a device with memory of its own: the bytes the piece's call copied in and out. */
  readonly copies?: PieceCopies;
}

/**
 * A piece placed on the run's timeline (seconds from the start of the run): its measured start
 * and finish when the run's makespan is measured, else its place on the composed timeline.
 */
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
  /** Every operator's output by operator id, when the run was asked to keep them (`keepValues`). */
  readonly values?: Readonly<Record<string, Value>>;
  readonly pieces: readonly TimedPieceRecord[];
  /** The copies between memory spaces, as modelled on the composed timeline. */
  readonly transfers: readonly TransferEntry[];
  /**
   * The run's makespan: read off the host's clock (first piece's start to last piece's finish,
   * or to when the outputs came home where a device kept them to the end)
   * when every piece ran on real hardware (`makespanSource: 'measured'`), else composed from the
   * pieces' observed costs by the plan's list schedule (`'composed'`: simulators take part, and
   * their times are the devices' simulated times, not the host's).
   */
  readonly makespan: number;
  readonly makespanSource: 'measured' | 'composed';
  /** The composed makespan, always (the figure to set beside the prediction part for part). */
  readonly composedMakespan: number;
  /** Active energy of the pieces plus the idle power of the devices used, over the makespan. */
  readonly energy: number;
  /** The energy on the composed timeline, always (idle power over the composed makespan: the figure beside `composedMakespan`). */
  readonly composedEnergy: number;
  /** Share of the pieces' seconds read off a clock (the rest simulated or modelled). */
  readonly measuredShare: number;
  /** What the plan predicted, for comparison. */
  readonly predicted: Metrics;
  /** Host wall time of the whole run, seconds. */
  readonly wallSeconds: number;
  /** The mapping that ran (after any re-plans), in the plan's short form. */
  readonly mapping: string;
  readonly replans: readonly ReplanRecord[];
  /**
   * On the composed timeline, seconds from the run's start to when it leaves each device and
   * link direction (`host->gpu`): its last piece's or copy's end, or the backlog it started
   * behind where it used none. A shared machine's next backlog is made from these.
   */
  readonly busyUntil: Readonly<Record<string, number>>;
  /**
   * Bytes actually copied between the host and devices with memory of their own (a CUDA GPU):
   * the pieces' own copies, prefetched operands, and results kept on a device and fetched home.
   * Zero where every device works on host memory.
   */
  readonly deviceCopies: DeviceCopies;
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
