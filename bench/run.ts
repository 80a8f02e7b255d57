// Runs the benchmark suites, each in a fresh child process (no JIT state, heap or page cache
// of one suite leaks into the next), and merges their reports into bench/results/latest.{json,md}.
// Each suite's metrics for the regression gate (bench/gate) go into latest.json beside its report.
// Run: node --expose-gc --import tsx bench/run.ts [--quick | --ci] [--out NAME] [--suite spmm|bfs|dense|boundary|devices|features|predict|accuracy|search|decisions|plan|demos|overhead|service[,...]] [-- flags for that one suite]
// --ci runs the gate's profile (bench/gate/profile.ts): spmm, bfs, dense, devices and decisions at CI size.
// --out NAME writes bench/results/NAME.{json,md} instead of latest (the gate's confirmation run).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from './common/datasets.js';
import { machineInfo, reportMarkdown, resultsDir, SUITES, type SuiteName, type SuiteReport } from './common/report.js';
import { type Metric, metricsOf } from './gate/metrics.js';
import { CI_SUITES, type ProfileName, suiteRun } from './gate/profile.js';

const SCRIPTS: Readonly<Record<SuiteName, string>> = {
  spmm: 'bench/kernels/spmm.ts',
  bfs: 'bench/kernels/bfs.ts',
  dense: 'bench/dense/dense.ts',
  boundary: 'bench/boundary.ts',
  devices: 'bench/devices/simulators.ts',
  features: 'bench/cost/features.ts',
  predict: 'bench/cost/predict.ts',
  accuracy: 'bench/cost/accuracy.ts',
  search: 'bench/scheduler/search.ts',
  decisions: 'bench/scheduler/decision-quality.ts',
  plan: 'bench/scheduler/plan.ts',
  demos: 'bench/executor/demos.ts',
  overhead: 'bench/executor/overhead.ts',
  service: 'bench/service/load.ts',
};

const { values: args, positionals } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    ci: { type: 'boolean', default: false },
    suite: { type: 'string', multiple: true },
    out: { type: 'string', default: 'latest' },
  },
  allowPositionals: true,
  strict: true,
});

if (!/^[\w-]+$/.test(args.out)) throw new Error(`--out: ${JSON.stringify(args.out)} is not a plain file name (letters, digits, - and _)`);
if (args.quick && args.ci) throw new Error('--quick and --ci are different profiles: pass one');
const profile: ProfileName = args.ci ? 'ci' : args.quick ? 'quick' : 'full';

function chosenSuites(): SuiteName[] {
  if (args.suite === undefined) return SUITES.filter((s) => suiteRun(profile, s) !== undefined);
  const names = args.suite.flatMap((s) => s.split(',')).map((s) => s.trim());
  for (const n of names) {
    if (!(SUITES as readonly string[]).includes(n)) throw new Error(`--suite: unknown suite ${JSON.stringify(n)} (suites: ${SUITES.join(', ')})`);
    if (suiteRun(profile, n as SuiteName) === undefined)
      throw new Error(`--suite: ${n} is not part of the ${profile} profile (${Object.keys(CI_SUITES).join(', ')})`);
  }
  return names as SuiteName[];
}

interface Failure {
  readonly suite: SuiteName;
  readonly reason: string;
}

interface Timed {
  readonly suite: SuiteName;
  readonly seconds: number;
}
const timings: Timed[] = [];

function runSuite(suite: SuiteName): SuiteReport | Failure {
  const file = join(resultsDir, `${suite}.json`);
  rmSync(file, { force: true });
  const run = suiteRun(profile, suite)!;
  const argv = ['--expose-gc', '--import', 'tsx', SCRIPTS[suite], '--json', file, '--quiet', ...run.args, ...positionals];
  const envText = Object.entries(run.env ?? {})
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  process.stderr.write(`\n== ${suite}: ${envText}node ${argv.join(' ')}\n`);
  const t = performance.now();
  // Progress streams through; the report comes back as a file, so stdout noise cannot corrupt it.
  const r = spawnSync(process.execPath, argv, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...run.env } });
  const seconds = (performance.now() - t) / 1000;
  timings.push({ suite, seconds });
  process.stderr.write(`== ${suite}: ${seconds.toFixed(1)} s\n`);
  if (r.error) return { suite, reason: r.error.message };
  if (r.status !== 0) return { suite, reason: `exited with ${r.status ?? r.signal}` };
  if (!existsSync(file)) return { suite, reason: 'skipped (see its message above)' };
  return JSON.parse(readFileSync(file, 'utf8')) as SuiteReport;
}

function main(): void {
  const suites = chosenSuites();
  if (positionals.length > 0 && suites.length !== 1) {
    throw new Error('flags after -- go to one suite only: add --suite NAME');
  }
  mkdirSync(resultsDir, { recursive: true });
  const outcomes = suites.map(runSuite);
  const reports = outcomes.filter((o): o is SuiteReport => 'tables' in o);
  const failures = outcomes.filter((o): o is Failure => 'reason' in o);
  const metrics: Metric[] = reports.flatMap(metricsOf);
  const latest = {
    date: new Date().toISOString(),
    profile,
    quick: profile !== 'full',
    machine: machineInfo(),
    seconds: Object.fromEntries(timings.map((t) => [t.suite, t.seconds])),
    metrics,
    suites: reports,
    failures,
  };
  const out = join(resultsDir, args.out);
  writeFileSync(`${out}.json`, `${JSON.stringify(latest, null, 2)}\n`);
  const md = [
    `# dype benchmarks${{ full: '', quick: ' (quick mode: fewer inputs, short runs)', ci: " (CI size: the regression gate's suites)" }[profile]}`,
    'All figures are wall time measured on the machine named in each section, in this run.',
    ...reports.map(reportMarkdown),
    ...(failures.length > 0 ? [`## Failed or skipped\n\n${failures.map((f) => `- ${f.suite}: ${f.reason}`).join('\n')}\n`] : []),
  ].join('\n\n');
  writeFileSync(`${out}.md`, md);
  console.log(md);
  process.stderr.write(`\nwritten: ${out}.json, ${out}.md\n`);
  if (failures.some((f) => !f.reason.startsWith('skipped'))) process.exitCode = 1;
}

main();
