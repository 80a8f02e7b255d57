// What the build-against-build benches (spmm-builds.ts, bfs-builds.ts) share: loading two builds
// of the native addon side by side, and reading their count arguments.

import { createRequire } from 'node:module';

/** Two builds of dype_native.node, each loaded from its own path (copy the old one aside first). */
export function loadTwoBuilds<T>(oldPath: string | undefined, newPath: string | undefined): { oldBuild: T; newBuild: T } {
  if (oldPath === undefined || newPath === undefined) throw new Error('--old and --new must name two builds of dype_native.node');
  const load = createRequire(import.meta.url);
  return { oldBuild: load(oldPath) as T, newBuild: load(newPath) as T };
}

/** A count argument such as --rounds: a positive integer. */
export function positiveCount(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${value}`);
  return n;
}
