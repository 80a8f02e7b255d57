// A timeline recorder: an observer that turns a run into Chrome trace JSON (the Trace Event
// Format that Perfetto and chrome://tracing open). One track per device and one per link; each
// piece carries its predicted and observed cost and how the time was obtained.

import { writeFile } from 'node:fs/promises';
import { describe, InvalidArgumentError, IoError } from '../errors.js';
import type { ExecutionObserver, RunResult } from './run.js';

/** One complete event ("ph": "X") or metadata event ("ph": "M") of the Trace Event Format. */
export interface TraceEvent {
  readonly name: string;
  readonly ph: 'X' | 'M' | 'i';
  /** Scope of an instant event: 'g' (global) draws a line across every track. */
  readonly s?: 'g';
  readonly pid: number;
  readonly tid: number;
  readonly ts?: number;
  readonly dur?: number;
  readonly cat?: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** Chrome trace JSON of a run; timestamps are the composed timeline, in microseconds. */
export function chromeTrace(
  result: RunResult,
  title = 'dype run',
): { traceEvents: TraceEvent[]; displayTimeUnit: 'ns' | 'ms'; otherData: Record<string, unknown> } {
  if (result === null || typeof result !== 'object' || !Array.isArray(result.pieces)) {
    throw new InvalidArgumentError(`chromeTrace: result must be a runPlan result, got ${describe(result)}`);
  }
  if (typeof title !== 'string') throw new InvalidArgumentError(`chromeTrace: title must be a string, got ${describe(title)}`);
  const tracks = new Map<string, number>();
  const tid = (name: string): number => {
    let t = tracks.get(name);
    if (t === undefined) {
      t = tracks.size + 1;
      tracks.set(name, t);
    }
    return t;
  };
  const events: TraceEvent[] = [];
  for (const p of result.pieces) {
    events.push({
      name: `${p.op} [${p.begin}, ${p.end})`,
      cat: p.kind,
      ph: 'X',
      pid: 1,
      tid: tid(p.device),
      ts: p.start * 1e6,
      dur: (p.finish - p.start) * 1e6,
      args: {
        device: p.device,
        source: p.source,
        energySource: p.energySource,
        predictedSeconds: p.predictedSeconds,
        observedSeconds: p.observedSeconds,
        predictedJoules: p.predictedJoules,
        observedJoules: p.observedJoules,
        ...(p.copies ? { toDeviceBytes: p.copies.toDeviceBytes, toHostBytes: p.copies.toHostBytes } : {}),
        ...(p.steps ? { steppedOn: [...new Set(p.steps.map((st: { device: string }) => st.device))].join(', ') } : {}),
      },
    });
    // A BFS re-decided level by level: each group of levels on the track of the device it ran
    // on, in order from the piece's start, after the modelled move that brought it there.
    let at = p.start;
    for (const st of p.steps ?? []) {
      at += st.moveSeconds;
      events.push({
        name: `${p.op} levels ${st.fromLevel}..${st.fromLevel + st.levels}`,
        cat: 'bfs-levels',
        ph: 'X',
        pid: 1,
        tid: tid(st.device),
        ts: at * 1e6,
        dur: st.observedSeconds * 1e6,
        args: {
          device: st.device,
          source: st.source,
          reason: st.reason,
          frontier: st.frontier,
          frontierEdges: st.frontierEdges,
          bottomUp: st.bottomUp,
          predictedSeconds: st.predictedSeconds,
          observedSeconds: st.observedSeconds,
          moveSeconds: st.moveSeconds,
        },
      });
      at += st.observedSeconds;
    }
  }
  for (const t of result.transfers) {
    events.push({
      name: `copy ${t.bytes} B`,
      cat: 'transfer',
      ph: 'X',
      pid: 1,
      tid: tid(`${t.from} -> ${t.to}`),
      ts: t.start * 1e6,
      dur: (t.finish - t.start) * 1e6,
      args: { bytes: t.bytes, modelled: true },
    });
  }
  // Re-plans, as global instant events where the operator that triggered them finished.
  for (const r of result.replans) {
    const at = Math.max(0, ...result.pieces.filter((p) => p.op === r.after).map((p) => p.finish));
    events.push({ name: 're-plan', cat: 'replan', ph: 'i', s: 'g', pid: 1, tid: 0, ts: at * 1e6, args: { reason: r.reason, from: r.from, to: r.to } });
  }
  for (const [name, id] of tracks) events.push({ name: 'thread_name', ph: 'M', pid: 1, tid: id, args: { name } });
  events.push({ name: 'process_name', ph: 'M', pid: 1, tid: 0, args: { name: title } });
  return {
    traceEvents: events,
    displayTimeUnit: 'ns',
    otherData: { makespanSeconds: result.makespan, energyJoules: result.energy, measuredShare: result.measuredShare, wallSeconds: result.wallSeconds },
  };
}

/**
 * An observer that keeps the run's Chrome trace (`trace.json()`), and writes it to `path` with
 * `trace.write(path)`.
 * @example
 * const trace = new TraceRecorder();
 * await runPlan(plan, { observers: [trace] });
 * await trace.write('run.trace.json');   // open in https://ui.perfetto.dev
 */
export class TraceRecorder implements ExecutionObserver {
  private result: RunResult | undefined;

  constructor(private readonly title = 'dype run') {
    if (typeof title !== 'string') throw new InvalidArgumentError(`TraceRecorder: title must be a string, got ${describe(title)}`);
  }

  onRunEnd(result: RunResult): void {
    this.result = result;
  }

  /** The trace of the last run observed. @throws {Error} before any run ended. */
  json(): ReturnType<typeof chromeTrace> {
    if (!this.result) throw new Error('TraceRecorder.json: no run has ended yet');
    return chromeTrace(this.result, this.title);
  }

  /** @throws {Error} before any run ended; {IoError} when the file cannot be written. */
  async write(path: string): Promise<void> {
    const text = JSON.stringify(this.json());
    try {
      await writeFile(path, text);
    } catch (cause) {
      throw new IoError('TraceRecorder.write', path, cause);
    }
  }
}
