// Search-layer speed: exhaustive enumeration of 1e5 mappings, NSGA-II with a 4000-evaluation
// budget on 8 genes x 15 choices, and the Pareto kernels under them (front of 1e5 points, hypervolume,
// one generation's non-dominated sort). Evaluators are synthetic and table-driven (a few tens of
// ns), so the figures are the search's own cost; the real evaluator adds ~0.5 us per evaluation.
// Run: node --expose-gc --import tsx bench/scheduler/search.ts [--quick]

import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { Rng } from '../../src/generators/rng.js';
import { hypervolume, nonDominatedSort, paretoFront } from '../../src/scheduler/pareto.js';
import { exhaustive } from '../../src/scheduler/search/exhaustive.js';
import { nsga2 } from '../../src/scheduler/search/nsga2.js';
import type { SearchProblem } from '../../src/scheduler/search/types.js';
import { emitReport, fixed, machineInfo, ms, progress, type SuiteReport } from '../common/report.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, json: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  strict: true,
});

/** Gene g picks one of its options; the objectives are the summed (time, energy) of the picks. */
function tableProblem(cardinality: readonly number[], seed: number): SearchProblem {
  const rng = new Rng(seed);
  const genes = cardinality.length;
  const width = Math.max(...cardinality);
  const table = new Float64Array(genes * width * 2);
  for (let i = 0; i < table.length; i++) table[i] = 1 + rng.nextInt(1000);
  return {
    cardinality: Int32Array.from(cardinality),
    objectives: 2,
    evaluate(genome, out) {
      let time = 0;
      let energy = 0;
      for (let g = 0; g < genes; g++) {
        const at = 2 * (g * width + genome[g]!);
        time += table[at]!;
        energy += table[at + 1]!;
      }
      out[0] = time;
      out[1] = energy;
      return true;
    },
  };
}

function randomPoints(n: number, m: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  const v = new Float64Array(n * m);
  for (let i = 0; i < v.length; i++) v[i] = rng.nextFloat();
  return v;
}

/** 3-D points on the plane x + y + z = 1: every one is on the front. */
function planePoints(n: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  const v = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const a = rng.nextFloat();
    const b = rng.nextFloat() * (1 - a);
    v.set([a, b, 1 - a - b], 3 * i);
  }
  return v;
}

interface Case {
  readonly name: string;
  readonly run: () => unknown;
  /** One line on what the call produced, from the cold run. */
  readonly describe: (result: unknown) => string;
}

