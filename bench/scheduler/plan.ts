// Planning speed with the real evaluator and cost model: schedule() of an 8-operator DAG
// (PageRank, 4 iterations) on three devices with splits; exhaustive search over ~1.3e5 mappings
// (PageRank, 3 iterations); 1e5 evaluations of the list-schedule evaluator. Warm figures reuse
// the model's per-matrix feature cache, as a scheduler planning many workloads on one graph does;
// cold figures include features and JIT compilation.
// Run: node --expose-gc --import tsx bench/scheduler/plan.ts [--quick]

import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { CostModel } from '../../src/cost/model.js';
import { buildSystem } from '../../src/devices/system.js';
import { generate } from '../../src/generators/index.js';
import { Rng } from '../../src/generators/rng.js';
import { ModelCostSource } from '../../src/scheduler/costs.js';
import { Evaluator } from '../../src/scheduler/evaluate.js';
import { explore, schedule } from '../../src/scheduler/schedule.js';
import { CostTable } from '../../src/scheduler/space.js';
import { pagerankDefinition } from '../../src/workloads/builder.js';
import { defineWorkload } from '../../src/workloads/definition.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import { emitReport, fixed, machineInfo, ms, progress, type SuiteReport } from '../common/report.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, json: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  strict: true,
});

const system = buildSystem(
  {
    name: 'bench',
    devices: [
      { name: 'cpu', backend: 'cpu' },
      { name: 'cgra', backend: 'cgra-sim' },
      { name: 'gpu', backend: 'gpu-sim' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  },
  'bench',
);
// Uncalibrated: a prediction costs the same calibrated or not, and the figures stay independent
// of this machine's calibration cache.
const model = new CostModel(system);
const graph = generate({ kind: 'kronecker', scale: 14, edgeFactor: 16, seed: 7 }) as CsrMatrix;
const pr4 = defineWorkload(pagerankDefinition(4), 'pagerank-4');
const pr3 = defineWorkload(pagerankDefinition(3), 'pagerank-3');

// The evaluator alone on 1e5 random mappings of the 8-operator DAG.
const ex = await explore(pr4, graph, { system, model, maxPoints: 0 });
const table = new CostTable(ex.problem.choices, ex.problem.bound.ops, new ModelCostSource(ex.problem.bound, system, model));
const evaluator = new Evaluator(ex.problem.bound, system, table, ['time', 'energy']);
const card = table.cardinality;
const N = 100_000;
const genomes = new Int32Array(N * card.length);
const rng = new Rng(3);
for (let i = 0; i < genomes.length; i++) genomes[i] = rng.nextInt(card[i % card.length]!);
const g = new Int32Array(card.length);
const out = new Float64Array(2);
const evaluate1e5 = (): number => {
  let s = 0;
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < g.length; k++) g[k] = genomes[i * g.length + k]!;
    evaluator.evaluate(g, out);
    s += out[0]!;
  }
  return s;
};

interface Case {
  readonly name: string;
  readonly goal?: number;
  readonly run: () => unknown;
}
const cases: Case[] = [
  {
    name: 'schedule(), 8-operator PageRank, 3 devices, splits (NSGA-II, 2000 evaluations)',
    goal: 10,
    run: () => schedule(pr4, graph, { system, model, maxPoints: 0 }),
  },
  { name: 'schedule(), same, keeping 5000 dominated points for plots', run: () => schedule(pr4, graph, { system, model }) },
  {
    name: 'explore(), 6-operator PageRank, exhaustive over 132651 mappings',
    goal: 100 * 1.32651,
    run: () => explore(pr3, graph, { system, model, maxPoints: 0, exhaustiveLimit: 2e5 }),
  },
  { name: '1e5 evaluations of 8-operator mappings (evaluator alone)', goal: 100, run: evaluate1e5 },
];

const cold: number[] = [];
for (const c of cases) {
  progress(`cold: ${c.name}`);
  const t = performance.now();
  await c.run();
  cold.push(performance.now() - t);
}
const bench = new Bench({ time: args.quick ? 300 : 1500, warmupTime: 200, iterations: args.quick ? 5 : 15 });
for (const c of cases) bench.add(c.name, async () => void (await c.run()));
progress('warm: tinybench');
await bench.run();
const rows = cases.map((c, i) => {
  const r = bench.getTask(c.name)?.result;
  if (r === undefined || r.state !== 'completed') throw new Error(`${c.name}: ${r?.state ?? 'missing'}`);
  return { name: c.name, cold: cold[i]!, median: r.latency.p50, p75: r.latency.p75, goal: c.goal, samples: r.latency.samplesCount };
});
const report: SuiteReport = {
  suite: 'plan',
  title: 'Planning speed: schedule(), exhaustive search and the evaluator',
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: {
    quick: args.quick,
    input: 'kronecker scale 14, edge factor 16, seed 7',
    system: 'cpu + cgra-sim + gpu-sim (PCIe 5)',
    choicesPerOperator: Array.from(card),
  },
  notes: [
    'Goals (issue 5): a plan for an 8-operator DAG on 3 devices with splits in <= 10 ms; 1e5 mappings evaluated in <= 100 ms (the exhaustive row is scaled: its goal is 100 ms per 1e5 mappings).',
    "Warm: the model has the graph's features (computed once per matrix, as when many workloads are planned on one input); cold: the first call in the process, features and JIT included.",
  ],
  tables: [
    {
      title: 'Median wall time (ms)',
      columns: ['case', 'cold', 'warm median', 'p75', 'goal', 'samples'],
      rows: rows.map((r) => [r.name, ms(r.cold), ms(r.median), ms(r.p75), r.goal === undefined ? '' : `<= ${fixed(r.goal, 0)}`, String(r.samples)]),
    },
  ],
  data: rows,
};
emitReport(report, args.json, args.quiet);
await system.dispose();
