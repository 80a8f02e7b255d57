// Brute-force references and synthetic problems for the search-layer tests.

import { Rng } from '../../src/generators/rng.js';
import type { SearchProblem } from '../../src/scheduler/search/types.js';

/** Random points, row-major; with `levels` the values are integers in [0, levels) (many ties and duplicates). */
export function randomPoints(rng: Rng, n: number, m: number, levels?: number): Float64Array {
  const v = new Float64Array(n * m);
  for (let i = 0; i < v.length; i++) v[i] = levels === undefined ? rng.nextFloat() : rng.nextInt(levels);
  return v;
}

/** Whether row a is <= row b everywhere (`strict`: and < somewhere). */
function noWorse(v: ArrayLike<number>, m: number, a: number, b: number, strict: boolean): boolean {
  let lt = false;
  for (let k = 0; k < m; k++) {
    const x = v[a * m + k]!;
    const y = v[b * m + k]!;
    if (x > y) return false;
    if (x < y) lt = true;
  }
  return lt || !strict;
}

/** O(n^2) front: i is kept unless another point dominates it or an equal point has a lower index. */
export function bruteFront(v: ArrayLike<number>, m: number, ids: readonly number[]): number[] {
  return ids.filter((i) => ids.every((j) => j === i || !noWorse(v, m, j, i, j > i)));
}

/** Non-dominated rank of every id by repeated peeling (equal points share a rank). */
export function bruteRanks(v: ArrayLike<number>, m: number, ids: readonly number[]): Map<number, number> {
  const rank = new Map<number, number>();
  let left = [...ids];
  for (let r = 0; left.length > 0; r++) {
    const front = left.filter((i) => left.every((j) => !noWorse(v, m, j, i, true)));
    for (const i of front) rank.set(i, r);
    const peeled = new Set(front);
    left = left.filter((i) => !peeled.has(i));
  }
  return rank;
}

/** A lexicographic comparison of rows, for checking output order. */
export function lexCompare(v: ArrayLike<number>, m: number, a: number, b: number): number {
  for (let k = 0; k < m; k++) {
    const d = v[a * m + k]! - v[b * m + k]!;
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * A mapping-like problem: gene i picks one of `options` (time, energy[, memory]) entries from a
 * table and the objectives are the sums. Options trade time against energy with random gaps,
 * so the front of the sums is large and known (see sumFront).
 */
export interface TableProblem extends SearchProblem {
  readonly table: Float64Array; // genes * options * objectives
  calls: number;
}

export function tableProblem(seed: number, genes: number, options: number, objectives: 2 | 3 = 2): TableProblem {
  const rng = new Rng(seed);
  const table = new Float64Array(genes * options * objectives);
  for (let g = 0; g < genes; g++) {
    let t = rng.nextInt(10);
    let e = 50 + rng.nextInt(50);
    for (let o = 0; o < options; o++) {
      const at = (g * options + o) * objectives;
      table[at] = t;
      table[at + 1] = e;
      if (objectives === 3) table[at + 2] = rng.nextInt(20);
      t += 1 + rng.nextInt(10);
      e = Math.max(0, e - 1 - rng.nextInt(12));
    }
  }
  const problem: TableProblem = {
    cardinality: new Int32Array(genes).fill(options),
    objectives,
    table,
    calls: 0,
    evaluate(genome, out) {
      problem.calls++;
      for (let k = 0; k < objectives; k++) out[k] = 0;
      for (let g = 0; g < genes; g++) {
        const at = (g * options + genome[g]!) * objectives;
        for (let k = 0; k < objectives; k++) out[k] = out[k]! + table[at + k]!;
      }
      return true;
    },
  };
  return problem;
}

/** The exact objective-space front of a table problem, by merging per-gene fronts (Minkowski sums). */
export function sumFront(problem: TableProblem, options: number): number[][] {
  const m = problem.objectives;
  const genes = problem.cardinality.length;
  let front: number[][] = [new Array<number>(m).fill(0)];
  for (let g = 0; g < genes; g++) {
    const sums: number[][] = [];
    for (const p of front) {
      for (let o = 0; o < options; o++) sums.push(p.map((x, k) => x + problem.table[(g * options + o) * m + k]!));
    }
    const flat = sums.flat();
    front = bruteFront(
      flat,
      m,
      sums.map((_, i) => i),
    ).map((i) => sums[i]!);
  }
  return front.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
}

/** The rows of `values` listed in `ids`, as arrays. */
export function rows(values: Float64Array, m: number, ids: ArrayLike<number>): number[][] {
  return Array.from(ids, (i) => Array.from(values.subarray(i * m, (i + 1) * m)));
}
