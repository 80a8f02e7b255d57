// The regression gate: bench/results/latest.json against the committed bench/baseline.json.
// Exit status 1 when a ratio metric dropped more than its tolerance (15% unless the baseline says
// otherwise), a deterministic metric moved more than 1%, or a gated metric is missing.
// With --run, a ratio that failed is timed once more before it counts: the suites behind the
// failures run again (bench/results/confirm.json) and a ratio fails only when it fails both times
// (confirmFailures in compare.ts says why).
// Run: node --import tsx bench/gate/check.ts [--run] [--latest FILE] [--baseline FILE] [--all]
// --run first runs the baseline's profile (bench/run.ts --ci for the CI baseline); --all also
// lists the information-only metrics.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../common/datasets.js';
import { resultsDir } from '../common/report.js';
import { type Comparison, compareMetrics, confirmFailures, suitesToConfirm, verdictTable } from './compare.js';
import { type Baseline, baselinePath, latestPath, readBaseline, readLatest } from './files.js';

const { values: args } = parseArgs({
  options: {
    run: { type: 'boolean', default: false },
    latest: { type: 'string', default: latestPath },
    baseline: { type: 'string', default: baselinePath },
    all: { type: 'boolean', default: false },
  },
  strict: true,
});

/** Runs the baseline's profile (or some of its suites), writing bench/results/OUT.json; false when it failed. */
function runBench(baseline: Baseline, out: string, suites?: readonly string[]): boolean {
  const flag = { ci: ['--ci'], quick: ['--quick'], full: [] }[baseline.profile];
  const only = suites === undefined ? [] : ['--suite', suites.join(',')];
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/run.ts', ...flag, '--out', out, ...only], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const what = suites === undefined ? `${baseline.profile} profile` : `confirmation run: ${suites.join(', ')}`;
  process.stderr.write(`bench (${what}): ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
  if (r.status !== 0) console.error(`bench:check: bench/run.ts failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
  return r.status === 0;
}

function main(): number {
  const baseline = readBaseline(args.baseline);
  if (args.run) {
    if (args.latest !== latestPath) throw new Error('--run writes bench/results/latest.json: do not combine it with --latest');
    if (!runBench(baseline, 'latest')) return 1;
  }
  const latest = readLatest(args.latest);
  if (latest.profile !== baseline.profile) {
    console.error(
      `bench:check: ${args.latest} is a ${latest.profile} run but the baseline is ${baseline.profile}: run \`npm run bench${baseline.profile === 'ci' ? ':ci' : ''}\` (or bench:check -- --run)`,
    );
    return 1;
  }
  let cmp: Comparison = compareMetrics(baseline.metrics, latest.metrics);
  const again = args.run && !cmp.ok ? suitesToConfirm(cmp) : [];
  if (again.length > 0) {
    process.stderr.write(`\nbench:check: timed failures in ${again.join(', ')}: running those suites again to confirm them\n`);
    if (!runBench(baseline, 'confirm', again)) return 1;
    const rerun = readLatest(join(resultsDir, 'confirm.json'));
    cmp = confirmFailures(cmp, compareMetrics(baseline.metrics, rerun.metrics));
  }
  const gated = cmp.verdicts.filter((v) => v.kind !== 'info').length;
  console.log(
    `Benchmark gate: this run (${latest.date}, ${latest.machine.cpu}, load ${latest.machine.loadAverage.toFixed(2)})` +
      ` against the baseline (${baseline.measured}; "${baseline.note}")` +
      (again.length > 0 ? `; timed failures confirmed by running ${again.join(', ')} again` : '') +
      '\n',
  );
  console.log(verdictTable(cmp, { includeInfo: args.all }));
  for (const f of latest.failures) console.log(`\nnote: suite ${f.suite} ${f.reason}`);
  console.log(
    cmp.ok
      ? `\nbench:check passed: ${gated} gated metrics within tolerance.`
      : `\nbench:check FAILED: ${cmp.failures} of ${gated} gated metrics out of tolerance (see above). If the change is intended, \`npm run bench:update -- --note "why"\` and commit bench/baseline.json.`,
  );
  return cmp.ok ? 0 : 1;
}

process.exitCode = main();
