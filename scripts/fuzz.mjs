#!/usr/bin/env node
// `npm run fuzz`: the property-based hostile-input tests (test/fuzz) at a large case budget, in a
// child vitest run under a wall-clock limit, then a table of cases, results, typed refusals,
// failures, crashes and hangs per property. Exit status 0 only when every count of failures,
// crashes and hangs is zero and the case total reaches the floor asked for.
//
//   node scripts/fuzz.mjs [--scale N] [--limit SECONDS] [--min-cases N] [--json FILE]
//
// --scale multiplies each property's `npm test` case count (`npm run fuzz` uses 40: about 220,000 cases);
// CI runs `--scale 4` (about 21,000 cases). DYPE_FUZZ_SEED fixes fast-check's seed to replay a run.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (name !== '--json' && !(v > 0)) {
    console.error(`fuzz: ${name} needs a positive number, got ${args[i + 1]}`);
    process.exit(2);
  }
  return name === '--json' ? args[i + 1] : v;
}
const scale = option('--scale', 20);
const limit = option('--limit', 600);
const minCases = option('--min-cases', 0);
const jsonOut = option('--json', undefined);

const dir = mkdtempSync(join(tmpdir(), 'dype-fuzz-'));
const report = join(dir, 'tallies.jsonl');
const started = Date.now();
const child = spawn(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/fuzz', '--reporter=dot', '--testTimeout', String(limit * 1000)],
  {
    cwd: root,
    env: { ...process.env, DYPE_FUZZ_SCALE: String(scale), DYPE_FUZZ_REPORT: report },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so the limit can stop vitest and its workers together
  },
);
let output = '';
child.stdout.on('data', (d) => {
  output += d;
  process.stdout.write(d);
});
child.stderr.on('data', (d) => {
  output += d;
  process.stderr.write(d);
});
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}, limit * 1000);
const { code, signal } = await new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
clearTimeout(timer);
const seconds = (Date.now() - started) / 1000;

const tallies = existsSync(report)
  ? readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(dir, { recursive: true, force: true });
// A worker that died (a segfault, an abort from a sanitizer, V8 out of memory) is a crash; the
// whole run past its limit is a hang, as is any case past the per-case limit.
const crashes =
  (output.match(/Worker exited unexpectedly|Segmentation fault|SIGSEGV|SIGABRT|Aborted \(core dumped\)|heap out of memory|Channel closed/g) ?? []).length +
  (signal && !timedOut ? 1 : 0);
const sum = (k) => tallies.reduce((s, t) => s + t[k], 0);
const totals = {
  cases: sum('cases'),
  results: sum('results'),
  refusals: sum('refusals'),
  failures: sum('failures'),
  hangs: sum('hangs') + (timedOut ? 1 : 0),
  crashes,
};

const pad = (s, n) => String(s).padStart(n);
console.log(`\n${'property'.padEnd(92)}${pad('cases', 8)}${pad('results', 9)}${pad('refused', 9)}${pad('fail', 6)}${pad('hang', 6)}${pad('slowest', 10)}`);
for (const t of tallies.sort((a, b) => a.property.localeCompare(b.property))) {
  console.log(
    `${t.property.slice(0, 90).padEnd(92)}${pad(t.cases, 8)}${pad(t.results, 9)}${pad(t.refusals, 9)}${pad(t.failures, 6)}${pad(t.hangs, 6)}${pad(t.slowestMs.toFixed(1) + ' ms', 10)}`,
  );
}
console.log(
  `\nfuzz: ${tallies.length} properties, ${totals.cases} cases (${totals.results} results, ${totals.refusals} typed refusals), ` +
    `${totals.failures} failures, ${totals.crashes} crashes, ${totals.hangs} hangs, ${seconds.toFixed(0)} s (scale ${scale}, limit ${limit} s)`,
);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ scale, seconds, totals, properties: tallies }, null, 2) + '\n');
const ok = code === 0 && !timedOut && totals.failures === 0 && totals.crashes === 0 && totals.hangs === 0 && totals.cases >= minCases;
if (!ok && totals.cases < minCases) console.error(`fuzz: only ${totals.cases} cases ran, fewer than --min-cases ${minCases}`);
process.exit(ok ? 0 : 1);
