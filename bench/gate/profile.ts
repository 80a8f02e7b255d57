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
 * few minutes on 2 shared cores. The kernel suites run at 1 and at 2 threads (dype and every
 * reference alike, each count in a process of its own: bench/kernels/threads.ts). The
 * references' OpenMP threads wait passively in the suite's process, and the GAP-style BFS is
 * also timed in a process of its own, so a 2-thread reference is not stalled by spinning
 * neighbours; the 2-thread ratios still move more on a loaded machine, hence their metrics'
 * wider tolerances where they are new.
 */
export const CI_SUITES: Readonly<Partial<Record<SuiteName, SuiteRun>>> = {
  spmm: { args: ['--ci', '--threads', '1,2'] },
  bfs: { args: ['--ci', '--threads', '1,2'] },
  dense: { args: ['--ci', '--threads', '1,2'] },
  devices: { args: ['--quick'] },
  decisions: { args: ['--quick'] },
};

/** What a suite gets under a profile (full and quick: every suite, with --quick for quick). */
export function suiteRun(profile: ProfileName, suite: SuiteName): SuiteRun | undefined {
  if (profile === 'ci') return CI_SUITES[suite];
  return { args: profile === 'quick' ? ['--quick'] : [] };
}
