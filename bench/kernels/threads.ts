// One kernel suite at several thread counts: the native pool's size is fixed when the addon
// starts (DYPE_THREADS), so `--threads 1,2` runs the suite once per count in a child process of
// its own and merges the reports. The merged report keeps each count's data under
// data.byThreads (what the regression gate reads) and the first count's at the top level.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteReport } from '../common/report.js';

/** The thread counts of a `--threads` value: positive integers, comma-separated. */
export function threadCounts(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const counts = value.split(',').map((t) => Number(t.trim()));
  for (const c of counts)
    if (!Number.isInteger(c) || c < 1 || c > 1024) throw new Error(`--threads must be positive integers separated by commas, got ${value}`);
  return counts;
}

/**
 * Run `script` (a suite's own URL) once per count with DYPE_THREADS set and every argument but
 * --threads, --json and --quiet passed on; return the merged report.
 */
export function runPerThreadCount(script: string, argv: readonly string[], counts: readonly number[]): SuiteReport {
  const dir = mkdtempSync(join(tmpdir(), 'dype-threads-'));
  try {
    const passOn: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '--threads' || a === '--json') i++;
      else if (!a.startsWith('--threads=') && !a.startsWith('--json=') && a !== '--quiet') passOn.push(a);
    }
    const reports = counts.map((t) => {
      const file = join(dir, `t${t}.json`);
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(script), ...passOn, '--json', file, '--quiet'], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DYPE_THREADS: String(t) },
      });
      return JSON.parse(readFileSync(file, 'utf8')) as SuiteReport;
    });
    const first = reports[0]!;
    const label = (t: number): string => `${t} thread${t === 1 ? '' : 's'}`;
    return {
      ...first,
      title: `${first.title}, ${counts.map(label).join(' and ')}`,
      settings: { ...first.settings, threadCounts: counts },
      notes: reports.flatMap((r, i) => r.notes.map((n) => `(${label(counts[i]!)}) ${n}`)),
      tables: reports.flatMap((r, i) => r.tables.map((t) => ({ ...t, title: `${t.title} [${label(counts[i]!)}]` }))),
      data: { ...(first.data as object), byThreads: Object.fromEntries(reports.map((r, i) => [String(counts[i]), r.data])) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
