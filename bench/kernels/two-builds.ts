// What the build-against-build benches (spmm-builds.ts, bfs-builds.ts) share: loading two builds
// of the native addon side by side, and reading their count arguments.

import { createRequire } from 'node:module';

/**
 * Two builds of dype_native.node, each loaded from its own path (copy the old one aside first).
 * Each keeps its own thread pool, and a pool's workers spin for a while after a job: with more
 * than one thread, one build's spinning workers take cores from the other's next call, which
 * favoured the build loaded first by up to 1.5x on small searches on a 2-vCPU VM. So a comparison
 * at more than one thread is only fair run as separate processes, one build each; this warns.
 */
export function loadTwoBuilds<T>(oldPath: string | undefined, newPath: string | undefined): { oldBuild: T; newBuild: T } {
  if (oldPath === undefined || newPath === undefined) throw new Error('--old and --new must name two builds of dype_native.node');
  if (process.env['DYPE_THREADS'] !== '1')
    console.warn(
      'two builds in one process at more than one thread: their pools compete for the cores (see bench/kernels/two-builds.ts); set DYPE_THREADS=1, or time each build in its own process',
    );
  const load = createRequire(import.meta.url);
  return { oldBuild: load(oldPath) as T, newBuild: load(newPath) as T };
}

/** A count argument such as --rounds: a positive integer. */
export function positiveCount(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${value}`);
  return n;
}

/**
 * Wait until the other build's threads have stopped polling. Each build has a host lane that
 * polls for 200 us after a call (native/src/host_lane.cc) and pool workers that poll for 2 ms
 * after a job (native/src/thread_pool.cc) before they sleep; a call of the other build started
 * within that time shares the cores with a spinning thread: without a pause, unchanged code read
 * 0.69-1.09 old/new on sub-millisecond products.
 */
export async function letOtherLaneSleep(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3));
}
