// Run profiles: which suites a `bench/run.ts` run includes and with what flags. The gate compares
// a run only with a baseline of the same profile, since sizes change every figure.

import type { SuiteName } from '../common/report.js';

export type ProfileName = 'full' | 'quick' | 'ci';
export const PROFILES: readonly ProfileName[] = ['full', 'quick', 'ci'];

export interface SuiteRun {
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The CI size: the suites the gate reads, each small enough that the whole step stays within a
 * few minutes on 2 shared cores. The kernel suites run single-threaded (dype and every reference
 * alike): on a loaded 2-core machine a 2-thread kernel, OpenMP's above all, stalls whenever one
 * of its threads is descheduled, and those stalls, not the code, would decide the ratios. A
 * threading regression therefore shows in the full run, not in the gate.
 */
export const CI_SUITES: Readonly<Partial<Record<SuiteName, SuiteRun>>> = {
  spmm: { args: ['--ci'], env: { DYPE_THREADS: '1' } },
  bfs: { args: ['--ci'], env: { DYPE_THREADS: '1' } },
  devices: { args: ['--quick'] },
  decisions: { args: ['--quick'] },
};

/** What a suite gets under a profile (full and quick: every suite, with --quick for quick). */
export function suiteRun(profile: ProfileName, suite: SuiteName): SuiteRun | undefined {
  if (profile === 'ci') return CI_SUITES[suite];
  return { args: profile === 'quick' ? ['--quick'] : [] };
}
