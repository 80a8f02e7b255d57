// Writes the baseline of the run's machine class, bench/baselines/<class>.json, from
// bench/results/latest.json: the only way a baseline changes (one per class: machine-class.ts).
// Refuses a run of another profile than expected (CI unless --profile says otherwise), a run in
// which a suite failed or was skipped, a run with a non-finite gated metric, and a missing note.
// --also FILE (repeatable): further runs of the same profile, such as `bench/run.ts --ci --suite
// spmm,bfs,dense --out rerun1`; each timed ratio then takes its median over the runs that have it
// (medianOfRuns in compare.ts), the rest come from latest.json. Every run must be of one class.
// --tolerance NAME=FRACTION (repeatable): a timed ratio whose spread on this machine class is wider
// than its default tolerance (withTolerances in compare.ts); say why in the note.
// --only PREFIX (repeatable): only the metrics whose names start so take the runs' values; the
// others keep the current baseline's (a change that touched one suite does not move the bars of
// the others to a new draw of the machine), so the runs need only that suite (retakeOnly).
// Run: node --import tsx bench/gate/update.ts --note "why the baseline changes" [--profile ci] [--also FILE ...] [--tolerance NAME=F ...] [--only PREFIX ...] [--baseline FILE]

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { type Baseline, baselinePathFor, classOfRun, latestPath, readBaseline, readLatest } from './files.js';
import { medianOfRuns, retakeOnly, withTolerances } from './compare.js';
import { type ProfileName, PROFILES } from './profile.js';

const { values: args } = parseArgs({
  options: {
    note: { type: 'string' },
    profile: { type: 'string', default: 'ci' },
    latest: { type: 'string', default: latestPath },
    baseline: { type: 'string' },
    also: { type: 'string', multiple: true, default: [] },
    tolerance: { type: 'string', multiple: true, default: [] },
    only: { type: 'string', multiple: true, default: [] },
  },
  strict: true,
});

function fail(message: string): never {
  console.error(`bench:update: ${message}`);
  process.exit(1);
}

const note = args.note?.trim();
if (!note) fail('say why the baseline changes: --note "..." (it is stored in the baseline and belongs in the commit message too)');
if (!PROFILES.includes(args.profile as ProfileName)) fail(`--profile must be one of ${PROFILES.join(', ')}, got ${args.profile}`);
const latest = readLatest(args.latest);
if (latest.profile !== args.profile) fail(`${args.latest} is a ${latest.profile} run; the baseline must be a ${args.profile} run (npm run bench:ci)`);
if (latest.failures.length > 0)
  fail(`the run has failed or skipped suites (${latest.failures.map((f) => `${f.suite}: ${f.reason}`).join('; ')}): a baseline must have every metric`);
const bad = latest.metrics.filter((m) => m.kind !== 'info' && !Number.isFinite(m.value));
if (bad.length > 0) fail(`gated metrics without a finite value: ${bad.map((m) => m.name).join(', ')}`);
const others = args.also.map((file) => {
  const run = readLatest(file);
  if (run.profile !== latest.profile) fail(`${file} is a ${run.profile} run and ${args.latest} a ${latest.profile} one: medians need one profile`);
  if (run.failures.length > 0) fail(`${file} has failed or skipped suites (${run.failures.map((f) => f.suite).join(', ')})`);
  return run;
});
const cls = classOfRun(latest);
const otherClass = others.find((r) => classOfRun(r) !== cls);
if (otherClass !== undefined)
  fail(`${otherClass.date} was timed on a ${classOfRun(otherClass)} machine and ${args.latest} on ${cls}: a baseline is of one machine class`);
const tolerances: Record<string, number> = {};
for (const spec of args.tolerance) {
  const at = spec.lastIndexOf('=');
  if (at <= 0) fail(`--tolerance takes NAME=FRACTION, got ${JSON.stringify(spec)}`);
  tolerances[spec.slice(0, at)] = Number(spec.slice(at + 1));
}
let metrics = medianOfRuns([latest.metrics, ...others.map((r) => r.metrics)]);
try {
  metrics = withTolerances(metrics, tolerances);
} catch (e) {
  fail((e as Error).message);
}
let measured = [latest.date, ...others.map((r) => r.date)].join(', ');
const path = args.baseline ?? baselinePathFor(cls);
if (args.only.length > 0) {
  if (!existsSync(path)) fail(`--only keeps the other metrics of ${path}, which does not exist yet`);
  const current = readBaseline(path);
  try {
    metrics = retakeOnly(current.metrics, metrics, args.only);
  } catch (e) {
    fail((e as Error).message);
  }
  measured = `${current.measured} (${args.only.join(', ')}: ${measured})`;
}
const baseline: Baseline = { note, profile: latest.profile, machineClass: cls, measured, machine: latest.machine, metrics };
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, `${JSON.stringify(baseline, null, 2)}\n`);
console.log(
  `bench:update: wrote ${path} (${metrics.filter((m) => m.kind !== 'info').length} gated metrics, ${latest.profile} profile, measured ${measured}${others.length > 0 ? `; timed ratios are medians over ${others.length + 1} runs` : ''}). Commit it with the note.`,
);
