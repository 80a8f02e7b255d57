// Independent references for the fitting tests: brute-force NNLS over every active set, solved
// by Gaussian elimination on the normal equations (fine for the tiny, well-conditioned systems
// the tests build), so a bug in the QR solver cannot hide in its own reference.

import { lcg } from '../support/random.js';

/** rows x cols row-major matrix with entries uniform in [lo, hi). */
export function randomMatrix(rows: number, cols: number, seed: number, lo = -1, hi = 1): Float64Array {
  const rnd = lcg(seed);
  return Float64Array.from({ length: rows * cols }, () => lo + (hi - lo) * rnd());
}

export function randomVector(n: number, seed: number, lo = -1, hi = 1): Float64Array {
  return randomMatrix(n, 1, seed, lo, hi);
}

export function residualNorm(a: Float64Array, rows: number, cols: number, x: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < rows; i++) {
    let r = -b[i]!;
    for (let j = 0; j < cols; j++) r += a[i * cols + j]! * x[j]!;
    s += r * r;
  }
  return Math.sqrt(s);
}

/** Unconstrained least squares on the columns in `set` (normal equations, partial pivoting). */
function solveSubset(a: Float64Array, rows: number, cols: number, set: number[], b: Float64Array): Float64Array | undefined {
  const k = set.length;
  const m = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  for (let p = 0; p < k; p++) {
    for (let q = 0; q < k; q++) {
      let s = 0;
      for (let i = 0; i < rows; i++) s += a[i * cols + set[p]!]! * a[i * cols + set[q]!]!;
      m[p]![q] = s;
    }
    let s = 0;
    for (let i = 0; i < rows; i++) s += a[i * cols + set[p]!]! * b[i]!;
    m[p]![k] = s;
  }
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    if (Math.abs(m[piv]![c]!) < 1e-14) return undefined;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let q = c; q <= k; q++) m[r]![q] = m[r]![q]! - f * m[c]![q]!;
    }
  }
  const x = new Float64Array(cols);
  for (let p = 0; p < k; p++) x[set[p]!] = m[p]![k]! / m[p]![p]!;
  return x;
}

/** The NNLS optimum by trying every active set (cols <= ~10). */
export function bruteForceNnls(a: Float64Array, rows: number, cols: number, b: Float64Array): Float64Array {
  let best: Float64Array = new Float64Array(cols);
  let bestNorm = residualNorm(a, rows, cols, best, b);
  for (let mask = 1; mask < 1 << cols; mask++) {
    const set: number[] = [];
    for (let j = 0; j < cols; j++) if (mask & (1 << j)) set.push(j);
    const x = solveSubset(a, rows, cols, set, b);
    if (x === undefined || set.some((j) => x[j]! < 0)) continue;
    const norm = residualNorm(a, rows, cols, x, b);
    if (norm < bestNorm) {
      best = x;
      bestNorm = norm;
    }
  }
  return best;
}