async function main(): Promise<void> {
  const cards1e5 = [5, 5, 5, 5, 5, 4, 4, 2]; // 100000 genomes
  const table1e5 = tableProblem(cards1e5, 1);
  const trivial: SearchProblem = {
    cardinality: Int32Array.from(cards1e5),
    objectives: 2,
    evaluate(genome, out) {
      out[0] = genome[0]!;
      out[1] = genome[1]!;
      return true;
    },
  };
  const wide = tableProblem(new Array<number>(8).fill(15), 2); // 15^8 = 2.6e9 genomes
  const wide3: SearchProblem = {
    ...wide,
    objectives: 3,
    evaluate: (g, out) => {
      wide.evaluate(g, out);
      out[2] = g[0]! + g[7]!;
      return true;
    },
  };
  const n = 100_000;
  const p2 = randomPoints(n, 2, 3);
  const p3 = randomPoints(n, 3, 4);
  const plane = planePoints(10_000, 5);
  const f2 = paretoFront(p2, 2, n);
  const f3 = paretoFront(p3, 3, n);
  const planeIds = Int32Array.from({ length: 10_000 }, (_, i) => i);
  const pool = Int32Array.from({ length: 128 }, (_, i) => i);
  const options = { seed: 1, budget: 4000 };
  const count = (r: unknown): string => {
    const s = r as { count: number; front: Int32Array; evaluations: number };
    return `${s.evaluations} evaluations, front of ${s.front.length}`;
  };
  const length = (r: unknown): string => `${(r as Int32Array).length} points`;
  const volume = (r: unknown): string => `hypervolume ${fixed(r as number, 6)}`;
  const fronts = (r: unknown): string => `${(r as Int32Array[]).length} fronts`;
  const cases: Case[] = [
    { name: 'exhaustive, 1e5 genomes of 8 genes, table evaluate', run: () => exhaustive.search(table1e5, options), describe: count },
    { name: 'exhaustive, 1e5 genomes of 8 genes, trivial evaluate', run: () => exhaustive.search(trivial, options), describe: count },
    { name: 'nsga2, budget 4000, 8 genes x 15 choices, 2 objectives', run: () => nsga2.search(wide, options), describe: count },
    { name: 'nsga2, budget 4000, 8 genes x 15 choices, 3 objectives', run: () => nsga2.search(wide3, options), describe: count },
    { name: 'paretoFront, 1e5 uniform points, 2-D', run: () => paretoFront(p2, 2, n), describe: length },
    { name: 'paretoFront, 1e5 uniform points, 3-D', run: () => paretoFront(p3, 3, n), describe: length },
    { name: 'paretoFront, 1e4 points all on the front, 3-D', run: () => paretoFront(plane, 3, 10_000), describe: length },
    { name: `hypervolume, 2-D front of ${f2.length}`, run: () => hypervolume(p2, 2, f2, [1, 1]), describe: volume },
    { name: `hypervolume, 3-D front of ${f3.length}`, run: () => hypervolume(p3, 3, f3, [1, 1, 1]), describe: volume },
    { name: 'hypervolume, 3-D front of 1e4 (plane)', run: () => hypervolume(plane, 3, planeIds, [1, 1, 1]), describe: volume },
    { name: 'nonDominatedSort, 128 points, 2-D (one generation)', run: () => nonDominatedSort(p2, 2, pool), describe: fronts },
  ];

  // Cold: the first call in this process, JIT compilation included.
  const cold = cases.map((c) => {
    progress(`cold: ${c.name}`);
    const t = performance.now();
    const result = c.run();
    return { time: performance.now() - t, what: c.describe(result) };
  });
  const bench = new Bench({ time: args.quick ? 200 : 1000, warmupTime: 100, iterations: args.quick ? 5 : 10 });
  for (const c of cases) bench.add(c.name, c.run);
  progress('warm: tinybench');
  await bench.run();
  const rows = cases.map((c, i) => {
    const r = bench.getTask(c.name)?.result;
    if (r === undefined || r.state !== 'completed') throw new Error(`${c.name}: ${r?.state ?? 'missing'}`);
    return { name: c.name, what: cold[i]!.what, cold: cold[i]!.time, median: r.latency.p50, p75: r.latency.p75, samples: r.latency.samplesCount };
  });
  const report: SuiteReport = {
    suite: 'search',
    title: 'Scheduler search: exhaustive, NSGA-II and the Pareto kernels',
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { quick: args.quick },
    notes: [
      'Goals: exhaustive over 1e5 genomes with a trivial evaluate well under 20 ms (under 100 ms with the real ~0.5 us evaluator); paretoFront of 1e5 points a few ms in 2-D, well under 50 ms in 3-D.',
      'Table evaluate: 8 lookups and sums per genome. NSGA-II: population 64, seed 1; its time includes its archive, sorting and the final front over all 4000 genomes.',
      'Cold: the first call in a fresh process (JIT compilation included). Warm: tinybench median over repeated calls.',
    ],
    tables: [
      {
        title: 'Median wall time per call',
        columns: ['call', 'result', 'cold ms', 'warm median ms', 'warm p75 ms'],
        rows: rows.map((r) => [r.name, r.what, ms(r.cold), ms(r.median), ms(r.p75)]),
      },
    ],
    data: rows,
  };
  emitReport(report, args.json, args.quiet);
}

await main();
