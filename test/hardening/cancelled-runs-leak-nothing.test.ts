// Cancelled runs leak nothing: 24 runs aborted at different points (before starting, after the
// first piece, mid-way) all reject with the signal's reason, and once the pieces already handed
// to native code have finished, no kernel call is left alive in the addon (so no pinned buffer),
// the native thread pool has its usual size, and the process holds no more handles or timers
// than before.

import { expect, it } from 'vitest';
import { runPlan } from '../../src/executor/run.js';
import { nativeAddon } from '../../src/native/addon.js';
import { Planner, widestSplit, withGenome } from '../executor/executor-fixtures.js';

const planner = new Planner();

/** Resources of the process by type (handles, timers, requests), as Node lists them. */
function resources(): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) m.set(r, (m.get(r) ?? 0) + 1);
  return m;
}

/** Let every queued callback and settled native call run: a bounded wait on a condition, not a timing. */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
}

it('24 aborted runs reject with their reason and leave no native call, thread or handle behind', async () => {
  const addon = nativeAddon();
  const plans = await Promise.all(
    ['gcn', 'msbfs', 'spmm', 'sage'].map(async (w) => {
      const base = await planner.plan(w);
      return withGenome(base, widestSplit(base, 3));
    }),
  );
  // Warm every backend once so lazily created state (the thread pool, the WebAssembly module) is in the baseline.
  for (const p of plans) await runPlan(p, { replan: false });
  await settle(() => addon.liveWorkers() === 0);
  const threads = addon.threads();
  const before = resources();

  const outcomes = await Promise.allSettled(
    Array.from({ length: 24 }, (_, i) => {
      const controller = new AbortController();
      const reason = new Error(`stop ${i}`);
      const abortAt = i % 3; // 0: before starting, 1: after the first piece, 2: after the second
      if (abortAt === 0) controller.abort(reason);
      let pieces = 0;
      return runPlan(plans[i % plans.length]!, {
        replan: false,
        signal: controller.signal,
        observers: [
          {
            onPiece: () => {
              if (++pieces === abortAt) controller.abort(reason);
            },
          },
        ],
      }).then(
        () => {
          throw new Error(`run ${i} was not cancelled`);
        },
        (e: unknown) => expect(e).toBe(reason),
      );
    }),
  );
  for (const o of outcomes) expect(o.status, o.status === 'rejected' ? String((o as PromiseRejectedResult).reason) : '').toBe('fulfilled');

  await settle(() => addon.liveWorkers() === 0);
  expect(addon.liveWorkers()).toBe(0);
  expect(addon.threads()).toBe(threads);
  await settle(() => [...resources()].every(([k, n]) => n <= (before.get(k) ?? 0)));
  const after = resources();
  for (const [kind, n] of after) expect(n, `${kind} resources after the aborted runs`).toBeLessThanOrEqual(before.get(kind) ?? 0);
});

it('the live-call counter counts: it rises while calls are in flight and returns to zero', async () => {
  const addon = nativeAddon();
  const calls = Array.from({ length: 8 }, () => addon.noopAsync());
  expect(addon.liveWorkers()).toBeGreaterThanOrEqual(1);
  await Promise.all(calls);
  await settle(() => addon.liveWorkers() === 0);
  expect(addon.liveWorkers()).toBe(0);
});
