// Issue 20: does `dype explore gcn` (and `sage`) show a CPU baseline that matches what it takes?
// For each shared dataset, explore on the detected system with the stored model (as the CLI
// does, probes on), execute the `cpu alone` baseline as `--measure` does (5 timed runs of each
// piece after a warm-up, median), and set the prediction beside the execution and beside the
// uncertainty the plan states for the CPU's figures: the probes' spread (each operator's weighted
// by its predicted time), and beside it the largest of that, the machine's speed drift measured at
// calibration and the drift across the speed readings of earlier plans (what `dype explore`
// states for a real device; src/cli/commands/explore-spread.ts, src/cost/speed-history.ts).
// Run: node --import tsx bench/dense/cpu-baselines.ts [--workloads gcn,sage] [--datasets cora,4elt]

import { parseArgs } from 'node:util';
import { loadCostModel } from '../../src/cost/store.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { detectSystem } from '../../src/devices/system.js';
import { measurePoints } from '../../src/cli/measure-points.js';
import { realDeviceSpreads, statedSpread } from '../../src/cli/commands/explore-spread.js';
import { observeSpeed, speedHistoryDrifts } from '../../src/cost/speed-history.js';
import { explore } from '../../src/scheduler/schedule.js';
import { median } from '../../src/stats.js';
import { loadDataset } from '../common/datasets.js';

const { values: args } = parseArgs({ options: { workloads: { type: 'string', default: 'gcn,sage' }, datasets: { type: 'string' } }, strict: true });
const DATASETS = args.datasets?.split(',') ?? ['cora', 'citeseer', 'facebook_combined', 'bcsstk13', '4elt', 'email-Enron', 'delaunay_n16', 'mdual'];
const system = await detectSystem();
const model = await loadCostModel(system);
console.log(`| workload | dataset | predicted | executed | predicted / executed | probe spread | within | with the drift | within |`);
console.log('|---|---|---|---|---|---|---|---|---|');
const errors: number[] = [];
let within = 0;
let withinDrift = 0;
for (const workload of args.workloads.split(',')) {
  for (const name of DATASETS) {
    const loaded = await loadDataset(name, 'f32');
    if (!loaded.matrix) {
      console.log(`| ${workload} | ${name} | skipped: ${loaded.reason} |`);
      continue;
    }
    const m = loaded.matrix;
    const data = new CsrMatrix({ rows: m.rows, cols: m.cols, rowPtr: m.rowPtr, colIdx: m.colIdx });
    await observeSpeed(system); // as `dype explore` does before it plans
    const ex = await explore(workload, data, { system, model, maxPoints: 0 });
    const baseline = ex.baselines.find((b) => b.name === 'cpu alone');
    if (!baseline?.feasible || !baseline.genome) continue;
    const [executed] = (await measurePoints(ex, [baseline.genome], 5)).metrics;
    // What `dype explore` states for the CPU (explore-spread.ts): the probes' spread, weighted by time.
    const spread = realDeviceSpreads(ex, await speedHistoryDrifts(system)).find((s) => s.device === 'cpu');
    const stated = spread?.probeSpread ?? 0;
    const withDrift = spread ? statedSpread(spread) : 0;
    const ratio = baseline.time! / executed!.makespan;
    const ok = Math.abs(ratio - 1) <= stated;
    const okDrift = Math.abs(ratio - 1) <= withDrift;
    if (ok) within++;
    if (okDrift) withinDrift++;
    errors.push(Math.abs(ratio - 1));
    const ms = (s: number): string => `${(s * 1e3).toFixed(3)} ms`;
    console.log(
      `| ${workload} | ${name} | ${ms(baseline.time!)} | ${ms(executed!.makespan)} | ${ratio.toFixed(2)} | ±${(100 * stated).toFixed(0)}% | ${ok ? 'yes' : 'no'} | ±${(100 * withDrift).toFixed(0)}% | ${okDrift ? 'yes' : 'no'} |`,
    );
  }
}
console.log(
  `\n${within} of ${errors.length} within the probes' spread, ${withinDrift} within it or the machine's speed drift; |predicted / executed - 1|: median ${(100 * median(errors)).toFixed(1)}%, worst ${(100 * Math.max(...errors)).toFixed(1)}%`,
);
await system.dispose?.();
