// Cancellation through the session's AbortSignal: calls not yet run reject with AbortedError
// (cause: the signal's reason), in-flight batches stop, and later calls throw it at once.

import { expect, it } from 'vitest';
import { AbortedError, type DypeError } from '../../src/errors.js';
import { denseFeatures } from '../../src/generators/index.js';
import { session } from '../../src/session/session.js';
import { machine, quietSession, smallGraph } from './session-fixtures.js';

it('rejects pending and launched handles with AbortedError, and refuses later calls', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const x = denseFeatures({ rows: graph.cols, cols: 4, seed: 1 });
  const controller = new AbortController();
  const s = quietSession(system, model, { signal: controller.signal, window: 2 });
  const launched = [s.spmm(graph, x), s.relu(x)]; // the window launches these two
  expect(launched.map((h) => h.state)).toEqual(['running', 'running']);
  const pending = s.relu(launched[0]!);
  expect(pending.state).toBe('pending');
  const reason = new Error('user stopped');
  controller.abort(reason);
  for (const h of [...launched, pending]) {
    const e = await h.value().catch((err: unknown) => err);
    expect(e, h.id).toBeInstanceOf(AbortedError);
    expect((e as DypeError).code).toBe('ERR_ABORTED');
    expect((e as Error).cause).toBe(reason);
    expect(h.state).toBe('failed');
  }
  expect(() => s.relu(x)).toThrow(AbortedError);
  expect(() => s.relu(x)).toThrow(/^session\.relu: the session was aborted/);
  await expect(s.flush()).resolves.toBeUndefined();
  await s.close();
  await system.dispose();
});

it('refuses a signal that is already aborted', () => {
  expect(() => session({ signal: AbortSignal.abort() })).toThrow(AbortedError);
});
