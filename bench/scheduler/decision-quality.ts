// Decision quality of schedule() against the execution oracle, on the fixed cases of
// decision-suite.ts. Deterministic: every device of the suite's systems is simulated.
// Run: node --import tsx bench/scheduler/decision-quality.ts [--quick] [--json FILE] [--min-optimal RATE]
// --quick runs the CI size; --min-optimal makes the exit status 1 when the optimal rate is lower.

import { parseArgs } from 'node:util';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from '../common/report.js';
import { type CaseResult, runSuite, SUITE_DATASETS, SUITE_SYSTEMS, TRAINING_INPUT } from './decision-suite.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    'min-optimal': { type: 'string' },
    workloads: { type: 'string' },
  },
  strict: true,
});

const size = args.quick ? 'ci' : 'full';
const t0 = performance.now();
let n = 0;
const { results, summary } = await runSuite({
  size,
  ...(args.workloads ? { workloads: args.workloads.split(',') } : {}),
  onCase: (r: CaseResult) => {
    n++;
    if (!args.quiet) progress(`${String(n).padStart(3)} ${r.system} ${r.workload} ${r.dataset} ${r.objective}: ${r.optimal ? 'optimal' : `loss ${fixed(100 * r.loss, 1)}%`}`);
  },
  onSkip: (what, why) => progress(`skip ${what}: ${why}`),
});
const seconds = (performance.now() - t0) / 1000;
const pct = (x: number): string => `${fixed(100 * x, 1)}%`;

const report: SuiteReport = {
  suite: 'decisions',
  title: 'Decision quality: schedule() against the execution oracle',
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: { size, systems: Object.keys(SUITE_SYSTEMS), datasets: SUITE_DATASETS[size], trainingInput: TRAINING_INPUT, seconds },
  notes: [
    'Cases: workloads (spmm k=32, bfs, msbfs 32 sources, gcn, sage, pagerank 2 iterations) x datasets x objectives (min-time, min-energy, min-edp) x systems (gpu-sim H100 or A100 + cgra-sim 4x4 + cgra-sim 8x8).',
    'Oracle: every distinct piece of work (operator x device x row range) executed once on its simulator with real data; every mapping composed from those costs by the planner\'s list schedule; exhaustive over the space.',
    'Dense operators (GEMM, ReLU, affine) have no simulator: planner and oracle both use their roofline cost, so only sparse operators carry prediction error.',
    'Optimal: the pick\'s oracle value within 1% of the oracle\'s best for the objective. Static: the oracle-best mapping on a generated Kronecker graph (scale 12), reused unchanged. Ratios are geometric means (time ratios over min-time cases, energy over min-energy cases).',
    'DyPe (the paper) reports 77/86 optimal (89.5%), 3.95% mean loss otherwise, 1.53x over static, 1.44x throughput and 1.66x energy efficiency over GPU-only.',
  ],
  tables: [
    {
      title: 'Summary',
      columns: ['cases', 'optimal', 'rate', 'mean loss (non-optimal)', 'speed-up over static', 'speed-up over GPU alone', 'energy efficiency over GPU alone'],
      rows: [[String(summary.cases), String(summary.optimal), pct(summary.optimalRate), pct(summary.meanLoss), `${fixed(summary.speedupOverStatic)}x`, `${fixed(summary.speedupOverGpu)}x`, `${fixed(summary.energyEfficiencyOverGpu)}x`]],
    },
    {
      title: 'Cases that are not optimal',
      columns: ['system', 'workload', 'dataset', 'objective', 'loss', 'pick', 'oracle best'],
      rows: results.filter((r) => !r.optimal).map((r) => [r.system, r.workload, r.dataset, r.objective, pct(r.loss), r.pickLabel, r.bestLabel]),
    },
  ],
  data: { summary, results },
};
emitReport(report, args.json, args.quiet);
if (args['min-optimal'] !== undefined && summary.optimalRate < Number(args['min-optimal'])) {
  progress(`decision quality: optimal rate ${pct(summary.optimalRate)} is below ${pct(Number(args['min-optimal']))}`);
  process.exitCode = 1;
}
