// The regression gate: bench/results/latest.json against the committed bench/baseline.json.
// Exit status 1 when a ratio metric dropped more than its tolerance (15% unless the baseline says
// otherwise), a deterministic metric moved more than 1%, or a gated metric is missing.
// Run: node --import tsx bench/gate/check.ts [--run] [--latest FILE] [--baseline FILE] [--all]
// --run first runs the baseline's profile (bench/run.ts --ci for the CI baseline); --all also
// lists the information-only metrics.

import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { repoRoot } from '../common/datasets.js';
import { compareMetrics, verdictTable } from './compare.js';
import { baselinePath, latestPath, readBaseline, readLatest } from './files.js';

const { values: args } = parseArgs({
  options: {
    run: { type: 'boolean', default: false },
    latest: { type: 'string', default: latestPath },
    baseline: { type: 'string', default: baselinePath },
    all: { type: 'boolean', default: false },
  },
  strict: true,
});

function main(): number {
  const baseline = readBaseline(args.baseline);
  if (args.run) {
    if (args.latest !== latestPath) throw new Error('--run writes bench/results/latest.json: do not combine it with --latest');
    const flag = { ci: ['--ci'], quick: ['--quick'], full: [] }[baseline.profile];
    const t = performance.now();
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/run.ts', ...flag], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    process.stderr.write(`bench (${baseline.profile} profile): ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
    if (r.status !== 0) {
      console.error(`bench:check: bench/run.ts failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
      return 1;
    }
  }
  const latest = readLatest(args.latest);
  if (latest.profile !== baseline.profile) {
    console.error(
      `bench:check: ${args.latest} is a ${latest.profile} run but the baseline is ${baseline.profile}: run \`npm run bench${baseline.profile === 'ci' ? ':ci' : ''}\` (or bench:check -- --run)`,
    );
    return 1;
  }
  const cmp = compareMetrics(baseline.metrics, latest.metrics);
  const gated = cmp.verdicts.filter((v) => v.kind !== 'info').length;
  console.log(
    `Benchmark gate: this run (${latest.date}, ${latest.machine.cpu}, load ${latest.machine.loadAverage.toFixed(2)})` +
      ` against the baseline (${baseline.measured}; "${baseline.note}")\n`,
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
