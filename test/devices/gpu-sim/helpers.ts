// Shared fixtures of the gpu-sim tests: devices built from the shipped profiles and small
// matrices whose structure (one huge row, uniform rows, contiguous or scattered columns, a
// path) each test is about.

import { CsrMatrix } from '../../../src/data/csr.js';
import type { Device } from '../../../src/devices/device.js';
import { gpuSimBackend } from '../../../src/devices/backends/gpu-sim.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { lcg } from '../../support/random.js';

export function gpuSim(profile = 'h100-sxm', name = 'gpu0'): Device {
  return gpuSimBackend.create(name, loadProfile('test', 'gpu-sim', profile, gpuSimBackend.params));
}

/** A matrix from per-row sorted column lists. */
export function fromRows(cols: number, rows: readonly (readonly number[])[]): CsrMatrix {
  const rowPtr = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (rowPtr[i + 1] = rowPtr[i]! + r.length));
  const colIdx = Int32Array.from(rows.flat());
  const values = new Float64Array(colIdx.length).fill(0.5);
  return new CsrMatrix({ rows: rows.length, cols, rowPtr, colIdx, values });
}

/** `perRow` distinct random columns per row, sorted. */
export function uniformMatrix(rows: number, cols: number, perRow: number, seed: number): CsrMatrix {
  const rnd = lcg(seed);
  const out: number[][] = [];
  for (let r = 0; r < rows; r++) {
    const s = new Set<number>();
    while (s.size < perRow) s.add(Math.floor(rnd() * cols));
    out.push([...s].sort((a, b) => a - b));
  }
  return fromRows(cols, out);
}

/** Like uniformMatrix, but row 0 holds every column: one row as long as the matrix is wide. */
export function oneHugeRow(rows: number, cols: number, perRow: number, seed: number): CsrMatrix {
  const u = uniformMatrix(rows, cols, perRow, seed);
  const out: number[][] = [Array.from({ length: cols }, (_, c) => c)];
  for (let r = 1; r < rows; r++) out.push(Array.from(u.colIdx.subarray(u.rowStart(r), u.rowStart(r + 1))));
  return fromRows(cols, out);
}

/** An undirected path 0 - 1 - ... - (n-1): diameter n - 1. */
export function pathGraph(n: number): CsrMatrix {
  const rows: number[][] = [];
  for (let v = 0; v < n; v++) rows.push([v - 1, v + 1].filter((u) => u >= 0 && u < n));
  const rowPtr = new Int32Array(n + 1);
  rows.forEach((r, i) => (rowPtr[i + 1] = rowPtr[i]! + r.length));
  return new CsrMatrix({ rows: n, cols: n, rowPtr, colIdx: Int32Array.from(rows.flat()), symmetric: true });
}
