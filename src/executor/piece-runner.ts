// The piece runner of a run: one piece on its device (after its operand is made resident, and
// through BFS stepping where that applies), its cost checked against its prediction, recorded,
// and shown to the observers. A device that is lost, or fails with a recoverable error, becomes
// a DeviceLostError the run re-plans around; anything else fails the run with an ExecutionError.

import { ExecutionError, InvalidArgumentError, OperatorError } from '../errors.js';
import type { System } from '../devices/system.js';
import { PieceMap } from '../scheduler/piece-map.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { DeviceRefusedError } from './allowance.js';
import type { BfsStepRecord } from './bfs-steps.js';
import type { BfsStepping } from './bfs-stepping.js';
import { type PieceResult, runPiece } from './piece.js';
import type { ExecutionObserver, PieceRecord } from './records.js';
import type { DeviceValues } from './device-values.js';
import type { Residency } from './residency.js';
import type { DriftTracker } from './tracker.js';

/** A device became unavailable under a piece. */
export class DeviceLostError extends Error {
  constructor(
    readonly deviceIndex: number,
    readonly device: string,
    readonly why: string,
    cause?: unknown,
  ) {
    super(`device ${device} lost (${why})`, { cause });
  }
}

/** What the runner needs from the run it is part of. */
export interface RunnerHost {
  readonly signal: AbortSignal | undefined;
  /** performance.now() when the run started. */
  readonly t0: () => number;
  readonly recoverable: boolean;
  /** The error that lost the run, if any: no piece starts after it. */
  failure(): unknown;
  isLost(d: number): boolean;
  /** Whether device d may take no new piece now (over the run's allowance). */
  refuses(d: number): boolean;
  /** A piece on device d ended: its seconds count against the run's allowance. */
  charge(d: number, r: PieceResult & { steps?: readonly BfsStepRecord[] }): void;
}

type Part = { readonly device: number; readonly begin: number; readonly end: number };

export class PieceRunner {
  /** Each piece's observed cost, by operator, device and range. */
  readonly observed: PieceMap<PieceResult>;
  /** The record of each piece that ran (the timeline looks pieces up by operator, device and range). */
  readonly records: PieceMap<PieceRecord>;

  constructor(
    private readonly bound: BoundWorkload,
    private readonly system: System,
    private readonly host: RunnerHost,
    private readonly residency: Residency,
    private readonly deviceValues: DeviceValues,
    private readonly stepping: BfsStepping,
    private readonly tracker: DriftTracker,
    private readonly observers: readonly ExecutionObserver[],
  ) {
    this.observed = new PieceMap(bound.ops.length);
    this.records = new PieceMap(bound.ops.length);
  }

  async run(i: number, op: BoundOp, x: readonly Value[], part: Part): Promise<PieceResult> {
    const { host, system } = this;
    const signal = host.signal;
    signal?.throwIfAborted();
    const failure = host.failure();
    if (failure !== undefined) throw failure;
    const device = system.devices[part.device]!;
    if (host.isLost(part.device)) throw new DeviceLostError(part.device, device.name, 'withdrawn');
    if (host.refuses(part.device)) throw new DeviceRefusedError(part.device, device.name);
    let r: PieceResult & { steps?: readonly BfsStepRecord[] };
    let wallStart = 0;
    const keep = this.deviceValues.request(op, device, part);
    try {
      const wait = this.residency.prepare(device, op, x);
      if (wait) await wait;
      await this.deviceValues.prepare(op, x, device, part);
      wallStart = performance.now();
      const stepped = this.stepping.applies(op) ? await this.stepping.run(op, x, part.device) : undefined;
      r = stepped ?? (await runPiece(this.bound, op, device, x, part.begin, part.end, signal, keep));
    } catch (cause) {
      this.deviceValues.abandon(device, keep);
      if (signal?.aborted) throw signal.reason;
      // A kept operand that could not be brought home: not this device's fault, and not recoverable.
      if (this.deviceValues.isLostResult(cause)) throw cause;
      if (host.isLost(part.device)) throw new DeviceLostError(part.device, device.name, 'withdrawn', cause);
      // Bad operands, and a user operator's own code failing, are not the device's fault: no device loss.
      if (host.recoverable && !(cause instanceof InvalidArgumentError) && !(cause instanceof OperatorError)) {
        throw new DeviceLostError(part.device, device.name, `failed: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
      }
      throw new ExecutionError(
        op.id,
        device.name,
        `runPlan: operator ${op.id} (${op.kind}) on ${device.name}, units [${part.begin}, ${part.end}): ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
    const wallFinish = performance.now();
    // Charged before the device's next piece can start (the queue starts it after this returns).
    host.charge(part.device, r);
    this.deviceValues.record(op, r.output, device, keep);
    if (r.copies) this.deviceValues.count(r.copies.toDeviceBytes, r.copies.toHostBytes);
    this.observed.set(i, part.device, part.begin, part.end, r);
    const p = this.tracker.prediction(i, part);
    const t0 = host.t0();
    const rec: PieceRecord = {
      op: op.id,
      kind: op.kind,
      device: device.name,
      begin: part.begin,
      end: part.end,
      predictedSeconds: p.seconds,
      observedSeconds: r.seconds,
      predictedJoules: p.joules,
      observedJoules: r.joules,
      source: r.source,
      energySource: r.energySource,
      wallStart: (wallStart - t0) / 1000,
      wallFinish: (wallFinish - t0) / 1000,
      ...(r.steps ? { steps: r.steps } : {}),
      ...(r.copies ? { copies: r.copies } : {}),
    };
    this.records.set(i, part.device, part.begin, part.end, rec);
    for (const o of this.observers) o.onPiece?.(rec);
    return r;
  }
}
