// Batching: calls wait until a sync point, or launch by themselves when the window of pending
// calls fills; each batch is one plan.

import { expect, it } from 'vitest';
import { denseFeatures } from '../../src/generators/index.js';
import type { BatchRecord } from '../../src/session/session.js';
import { machine, quietSession } from './session-fixtures.js';

it('launches a batch when the window fills, and the rest at the sync point', async () => {
  const { system, model } = machine();
  const x = denseFeatures({ rows: 64, cols: 4, seed: 3 });
  const batches: BatchRecord[] = [];
  const s = quietSession(system, model, { window: 3, onBatch: (b) => batches.push(b) });
  const a = s.relu(x);
  const b = s.affine(a, { scale: 2 });
  expect([a.state, b.state, s.pending]).toEqual(['pending', 'pending', 2]);
  const c = s.add(a, b); // the third call fills the window
  expect([a.state, b.state, c.state, s.pending]).toEqual(['running', 'running', 'running', 0]);
  const d = s.relu(c);
  const e = s.affine(d, { shift: 1 });
  expect([d.state, e.state, s.pending]).toEqual(['pending', 'pending', 2]);
  await e.value(); // sync point: launches d and e
  expect(batches.map((r) => [r.reason, r.operators])).toEqual([
    ['window', ['v1', 'v2', 'v3']],
    ['value', ['v4', 'v5']],
  ]);
  expect([a, b, c, d, e].map((h) => h.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
  // Awaiting a value already computed plans nothing.
  await a.value();
  await s.flush();
  expect(batches).toHaveLength(2);
  await s.close();
  await system.dispose();
});

it('uses a window of 64 by default', async () => {
  const { system, model } = machine();
  const x = denseFeatures({ rows: 8, cols: 2, seed: 1 });
  // Cancelled once launched: planning 64 operators is not what this test is about.
  const controller = new AbortController();
  const s = quietSession(system, model, { signal: controller.signal });
  const handles = Array.from({ length: 63 }, () => s.relu(x));
  expect(s.pending).toBe(63);
  handles.push(s.relu(x));
  expect(s.pending).toBe(0);
  expect(handles.every((h) => h.state === 'running')).toBe(true);
  controller.abort();
  await s.close();
  await system.dispose();
});
