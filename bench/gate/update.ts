// Writes bench/baseline.json from bench/results/latest.json: the only way the baseline changes.
// Refuses a run of another profile than expected (CI unless --profile says otherwise), a run in
// which a suite failed or was skipped, a run with a non-finite gated metric, and a missing note.
// Run: node --import tsx bench/gate/update.ts --note "why the baseline changes" [--profile ci]

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { baselinePath, type Baseline, latestPath, readLatest } from './files.js';
import { type ProfileName, PROFILES } from './profile.js';

const { values: args } = parseArgs({
  options: {
    note: { type: 'string' },
    profile: { type: 'string', default: 'ci' },
    latest: { type: 'string', default: latestPath },
    baseline: { type: 'string', default: baselinePath },
  },
  strict: true,
});

function fail(message: string): never {
  console.error(`bench:update: ${message}`);
  process.exit(1);
}

const note = args.note?.trim();
if (!note) fail('say why the baseline changes: --note "..." (it is stored in bench/baseline.json and belongs in the commit message too)');
if (!PROFILES.includes(args.profile as ProfileName)) fail(`--profile must be one of ${PROFILES.join(', ')}, got ${args.profile}`);
const latest = readLatest(args.latest);
if (latest.profile !== args.profile) fail(`${args.latest} is a ${latest.profile} run; the baseline must be a ${args.profile} run (npm run bench:ci)`);
if (latest.failures.length > 0)
  fail(`the run has failed or skipped suites (${latest.failures.map((f) => `${f.suite}: ${f.reason}`).join('; ')}): a baseline must have every metric`);
const bad = latest.metrics.filter((m) => m.kind !== 'info' && !Number.isFinite(m.value));
if (bad.length > 0) fail(`gated metrics without a finite value: ${bad.map((m) => m.name).join(', ')}`);
const baseline: Baseline = { note, profile: latest.profile, measured: latest.date, machine: latest.machine, metrics: latest.metrics };
writeFileSync(args.baseline, `${JSON.stringify(baseline, null, 2)}\n`);
console.log(
  `bench:update: wrote ${args.baseline} (${latest.metrics.filter((m) => m.kind !== 'info').length} gated metrics, ${latest.profile} profile, measured ${latest.date}). Commit it with the note.`,
);
