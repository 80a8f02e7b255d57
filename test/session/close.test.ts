// close(): refuses new calls at once, runs what is pending, waits for it, never rejects, and is
// idempotent; Symbol.asyncDispose is close.

import { expect, it } from 'vitest';
import { denseFeatures } from '../../src/generators/index.js';
import { machine, quietSession, smallGraph } from './session-fixtures.js';

it('runs the pending calls and refuses new ones', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const x = denseFeatures({ rows: graph.cols, cols: 4, seed: 1 });
  const s = quietSession(system, model);
  const h = s.relu(s.spmm(graph, x));
  const closing = s.close();
  expect(() => s.relu(x)).toThrow(/closed/);
  expect(s.close()).toBe(closing);
  await closing;
  expect(h.state).toBe('done');
  expect((await h.value()).rows).toBe(graph.rows);
  await system.dispose();
});

it('closes through Symbol.asyncDispose', async () => {
  const { system, model } = machine();
  const x = denseFeatures({ rows: 16, cols: 4, seed: 1 });
  const s = quietSession(system, model);
  const h = s.affine(x, { scale: -1 });
  await (s as unknown as AsyncDisposable)[Symbol.asyncDispose]();
  expect(s.closed).toBe(true);
  expect(h.state).toBe('done');
  const v = await h.value();
  expect(v.data[0]).toBeCloseTo(-x.data[0]!, 6);
  await system.dispose();
});
