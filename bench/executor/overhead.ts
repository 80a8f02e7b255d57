// Issue 6's demonstration 4: the executor's overhead per operator (dispatch, bookkeeping, drift
// monitoring, observers) beyond the kernels themselves. PageRank (iterations of SpMV and an affine
// update) on a 64-vertex grid keeps every kernel to a few microseconds, so the executor's own work
// shows. The reference, in the same tinybench run, runs the same pieces in the
// same order through the same runPiece the executor calls, with nothing around them.
// Run: node --expose-gc --import tsx bench/executor/overhead.ts [--quick] [--json FILE]

import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { buildSystem } from '../../src/devices/system.js';
import { runPlan } from '../../src/executor/run.js';
import { TraceRecorder } from '../../src/executor/trace.js';
import { gridGraph } from '../../src/generators/index.js';
import { runPiece } from '../../src/scheduler/pieces.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { pagerankDefinition } from '../../src/workloads/builder.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import type { Value } from '../../src/workloads/reference.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from '../common/report.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, json: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  strict: true,
});

// Two sizes of the same DAG: the difference between them is the overhead that grows with the
// operators (per operator); what is left is the per-run cost (planning context, the observed
// timeline, the result), reported apart.
const SIZES = [8, 32];
const system = buildSystem({ name: 'cpu-only', devices: [{ name: 'cpu', backend: 'cpu' }] }, 'overhead');
const graph = gridGraph({ rows: 8, cols: 8, seed: 1 });
const device = system.devices[0]!;

interface Size {
  readonly ops: number;
  readonly cases: [string, () => Promise<unknown>][];
}
const sizes: Size[] = [];
for (const iterations of SIZES) {
  const plan = await schedule(defineWorkload(pagerankDefinition(iterations)), graph, { system });
  const { bound } = plan;
  /** The kernels alone: every operator's piece in topological order, outputs kept in an array. */
  const direct = async (): Promise<void> => {
    const values: (Value | undefined)[] = bound.values.map((v) => v.data as Value | undefined);
    for (const op of bound.ops) {
      const x = op.operands.map((i) => values[i]!);
      values[op.output] = (await runPiece(bound, op, device, x, 0, op.units)).output;
    }
  };
  sizes.push({
    ops: bound.ops.length,
    cases: [
      ['kernels alone (runPiece loop, reference)', direct],
      ['runPlan, re-planning off, no observers', () => runPlan(plan, { replan: false })],
      ['runPlan, default (drift monitor and re-planning on)', () => runPlan(plan)],
      ['runPlan, default + trace recorder', () => runPlan(plan, { observers: [new TraceRecorder()] })],
    ],
  });
}

progress(`overhead: pagerank of ${sizes.map((z) => z.ops).join(' and ')} operators on ${device.name}`);
for (const z of sizes) for (const [, run] of z.cases) await run(); // warm the JIT and the feature caches
// Several rounds of the whole tinybench run, the tasks in a different order each round, and the
// median over rounds of each task's median: on a shared VM a slow stretch then lands on every
// task alike instead of on whichever ran during it.
const ROUNDS = args.quick ? 3 : 7;
const medians = new Map<string, number[]>();
const tasks = sizes.flatMap((z) => z.cases.map(([name, run]) => [`${name} [${z.ops}]`, run] as const));
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: args.quick ? 300 : 1000, warmupTime: 200, iterations: args.quick ? 20 : 50 });
  const order = round % 2 === 0 ? tasks : [...tasks].reverse();
  for (const [name, run] of order) bench.add(name, async () => void (await run()));
  globalThis.gc?.();
  await bench.run();
  for (const [name] of tasks) {
    const r = bench.getTask(name)?.result;
    if (r === undefined || r.state !== 'completed') throw new Error(`${name}: ${r?.state ?? 'missing'}`);
    medians.set(name, [...(medians.get(name) ?? []), r.latency.p50]);
  }
}
const median = (name: string, ops: number): number => {
  const m = [...medians.get(`${name} [${ops}]`)!].sort((p, q) => p - q);
  return m[m.length >> 1]!;
};
const [small, large] = sizes as [Size, Size];
const rows = large.cases.map(([name]) => {
  const over = (z: Size): number => median(name, z.ops) - median(large.cases[0]![0], z.ops);
  const perOperatorUs = ((over(large) - over(small)) * 1e3) / (large.ops - small.ops);
  return {
    name,
    smallMs: median(name, small.ops),
    largeMs: median(name, large.ops),
    overheadPerOperatorUs: perOperatorUs,
    perRunUs: over(large) * 1e3 - perOperatorUs * large.ops,
    // Everything beyond the kernels at the larger size, per operator: per-run costs included,
    // so it bounds the per-operator figure from above, and it is one difference, not two.
    allPerOperatorUs: (over(large) * 1e3) / large.ops,
  };
});
const ops = large.ops;

const report: SuiteReport = {
  suite: 'overhead',
  title: 'Executor overhead per operator (issue 6, demonstration 4)',
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: { quick: args.quick, rounds: ROUNDS, workload: `pagerank, ${SIZES.join(' and ')} iterations (${small.ops} and ${ops} operators)`, input: 'grid 8x8 (64 vertices)', device: 'cpu' },
  notes: [
    'Goal: at most 10 us per operator beyond the kernel itself. Overhead per operator = the growth of (case - reference) from the smaller DAG to the larger, per added operator; per run = what is left (fixed costs of a run). The last column divides all of (case - reference) at the larger size by its operators: an upper bound on the per-operator figure, and steadier (one difference of medians, not two).',
    `Medians over ${ROUNDS} rounds of tinybench (alternating task order) of each task's median.`,
    'The reference calls the same runPiece the executor calls (device.run for native kernels, the host kernels otherwise), in topological order, with nothing around it.',
  ],
  tables: [
    {
      title: 'Median wall time of one run of the plan, and the executor\'s overhead',
      columns: ['case', `${small.ops} operators`, `${ops} operators`, 'overhead per operator', 'overhead per run', `all overhead at ${ops} operators, per operator`],
      rows: rows.map((r, i) => [r.name, `${fixed(r.smallMs, 3)} ms`, `${fixed(r.largeMs, 3)} ms`, i === 0 ? '(reference)' : `${fixed(r.overheadPerOperatorUs, 1)} us`, i === 0 ? '' : `${fixed(r.perRunUs, 0)} us`, i === 0 ? '' : `${fixed(r.allPerOperatorUs, 1)} us`]),
    },
  ],
  data: rows,
};
emitReport(report, args.json, args.quiet);
await system.dispose();
