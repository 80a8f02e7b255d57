// How a host CPU piece is timed when its time is to price a run (the planner's probes, the
// oracle's pieces, a user operator's calibration): its caches turned over first, as a run leaves
// them (cache-turnover.ts), and a run the pool carried out short of its workers taken again.
//
// The pool's workers poll for jobs by yielding their core, so any other runnable thread on that
// core takes it: V8's optimising compiler and collector (four threads of their own beside the JS
// thread), a simulator, another process. The caller then runs the job's chunks alone. In the
// first plan of a process V8 compiles the planner's code while the probes run: on the 2-vCPU VM
// 30% of the pool's jobs in the first plan of an SpMM on cora ran unaided (14% in the second,
// 0.4% with V8's threads off: `node --single-threaded`), and the CPU was priced 1.3-1.6x what it
// ran in the oracle's rounds, so a CGRA was handed part of an operator the CPU alone ran faster.
// A kernel too small to split runs on one thread, and another thread can take that thread's core
// mid-call (the speed sentinel's one-thread search moved 2.2x between batches over 20 s with V8's
// threads on, 1.1-1.4x under `--single-threaded`). A run counts its unaided jobs
// (ThreadPool::unaided_jobs) and, while it is watched, its calls whose thread was switched out
// against its will (async_call.h); one with more than its fewest so far is taken again
// (repeats.ts): the figure is the kernel's on the cores a run is given.

import type { Device } from '../devices/device.js';
import { optionalAddon } from '../native/addon.js';
import { onHostCores, turnoverFor } from './cache-turnover.js';

/**
 * Around one run: call before it, and the returned function after it for the pool jobs it ran
 * unaided and its calls preempted (the calls are watched in between: two system calls each; 0
 * without the addon).
 */
export function countUnaided(): () => number {
  const addon = optionalAddon();
  if (!addon) return () => 0;
  const disturbed = (): number => {
    const jobs = addon.poolJobs();
    return jobs.unaided + jobs.preempted;
  };
  addon.watchPreemption(true);
  const before = disturbed();
  return () => {
    const n = disturbed() - before;
    addon.watchPreemption(false);
    return n;
  };
}

/**
 * `repeatInRounds` options for runs whose device is `deviceOf(k)`: on the host's cores, a cache
 * turnover before each timed run and the operands an earlier operator made (`madeEarlier(k)`)
 * handed over (cache-turnover.ts), and its unaided jobs and preempted calls counted; nothing for
 * other devices.
 */
export function hostTimingFor(
  deviceOf: (k: number) => Device,
  madeEarlier?: (k: number) => readonly ArrayBufferView[],
): {
  readonly before: (k: number) => Promise<void> | undefined;
  readonly unaided: (k: number) => (() => number) | undefined;
} {
  return {
    before: turnoverFor(deviceOf, madeEarlier),
    unaided: (k) => (onHostCores(deviceOf(k)) ? countUnaided() : undefined),
  };
}
