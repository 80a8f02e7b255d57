// Cancelling a run: an aborted signal stops it before any piece, or at the next piece boundary,
// and the run rejects with the signal's reason without reporting an end.

import { describe, expect, it } from 'vitest';
import { type PieceRecord, runPlan } from '../../src/executor/run.js';
import type { Plan } from '../../src/scheduler/schedule.js';
import { pieceCount, Planner, widestSplit, withGenome } from './executor-fixtures.js';

const planner = new Planner();

/** Run `plan`, aborting with `reason` from inside the first onPiece call. */
async function abortAfterFirstPiece(plan: Plan, reason: Error): Promise<{ outcome: PromiseSettledResult<unknown>; seen: PieceRecord[]; ends: () => number }> {
  const controller = new AbortController();
  const seen: PieceRecord[] = [];
  let ends = 0;
  const [outcome] = await Promise.allSettled([
    runPlan(plan, {
      replan: false,
      signal: controller.signal,
      observers: [
        {
          onPiece: (r) => {
            seen.push(r);
            if (seen.length === 1) controller.abort(reason);
          },
          onRunEnd: () => ends++,
        },
      ],
    }),
  ]);
  return { outcome: outcome!, seen, ends: () => ends };
}

describe('runPlan with an AbortSignal', () => {
  it('rejects with the reason of an already-aborted signal before anything runs', async () => {
    const plan = await planner.plan('gcn');
    const reason = new Error('stop before starting');
    let pieces = 0;
    let ends = 0;
    await expect(runPlan(plan, { signal: AbortSignal.abort(reason), observers: [{ onPiece: () => pieces++, onRunEnd: () => ends++ }] })).rejects.toBe(reason);
    expect(pieces).toBe(0);
    expect(ends).toBe(0);
  });

  it.each([
    ['pagerank', 'chosen'],
    ['gcn', 'chosen'],
    ['gcn', 'three-way'],
    ['sage', 'three-way'],
  ] as const)('aborted from inside onPiece, %s (%s mapping) stops and rejects with the reason', async (name, mapping) => {
    const base = await planner.plan(name);
    const plan = mapping === 'chosen' ? base : withGenome(base, widestSplit(base, 3));
    const total = pieceCount(plan);
    expect(total).toBeGreaterThan(2);
    const reason = new Error('stop after the first piece');
    const { outcome, seen, ends } = await abortAfterFirstPiece(plan, reason);
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toBe(reason);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThan(total);
    // Nothing is reported after the rejection either.
    const atRejection = seen.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.length).toBe(atRejection);
    expect(ends()).toBe(0);
  });

  // Every remaining piece may already have started when the abort arrives; the run still
  // rejects, and no result is presented.
  it.each(['spmm', 'msbfs'])('aborted from inside onPiece, a three-way %s still rejects', async (name) => {
    const base = await planner.plan(name);
    const plan = withGenome(base, widestSplit(base, 3));
    const reason = new Error('stop after the first piece');
    const { outcome, ends } = await abortAfterFirstPiece(plan, reason);
    expect(ends()).toBe(0);
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toBe(reason);
  });

  it('a signal aborted after the run resolved changes nothing', async () => {
    const plan = await planner.plan('spmm');
    const controller = new AbortController();
    const result = await runPlan(plan, { replan: false, signal: controller.signal });
    controller.abort(new Error('too late'));
    expect(result.pieces).toHaveLength(pieceCount(plan));
  });
});
