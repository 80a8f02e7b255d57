// The Chrome trace of a run: one complete event per piece and per transfer on a named track per
// device and link, plain JSON all the way, and a recorder that keeps the last run and writes it.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, runPlan } from '../../src/executor/run.js';
import { chromeTrace, type TraceEvent, TraceRecorder } from '../../src/executor/trace.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { Planner, widestSplit, withGenome } from './executor-fixtures.js';

const planner = new Planner();
let chosen: Plan;
let plan: Plan;
let result: RunResult;
let dir: string;

beforeAll(async () => {
  chosen = await planner.plan('gcn');
  // Every device, and copies to and from the GPU's memory.
  plan = withGenome(chosen, widestSplit(chosen, 3));
  result = await runPlan(plan);
  dir = await mkdtemp(join(tmpdir(), 'dype-trace-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const complete = (events: readonly TraceEvent[]): TraceEvent[] => events.filter((e) => e.ph === 'X');

describe('chromeTrace', () => {
  it('has one complete event per piece and per transfer, at times >= 0', () => {
    expect(result.transfers.length).toBeGreaterThan(0);
    const events = complete(chromeTrace(result).traceEvents);
    expect(events.filter((e) => e.cat !== 'transfer')).toHaveLength(result.pieces.length);
    expect(events.filter((e) => e.cat === 'transfer')).toHaveLength(result.transfers.length);
    for (const e of events) {
      expect(e.ts).toBeGreaterThanOrEqual(0);
      expect(e.dur).toBeGreaterThanOrEqual(0);
    }
    // Each piece's event spans its place on the timeline, in microseconds.
    for (const p of result.pieces) {
      const e = events.find((x) => x.name === `${p.op} [${p.begin}, ${p.end})` && x.args?.['device'] === p.device);
      expect(e, `${p.op} on ${p.device}`).toBeDefined();
      expect(e!.ts).toBeCloseTo(p.start * 1e6, 6);
      expect(e!.dur).toBeCloseTo((p.finish - p.start) * 1e6, 6);
      expect(e!.args?.['source']).toBe(p.source);
    }
  });

  it('names a track for every device used and every link crossed', () => {
    const { traceEvents } = chromeTrace(result);
    const threads = new Map(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [e.tid, e.args?.['name']]));
    const devices = new Set(result.pieces.map((p) => p.device));
    expect(devices).toEqual(new Set(['cpu', 'gpu', 'cgra']));
    for (const d of devices) expect([...threads.values()]).toContain(d);
    for (const t of result.transfers) expect([...threads.values()]).toContain(`${t.from} -> ${t.to}`);
    // Every complete event sits on a named track.
    for (const e of complete(traceEvents)) expect(threads.has(e.tid)).toBe(true);
    // Pieces of one device share its track.
    for (const e of complete(traceEvents).filter((x) => x.cat !== 'transfer')) expect(threads.get(e.tid)).toBe(e.args?.['device']);
  });

  it('survives JSON.stringify and JSON.parse', async () => {
    // Every piece has a finite prediction, so nothing turns into null on the way.
    const own = await runPlan(chosen);
    expect(own.transfers.length).toBeGreaterThan(0);
    const trace = chromeTrace(own, 'round trip');
    const back = JSON.parse(JSON.stringify(trace)) as typeof trace;
    expect(back).toEqual(trace);
    expect(back.traceEvents.find((e) => e.name === 'process_name')?.args?.['name']).toBe('round trip');
  });
});

describe('TraceRecorder', () => {
  it('throws from json() before any run ended', () => {
    expect(() => new TraceRecorder().json()).toThrow(/TraceRecorder\.json/);
  });

  it('keeps the run it observed and writes it as a file of the same events', async () => {
    const trace = new TraceRecorder('gcn three-way');
    const observed = await runPlan(plan, { observers: [trace] });
    const json = trace.json();
    expect(complete(json.traceEvents)).toHaveLength(observed.pieces.length + observed.transfers.length);
    const path = join(dir, 'run.trace.json');
    await trace.write(path);
    const written = JSON.parse(await readFile(path, 'utf8')) as ReturnType<typeof chromeTrace>;
    expect(written.traceEvents).toHaveLength(json.traceEvents.length);
    expect(written).toEqual(JSON.parse(JSON.stringify(json)));
  });
});
