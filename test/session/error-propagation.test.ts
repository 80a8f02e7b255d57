// A failing operator rejects its handle with the run's ExecutionError, and every handle that
// depends on it (in its batch or a later one) with an ExecutionError naming the failed handle;
// handles that do not depend on it still get their values.

import { expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { ExecutionError } from '../../src/errors.js';
import { denseFeatures } from '../../src/generators/index.js';
import { relu } from '../../src/workloads/dense-kernels.js';
import { expectSameValue, machine, quietSession, smallGraph } from './session-fixtures.js';

/** Every device's native run throws (dense steps run on the host and still work). */
function breakDevices(devices: readonly Device[]): () => void {
  for (const d of devices)
    Object.defineProperty(d, 'run', {
      configurable: true,
      writable: true,
      value: async () => {
        throw new Error('kernel fault');
      },
    });
  return () => devices.forEach((d) => delete (d as { run?: unknown }).run);
}

it('surfaces at the failed handle and at its dependents, not at the others', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const x = denseFeatures({ rows: graph.cols, cols: 4, seed: 1 });
  const s = quietSession(system, model, { run: { recoverDeviceFailures: false } });
  const restore = breakDevices(system.devices);
  try {
    const agg = s.spmm(graph, x);
    const act = s.relu(agg);
    const twice = s.add(act, act);
    const independent = s.relu(x);
    const flushed = s.flush();
    await expect(flushed).rejects.toBeInstanceOf(ExecutionError);

    const failed = await agg.value().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ExecutionError);
    expect((failed as ExecutionError).operator).toBe(agg.id);
    expect((failed as Error).message).toMatch(/^runPlan: operator v1 \(spmm\)/);
    expect((failed as Error).message).toContain('kernel fault');

    for (const h of [act, twice]) {
      const e = await h.value().catch((err: unknown) => err);
      expect(e).toBeInstanceOf(ExecutionError);
      expect((e as ExecutionError).operator).toBe(h.id);
      expect((e as Error).message).toMatch(
        new RegExp(`^session: ${h.id} \\(\\w+\\) was not computed: it depends on v1 \\(spmm\\), which failed: runPlan: operator v1`),
      );
      expect((e as Error).cause).toBe(failed);
    }
    expect([agg.state, act.state, twice.state, independent.state]).toEqual(['failed', 'failed', 'failed', 'done']);
    expectSameValue(await independent.value(), relu(x), 'independent relu');

    // A later batch reading the failed handle fails the same way, before anything runs.
    const later = s.affine(act, { scale: 2 });
    const e = await later.value().catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ExecutionError);
    expect((e as Error).message).toContain(`depends on ${act.id} (relu)`);
  } finally {
    restore();
  }
  // The session goes on once the devices work again.
  const ok = s.spmm(graph, x);
  expect((await ok.value()).rows).toBe(graph.rows);
  await s.close();
  await system.dispose();
});
