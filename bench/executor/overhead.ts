// Issue 6's demonstration 4: the executor's overhead per operator (dispatch, bookkeeping, drift
// monitoring, observers) beyond the kernels themselves. PageRank (iterations of SpMV and an affine
// update) on a 64-vertex grid keeps every kernel to a few microseconds, so the executor's own work
// shows. The reference, in the same tinybench run, runs the same pieces in the
// same order through the same runPiece the executor calls, with nothing around them.
// Run: node --expose-gc --import tsx bench/executor/overhead.ts [--quick] [--dist] [--json FILE]

import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import type { Value } from '../../src/workloads/reference.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from '../common/report.js';
import { median as medianOf } from '../../src/stats.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    dist: { type: 'boolean', default: false },
  },
  strict: true,
});

// The executor as users run it is the compiled package (dist/, built by `npm install`); by
// default this measures the sources as tsx transpiles them, which ran 1-3 us per operator slower
// here. `--dist` measures the build (run `npm run build:ts` first after changing src/).
const root = args.dist ? '../../dist' : '../../src';
if (args.dist && !existsSync(new URL(`${root}/index.js`, import.meta.url))) throw new Error('overhead --dist: no dist/ build; run `npm run build:ts`');
const { buildSystem } = (await import(`${root}/devices/system.js`)) as typeof import('../../src/devices/system.js');
const { runPlan } = (await import(`${root}/executor/run.js`)) as typeof import('../../src/executor/run.js');
const { TraceRecorder } = (await import(`${root}/executor/trace.js`)) as typeof import('../../src/executor/trace.js');
const { gridGraph } = (await import(`${root}/generators/index.js`)) as typeof import('../../src/generators/index.js');
const { runPiece } = (await import(`${root}/executor/piece.js`)) as typeof import('../../src/executor/piece.js');
const { schedule } = (await import(`${root}/scheduler/schedule.js`)) as typeof import('../../src/scheduler/schedule.js');
const { pagerankDefinition } = (await import(`${root}/workloads/builder.js`)) as typeof import('../../src/workloads/builder.js');
const { defineWorkload } = (await import(`${root}/workloads/definition.js`)) as typeof import('../../src/workloads/definition.js');

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
  const { bound } = plan.problem;
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
const median = (name: string, ops: number): number => medianOf(medians.get(`${name} [${ops}]`)!);
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

// The same cases at the larger size, finely interleaved: each round runs every case a few
// hundred times in turn, and the figure is the median over rounds of the mean per operator. A
// slow stretch of the VM then lands on all cases nearly alike, which tinybench's one-second
// turns per task cannot promise.
const INTERLEAVED_ROUNDS = args.quick ? 5 : 15;
const BATCH = args.quick ? 100 : 300;
const interleaved = new Map<string, number[]>();
for (let round = 0; round < INTERLEAVED_ROUNDS; round++) {
  for (const [name, run] of round % 2 === 0 ? large.cases : [...large.cases].reverse()) {
    const t0 = performance.now();
    for (let i = 0; i < BATCH; i++) await run();
    interleaved.set(name, [...(interleaved.get(name) ?? []), ((performance.now() - t0) * 1e3) / BATCH / ops]);
  }
}
const interleavedMedian = (name: string): number => {
  const m = [...interleaved.get(name)!].sort((p, q) => p - q);
  return m[m.length >> 1]!;
};
const reference = interleavedMedian(large.cases[0]![0]);
const interleavedRows = large.cases.map(([name]) => ({ name, perOperatorUs: interleavedMedian(name), overheadUs: interleavedMedian(name) - reference }));

const report: SuiteReport = {
  suite: 'overhead',
  title: 'Executor overhead per operator (issue 6, demonstration 4)',
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: {
    quick: args.quick,
    code: args.dist ? 'dist/ (the compiled package)' : 'src/ through tsx',
    rounds: ROUNDS,
    workload: `pagerank, ${SIZES.join(' and ')} iterations (${small.ops} and ${ops} operators)`,
    input: 'grid 8x8 (64 vertices)',
    device: 'cpu',
  },
  notes: [
    'Goal: at most 10 us per operator beyond the kernel itself. Overhead per operator = the growth of (case - reference) from the smaller DAG to the larger, per added operator; per run = what is left (fixed costs of a run). The last column divides all of (case - reference) at the larger size by its operators: an upper bound on the per-operator figure, and steadier (one difference of medians, not two).',
    `Medians over ${ROUNDS} rounds of tinybench (alternating task order) of each task's median.`,
    'The reference calls the same runPiece the executor calls (device.run for native kernels, the host kernels otherwise), in topological order, with nothing around it.',
  ],
  tables: [
    {
      title: "Median wall time of one run of the plan, and the executor's overhead",
      columns: [
        'case',
        `${small.ops} operators`,
        `${ops} operators`,
        'overhead per operator',
        'overhead per run',
        `all overhead at ${ops} operators, per operator`,
      ],
      rows: rows.map((r, i) => [
        r.name,
        `${fixed(r.smallMs, 3)} ms`,
        `${fixed(r.largeMs, 3)} ms`,
        i === 0 ? '(reference)' : `${fixed(r.overheadPerOperatorUs, 1)} us`,
        i === 0 ? '' : `${fixed(r.perRunUs, 0)} us`,
        i === 0 ? '' : `${fixed(r.allPerOperatorUs, 1)} us`,
      ]),
    },
    {
      title: `Interleaved at ${ops} operators: median over ${INTERLEAVED_ROUNDS} rounds of ${BATCH} runs of each case in turn`,
      columns: ['case', 'time per operator', 'overhead per operator (all of it, per-run costs included)'],
      rows: interleavedRows.map((r, i) => [r.name, `${fixed(r.perOperatorUs, 2)} us`, i === 0 ? '(reference)' : `${fixed(r.overheadUs, 2)} us`]),
    },
  ],
  data: { tinybench: rows, interleaved: interleavedRows },
};
emitReport(report, args.json, args.quiet);
await system.dispose();
