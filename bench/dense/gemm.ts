// The dense suite's GEMM part: dype's gemm against OpenBLAS called directly (paired rounds, same
// process, same thread count) and numpy's matmul (a child process, same shapes and threads) on
// the GCN feature-transform shapes. Helpers of dense.ts.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Precision } from '../../src/data/dense.js';
import { denseFeatures } from '../../src/generators/index.js';
import { gemmInline } from '../../src/kernels/dense.js';
import { nativeAddon } from '../../src/native/addon.js';
import { type Candidate, measurePaired, median, pairedRatio, type PairedSettings } from '../common/measure.js';
import { progress } from '../common/report.js';
import type { ReferenceAddon } from '../references/load.js';

export interface GemmShape {
  readonly m: number;
  readonly k: number;
  readonly n: number;
  readonly precision: Precision;
}

export interface GemmRow extends GemmShape {
  readonly dypeMs: number;
  readonly blasMs: number | null;
  readonly numpyMs: number | null;
  readonly dypeGflops: number;
  /** Median over rounds of OpenBLAS time / dype time (>= 1: dype at least as fast). */
  readonly blasRatio: number | null;
  /** numpy's median / dype's median (two processes, not paired). */
  readonly numpyRatio: number | null;
}

/** The GCN shapes: rows 2^14-2^20 x 16-256 x 16-256; `maxElements` caps rows * (k + n) (memory and time on a small machine). */
export function gemmShapes(profile: 'full' | 'quick' | 'ci'): GemmShape[] {
  const rows = profile === 'ci' ? [2 ** 14, 2 ** 16] : profile === 'quick' ? [2 ** 16, 2 ** 18] : [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20];
  const widths: [number, number][] =
    profile === 'ci'
      ? [
          [16, 16],
          [64, 64],
          [256, 64],
        ]
      : [
          [16, 16],
          [64, 16],
          [64, 64],
          [128, 128],
          [256, 64],
          [64, 256],
          [256, 256],
        ];
  const maxElements = profile === 'full' ? 2 ** 26 : 2 ** 24;
  const out: GemmShape[] = [];
  for (const precision of ['f32', 'f64'] as const) {
    for (const m of rows) for (const [k, n] of widths) if (m * (k + n) <= maxElements) out.push({ m, k, n, precision });
  }
  return out;
}

/** numpy's medians for `shapes` with `threads` BLAS threads, or why there are none. */
export function numpyTimes(shapes: readonly GemmShape[], threads: number, reps: number): { version: string; seconds: number[] } | { reason: string } {
  const python = process.env['DYPE_PYTHON'] ?? 'python3';
  const script = join(fileURLToPath(new URL('.', import.meta.url)), 'numpy_gemm.py');
  const t = String(threads);
  const r = spawnSync(python, [script], {
    input: JSON.stringify(shapes.map((s) => ({ ...s, reps }))),
    encoding: 'utf8',
    env: { ...process.env, OPENBLAS_NUM_THREADS: t, OMP_NUM_THREADS: t, MKL_NUM_THREADS: t },
    maxBuffer: 1 << 20,
  });
  if (r.error) return { reason: `${python} not found (${r.error.message}); install python3-numpy or set DYPE_PYTHON` };
  if (r.status !== 0)
    return { reason: `${python} ${script} failed: ${(r.stderr || '').trim().split('\n').pop()} (is numpy installed? apt-get install python3-numpy)` };
  return JSON.parse(r.stdout) as { version: string; seconds: number[] };
}

/** Time dype and OpenBLAS on every shape; numpy figures are joined in by the caller. */
export async function measureGemm(
  shapes: readonly GemmShape[],
  refs: ReferenceAddon,
  threads: number,
  settings: PairedSettings,
): Promise<Omit<GemmRow, 'numpyMs' | 'numpyRatio'>[]> {
  const addon = nativeAddon();
  const rows: Omit<GemmRow, 'numpyMs' | 'numpyRatio'>[] = [];
  for (const s of shapes) {
    const x = denseFeatures({ rows: s.m, cols: s.k, precision: s.precision, seed: 1 });
    const w = denseFeatures({ rows: s.k, cols: s.n, precision: s.precision, seed: 2 });
    const alloc = (): Float32Array | Float64Array => (s.precision === 'f32' ? new Float32Array(s.m * s.n) : new Float64Array(s.m * s.n));
    const yDype = alloc();
    const yBlas = alloc();
    const blas = refs.blasGemm;
    const inline = gemmInline(s.m, s.k, s.n);
    const candidates: Candidate[] = [
      { name: 'dype', async: true, fn: async () => void (await addon.gemm(s.m, s.k, s.n, x.data, w.data, yDype, 0, s.m, inline)) },
    ];
    if (blas) candidates.push({ name: 'openblas', async: false, fn: () => blas(s.m, s.k, s.n, x.data, w.data, yBlas, threads) });
    const { samples } = await measurePaired(candidates, settings);
    // Both must have computed the same product (f32: to f32 accumulation's rounding).
    if (blas) checkSame(`${s.m}x${s.k}x${s.n} ${s.precision}`, yDype, yBlas, s.k);
    const dypeMs = median(samples[0]!);
    const blasMs = blas ? median(samples[1]!) : null;
    const row = { ...s, dypeMs, blasMs, dypeGflops: (2 * s.m * s.k * s.n) / (dypeMs * 1e6), blasRatio: blas ? pairedRatio(samples[1]!, samples[0]!) : null };
    progress(`dense gemm ${s.m}x${s.k}x${s.n} ${s.precision}: dype ${dypeMs.toFixed(2)} ms, openblas ${blasMs?.toFixed(2) ?? 'n/a'} ms`);
    rows.push(row);
  }
  return rows;
}

function checkSame(what: string, a: Float32Array | Float64Array, b: Float32Array | Float64Array, k: number): void {
  const eps = a instanceof Float32Array ? 2 ** -24 : 2 ** -53;
  for (let i = 0; i < a.length; i++) {
    // denseFeatures' values lie in [-1, 1): each product is at most 1 in magnitude.
    if (!(Math.abs(a[i]! - b[i]!) <= 2 * (k + 2) * eps * k)) throw new Error(`dense gemm ${what}: dype and OpenBLAS differ at ${i}: ${a[i]} vs ${b[i]}`);
  }
}
