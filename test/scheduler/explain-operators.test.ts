// The explanation's per-operator part: one entry per operator, in order, with the chosen choice,
// its predicted cost, every device that can run it whole (fastest first), and a reason; a split's
// reason compares it with the fastest device alone.

import { expect, it } from 'vitest';
import { schedule } from '../../src/scheduler/schedule.js';
import { buildSystem } from '../../src/devices/system.js';
import { smallGraph, specModel, twoDeviceSystem } from './schedule-fixtures.js';

const system = twoDeviceSystem();
const model = specModel(system);
// Two CGRAs on host memory (no copies to pay for): splitting between them pays well beyond the
// model's resolution.
const cgras = buildSystem({
  name: 'cgras',
  devices: [
    { name: 'cgra', backend: 'cgra-sim' },
    { name: 'cgra8', backend: 'cgra-sim', profile: 'hycube-8x8' },
  ],
});
const sageMinTime = schedule('sage', smallGraph(), { system: cgras, model: specModel(cgras) });

it('lists every operator with its alternatives fastest first', async () => {
  for (const name of ['gcn', 'sage']) {
    const plan = await schedule(name, smallGraph(), { system, model, policy: 'min-energy' });
    const ops = plan.explanation.operators;
    expect(ops.map((o) => o.id)).toEqual(plan.problem.bound.ops.map((o) => o.id));
    ops.forEach((o, i) => {
      const op = plan.problem.bound.ops[i]!;
      expect(o.kind).toBe(op.kind);
      expect(o.choice).toBe(plan.problem.choices[i]![plan.chosen.genome[i]!]!.label);
      expect(o.reason.startsWith(`${op.id} (${op.kind}): `)).toBe(true);
      expect(o.alternatives.map((a) => a.device).sort()).toEqual(['cgra', 'gpu']);
      for (let k = 1; k < o.alternatives.length; k++) expect(o.alternatives[k]!.seconds).toBeGreaterThanOrEqual(o.alternatives[k - 1]!.seconds);
      for (const a of o.alternatives) {
        // Sparse kernels: the model at the level a probe of this input saw; dense operators on simulators: rooflines.
        expect(a.basis).toBe(['spmm', 'spmv', 'bfs', 'msbfs'].includes(op.kind) ? 'probed' : 'roofline');
        expect(a.seconds).toBeGreaterThan(0);
      }
      expect(o.seconds).toBeGreaterThan(0);
      expect(o.joules).toBeGreaterThan(0);
    });
    // Every operator's reason is a sentence of the summary.
    for (const o of ops) expect(plan.explanation.summary).toContain(`${o.reason}.`);
    // The features of the sparse input come first.
    expect(plan.explanation.features.map((f) => f.name)).toEqual(['nnz', 'row-length cv', 'max row / mean row', 'mean column distance']);
  }
});

it('leaves excluded devices out of the alternatives', async () => {
  const plan = await schedule('gcn', smallGraph(), { system, model, exclude: ['cgra'], splitRatios: [0.5] });
  for (const o of plan.explanation.operators) expect(o.alternatives.map((a) => a.device)).toEqual(['gpu']);
});

// A split slower than the fastest device alone (chosen to run beside other work) must not
// be called faster.
it('never calls a split faster by a ratio below 1', async () => {
  const plan = await sageMinTime;
  const splits = plan.explanation.operators.filter((o) => o.choice.includes('+'));
  expect(splits.length).toBeGreaterThan(0);
  for (const o of splits) {
    const m = /\((\d+\.\d+)x faster\)/.exec(o.reason);
    if (m) expect(Number(m[1]), o.reason).toBeGreaterThanOrEqual(1);
  }
});

it('states the split, its time and the fastest device alone', async () => {
  const plan = await sageMinTime;
  const o = plan.explanation.operators.find((x) => x.choice.includes('+'))!;
  expect(o).toBeDefined();
  const fastest = o.alternatives[0]!;
  expect(o.reason).toContain(`split ${o.choice}: `);
  expect(o.reason).toContain(`${fastest.device} alone`);
  // The case the test above is about: chosen to run beside the other branch, slower alone.
  expect(o.seconds).toBeGreaterThan(fastest.seconds);
});
