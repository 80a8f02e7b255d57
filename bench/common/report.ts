// What every suite hands back: tables for people (Markdown) and raw numbers for machines (JSON),
// tagged with the machine they were measured on, since none of the figures transfer elsewhere.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from './datasets.js';
import { machineClass } from './machine-class.js';

export type SuiteName =
  | 'spmm'
  | 'bfs'
  | 'dense'
  | 'boundary'
  | 'devices'
  | 'features'
  | 'predict'
  | 'accuracy'
  | 'search'
  | 'decisions'
  | 'plan'
  | 'demos'
  | 'overhead'
  | 'service';
export const SUITES: readonly SuiteName[] = [
  'spmm',
  'bfs',
  'dense',
  'boundary',
  'devices',
  'features',
  'predict',
  'accuracy',
  'search',
  'decisions',
  'plan',
  'demos',
  'overhead',
  'service',
];

export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface MachineInfo {
  readonly cpu: string;
  readonly logicalCpus: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** One-minute load average when the suite started: above ~0.5 per idle core, expect noise. */
  readonly loadAverage: number;
  /** Vector level and vendor the timed ratios depend on (machine-class.ts); absent in runs before 28 November 2026. */
  readonly machineClass?: string;
}

export interface SuiteReport {
  readonly suite: SuiteName;
  readonly title: string;
  readonly date: string;
  readonly machine: MachineInfo;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly notes: readonly string[];
  readonly tables: readonly Table[];
  /** The numbers behind the tables, unrounded. */
  readonly data: unknown;
}

export const resultsDir = join(repoRoot, 'bench', 'results');

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    logicalCpus: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: loadavg()[0] ?? NaN,
    machineClass: machineClass(),
  };
}

export function tableMarkdown(t: Table): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const lines = [`| ${t.columns.map(esc).join(' | ')} |`, `|${t.columns.map(() => '---').join('|')}|`];
  for (const row of t.rows) lines.push(`| ${row.map(esc).join(' | ')} |`);
  return `### ${t.title}\n\n${lines.join('\n')}\n`;
}

export function reportMarkdown(r: SuiteReport): string {
  const m = r.machine;
  const parts = [
    `## ${r.title}`,
    `Measured ${r.date} on ${m.cpu} (${m.logicalCpus} logical CPUs, ${m.memoryGiB} GiB), Node ${m.node}, load average ${fixed(m.loadAverage)} at the start. Wall time, medians.`,
    ...r.tables.map(tableMarkdown),
  ];
  if (r.notes.length > 0) parts.push(r.notes.map((n) => `- ${n}`).join('\n'));
  return `${parts.join('\n\n')}\n`;
}

/** Write the report as JSON to `path` (default bench/results/<suite>.json); print Markdown unless told to stay quiet. */
export function emitReport(r: SuiteReport, path: string | undefined, quiet: boolean): void {
  const file = path ?? join(resultsDir, `${r.suite}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  if (!quiet) console.log(`\n${reportMarkdown(r)}\n(raw numbers in ${file})`);
}

/** Progress goes to stderr so stdout carries only the report. */
export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

export function fixed(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x.toFixed(digits);
}

/** Milliseconds with about three significant digits. */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}
