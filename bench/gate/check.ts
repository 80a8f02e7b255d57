// The regression gate: bench/results/latest.json against the committed baseline of this machine's
// class, bench/baselines/<class>.json (bench/common/machine-class.ts says why one per class).
// Exit status 1 when a ratio metric dropped more than its tolerance (15% unless the baseline says
// otherwise), a deterministic metric moved more than 1%, or a gated metric is missing. On a
// machine class with no baseline of its own, only the deterministic metrics are gated (against
// another class's baseline), and the report says so at its top.
// With --run, a ratio that failed is timed once more before it counts: the suites behind the
// failures run again (bench/results/confirm.json) and a ratio fails only when it fails both times
// (confirmFailures in compare.ts says why).
// Run: node --import tsx bench/gate/check.ts [--run] [--latest FILE] [--baseline FILE] [--all]
// --baseline FILE judges against that file whatever the machine.
// --run first runs the baseline's profile (bench/run.ts --ci for the CI baseline); --all also
// lists the information-only metrics.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../common/datasets.js';
import { resultsDir } from '../common/report.js';
import { machineClass } from '../common/machine-class.js';
import { type Comparison, compareMetrics, confirmFailures, deterministicOnly, suitesToConfirm, verdictTable } from './compare.js';
import { type Baseline, baselineClasses, baselinePathFor, classOfRun, latestPath, readBaseline, readLatest } from './files.js';

const { values: args } = parseArgs({
  options: {
    run: { type: 'boolean', default: false },
    latest: { type: 'string', default: latestPath },
    baseline: { type: 'string' },
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

/**
 * The baseline to judge by: --baseline, else this machine class's own, else (only the
 * deterministic metrics gated) the first class that has one. `own` is false in that last case.
 */
function chooseBaseline(): { baseline: Baseline; own: boolean; cls: string } {
  const cls = machineClass();
  if (args.baseline !== undefined) return { baseline: readBaseline(args.baseline), own: true, cls };
  const classes = baselineClasses();
  if (classes.includes(cls)) return { baseline: readBaseline(baselinePathFor(cls)), own: true, cls };
  const other = classes[0];
  if (other === undefined) throw new Error('bench:check: no baseline in bench/baselines/: take one with `npm run bench:update -- --note "why"`');
  const b = readBaseline(baselinePathFor(other));
  return { baseline: { ...b, metrics: deterministicOnly(b.metrics) }, own: false, cls };
}

function main(): number {
  const { baseline, own, cls } = chooseBaseline();
  if (!own) {
    console.log(
      `bench:check: no baseline for this machine class (${cls}; baselines exist for ${baselineClasses().join(', ')}). ` +
        `Timed ratios are NOT judged on this machine, only the deterministic metrics, against ${baseline.machineClass}'s baseline. ` +
        'To gate them here, take a baseline of this class from three CI-size runs (bench/README.md, "Regression gate").\n',
    );
  }
  if (args.run) {
    if (args.latest !== latestPath) throw new Error('--run writes bench/results/latest.json: do not combine it with --latest');
    if (!runBench(baseline, 'latest')) return 1;
  }
  const latest = readLatest(args.latest);
  if (args.baseline === undefined && classOfRun(latest) !== cls) {
    console.error(
      `bench:check: ${args.latest} was timed on a ${classOfRun(latest)} machine, this one is ${cls}: judge it here with --baseline FILE, or run it again here`,
    );
    return 1;
  }
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
      ` against the ${baseline.machineClass} baseline (${baseline.measured}; "${baseline.note}")` +
      (again.length > 0 ? `; timed failures confirmed by running ${again.join(', ')} again` : '') +
      '\n',
  );
  console.log(verdictTable(cmp, { includeInfo: args.all }));
  for (const f of latest.failures) console.log(`\nnote: suite ${f.suite} ${f.reason}`);
  console.log(
    cmp.ok
      ? `\nbench:check passed: ${gated} gated metrics within tolerance.`
      : `\nbench:check FAILED: ${cmp.failures} of ${gated} gated metrics out of tolerance (see above). If the change is intended, \`npm run bench:update -- --note "why"\` and commit bench/baselines/${baseline.machineClass}.json.`,
  );
  return cmp.ok ? 0 : 1;
}

process.exitCode = main();
