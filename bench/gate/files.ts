// The gate's files: bench/results/latest.json (written by bench/run.ts, git-ignored) and one
// committed baseline per machine class, bench/baselines/<class>.json (changed only by
// bench:update; machine-class.ts says why one per class). Reading either validates its shape, so
// a hand-edited or truncated file is a clear error, not a silent pass.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../common/datasets.js';
import { machineClass } from '../common/machine-class.js';
import type { MachineInfo } from '../common/report.js';
import type { Metric } from './metrics.js';
import { type ProfileName, PROFILES } from './profile.js';

export const latestPath = join(repoRoot, 'bench', 'results', 'latest.json');
export const baselinesDir = join(repoRoot, 'bench', 'baselines');

/** Where the baseline of a machine class lives (it may not exist yet). */
export function baselinePathFor(machineClass: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(machineClass)) throw new Error(`baselinePathFor: machine class ${JSON.stringify(machineClass)} is not a slug`);
  return join(baselinesDir, `${machineClass}.json`);
}

/** The machine classes that have a committed baseline. */
export function baselineClasses(): string[] {
  if (!existsSync(baselinesDir)) return [];
  return readdirSync(baselinesDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

export interface Latest {
  readonly date: string;
  readonly profile: ProfileName;
  readonly machine: MachineInfo;
  readonly seconds: Readonly<Record<string, number>>;
  readonly metrics: readonly Metric[];
  readonly failures: readonly { suite: string; reason: string }[];
  readonly suites: readonly { suite: string; data: unknown; settings: Readonly<Record<string, unknown>>; machine: MachineInfo; date: string }[];
}

export interface Baseline {
  /** Why this baseline was taken (bench:update --note). */
  readonly note: string;
  readonly profile: ProfileName;
  /** The machine class its timed ratios were measured on (bench/common/machine-class.ts). */
  readonly machineClass: string;
  /** When the run behind it happened, and where. */
  readonly measured: string;
  readonly machine: MachineInfo;
  readonly metrics: readonly Metric[];
}

function readJson(path: string, what: string, hint: string): unknown {
  if (!existsSync(path)) throw new Error(`${what}: ${path} not found (${hint})`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${what}: ${path} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
}

function checkMetrics(list: unknown, where: string): Metric[] {
  if (!Array.isArray(list)) throw new Error(`${where}: no metrics list (written by an older bench/run.ts? run it again)`);
  for (const m of list as unknown[]) {
    const ok =
      typeof m === 'object' &&
      m !== null &&
      typeof (m as Metric).name === 'string' &&
      ['ratio', 'deterministic', 'info'].includes((m as Metric).kind) &&
      (typeof (m as Metric).value === 'number' || (m as Metric).value === null) &&
      typeof (m as Metric).higherIsBetter === 'boolean';
    if (!ok) throw new Error(`${where}: malformed metric ${JSON.stringify(m)}`);
  }
  // JSON has no NaN: a NaN value was written as null; it stays a number that fails the gate.
  return (list as Metric[]).map((m) => ({ ...m, value: m.value === null ? NaN : m.value }));
}

function checkProfile(p: unknown, where: string): ProfileName {
  if (!PROFILES.includes(p as ProfileName)) throw new Error(`${where}: unknown profile ${JSON.stringify(p)} (one of ${PROFILES.join(', ')})`);
  return p as ProfileName;
}

export function readLatest(path = latestPath): Latest {
  const raw = readJson(path, 'latest results', 'run `npm run bench:ci` first') as Record<string, unknown>;
  return { ...(raw as unknown as Latest), profile: checkProfile(raw['profile'], path), metrics: checkMetrics(raw['metrics'], path) };
}

/** The machine class a run was timed on; a run written before classes were recorded is taken as this machine's. */
export function classOfRun(run: Latest): string {
  return run.machine.machineClass ?? machineClass();
}

export function readBaseline(path: string): Baseline {
  const raw = readJson(path, 'baseline', 'create it with `npm run bench:update -- --note "why"`') as Record<string, unknown>;
  if (typeof raw['note'] !== 'string' || raw['note'].trim() === '') throw new Error(`${path}: the baseline has no note saying why it was taken`);
  if (typeof raw['machineClass'] !== 'string') throw new Error(`${path}: the baseline does not say which machine class it was measured on`);
  return { ...(raw as unknown as Baseline), profile: checkProfile(raw['profile'], path), metrics: checkMetrics(raw['metrics'], path) };
}
