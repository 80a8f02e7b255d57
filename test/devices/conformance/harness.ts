// The device conformance suite's shared parts: one device per backend in the table (built from
// its default profile), the inputs every backend must handle, and the checks against the plain
// TypeScript references. Floating point: within the summation bound of test/support/compare.ts
// ((row length + 2) * unit roundoff * sum |a_ij x_jc|); BFS depths: exact.

import { expect } from 'vitest';
import type { CsrMatrix } from '../../../src/data/csr.js';
import type { DenseMatrix } from '../../../src/data/dense.js';
import { BACKENDS } from '../../../src/devices/backends/index.js';
import type { Device, DeviceResult, OperatorKind } from '../../../src/devices/device.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { denseFeatures, generate, type GeneratorSpec } from '../../../src/generators/index.js';
import { bfsReference, msbfsReference } from '../../../src/kernels/reference.js';
import { firstDifference, firstSpmmMismatch } from '../../support/compare.js';

/**
 * A device of every registered backend that can run here, default profile. A real device that is
 * absent (the CUDA backend without a GPU) is left out, so its tests skip; set DYPE_REQUIRE_CUDA=1
 * on a GPU machine to fail instead when CUDA does not come up.
 */
export async function conformanceDevices(): Promise<Device[]> {
  const devices: Device[] = [];
  for (const b of BACKENDS.values()) {
    const status = await b.probe();
    if (!status.available) {
      if (b.name === 'gpu' && process.env['DYPE_REQUIRE_CUDA'] === '1') throw new Error(`DYPE_REQUIRE_CUDA=1 but ${status.reason}`);
      continue;
    }
    devices.push(b.create(`${b.name}-under-test`, loadProfile('test', b.name, b.defaultProfile, b.params)));
  }
  return devices;
}

/** Small inputs of every generator family (kept small: simulators run them too). */
export const FAMILIES: Readonly<Record<string, GeneratorSpec>> = {
  'kronecker (power law, undirected)': { kind: 'kronecker', scale: 10, edgeFactor: 8, seed: 3 },
  'kronecker (directed, f32 weights)': { kind: 'kronecker', scale: 9, edgeFactor: 8, directed: true, seed: 5, weights: 'f32' },
  'erdos-renyi (directed, f64 weights)': { kind: 'erdos-renyi', n: 1500, m: 9000, directed: true, seed: 7, weights: 'f64' },
  'grid (road-like)': { kind: 'grid', rows: 40, cols: 50, deleteFraction: 0.15, seed: 2 },
  'banded (FEM-like, f64 values)': { kind: 'banded', n: 2000, halfBandwidth: 12, seed: 4 },
};

export function family(name: string): CsrMatrix {
  return generate(FAMILIES[name]!);
}

/** A result's time and energy are finite and positive, labelled as the device is. */
export function expectHonestCosts(device: Device, r: DeviceResult<OperatorKind>): void {
  expect(r.device).toBe(device.name);
  expect(Number.isFinite(r.seconds) && r.seconds >= 0).toBe(true);
  expect(Number.isFinite(r.joules) && r.joules >= 0).toBe(true);
  expect(r.source).toBe(device.simulated ? 'simulated' : 'measured');
  if (device.simulated) expect(r.energySource).toBe('simulated');
  else expect(['measured', 'modelled']).toContain(r.energySource);
  for (const [k, v] of Object.entries(r.counters)) expect(Number.isFinite(v), `counter ${k}`).toBe(true);
}

/** SpMM (or SpMV when k = 1) over the given ranges, each checked against the reference. */
export async function checkSpmm(device: Device, a: CsrMatrix, x: DenseMatrix, ranges: readonly (readonly [number, number])[] = [[0, a.rows]]): Promise<void> {
  const kind = x.cols === 1 ? 'spmv' : 'spmm';
  for (const range of ranges) {
    const r = await device.run({ kind }, { a, x }, range);
    expectHonestCosts(device, r);
    expect(r.output.rows).toBe(range[1] - range[0]);
    expect(r.output.cols).toBe(x.cols);
    expect(r.output.precision).toBe(x.precision);
    const bad = firstSpmmMismatch(a, x.data, x.cols, r.output.data, range[0], range[1]);
    expect(bad, `${device.name} ${kind} k=${x.cols} ${x.precision} rows [${range[0]}, ${range[1]}): first mismatch at ${bad}`).toBe(-1);
  }
}

/** Row ranges that split [0, rows) in three uneven parts, with an empty one. */
export function splitRanges(rows: number): [number, number][] {
  const a = Math.floor(rows / 5);
  const b = Math.floor((rows * 3) / 4);
  return [
    [0, a],
    [a, a],
    [a, b],
    [b, rows],
  ];
}

export async function checkBfs(device: Device, g: CsrMatrix, sources: readonly number[]): Promise<void> {
  for (const source of sources) {
    const r = await device.run({ kind: 'bfs', source }, { graph: g });
    expectHonestCosts(device, r);
    const want = bfsReference(g, source);
    const bad = firstDifference(r.output.depth, want);
    expect(bad, `${device.name} bfs from ${source}: depth differs at vertex ${bad}`).toBe(-1);
    let deepest = 0;
    for (const d of want) deepest = Math.max(deepest, d);
    const levels = new Float64Array(deepest + 1);
    for (const d of want) if (d >= 0) levels[d]! += 1;
    expect(Array.from(r.output.frontier)).toEqual(Array.from(levels));
  }
}

export async function checkMsbfs(device: Device, g: CsrMatrix, sources: Int32Array, range?: readonly [number, number]): Promise<void> {
  const r = await device.run({ kind: 'msbfs', sources }, { graph: g }, range);
  expectHonestCosts(device, r);
  const [b, e] = range ?? [0, sources.length];
  const want = msbfsReference(g, sources.subarray(b, e));
  const bad = firstDifference(r.output.depths, want);
  expect(bad, `${device.name} msbfs sources [${b}, ${e}): first difference at ${bad}`).toBe(-1);
}

/** Spread-out sources of a graph, including the first and last vertex. */
export function sourcesOf(g: CsrMatrix, count: number): number[] {
  const out = new Set<number>([0, g.rows - 1]);
  for (let i = 1; out.size < Math.min(count, g.rows); i++) out.add(Math.floor((i * 7919) % g.rows));
  return [...out];
}

export function features(a: CsrMatrix, k: number, precision: 'f32' | 'f64', seed = k): DenseMatrix {
  return denseFeatures({ rows: a.cols, cols: k, precision, seed });
}

/**
 * A search handed from device to device: each call resumes the last one's depths and stops after
 * `step` levels; `devices` take turns. Depths equal the reference, the frontier counts concatenate
 * to the whole search's, and only the last call reports `complete`.
 */
export async function checkSteppedBfs(devices: readonly Device[], g: CsrMatrix, source: number, step: number): Promise<void> {
  const want = bfsReference(g, source);
  let depth: Int32Array | undefined;
  let level = 0;
  const counts: number[] = [];
  let calls = 0;
  for (;;) {
    const device = devices[calls % devices.length]!;
    const r = await device.run({ kind: 'bfs', source, maxLevels: step, ...(depth ? { resume: { depth, level } } : {}) }, { graph: g });
    expectHonestCosts(device, r);
    const f = Array.from(r.output.frontier);
    if (depth) expect(f[0], `${device.name}: the resumed frontier's size`).toBe(counts[counts.length - 1]);
    counts.push(...(depth ? f.slice(1) : f));
    expect(f.length - 1, `${device.name}: levels run in one call`).toBeLessThanOrEqual(step);
    calls++;
    if (r.output.complete) {
      depth = r.output.depth;
      break;
    }
    expect(f.length - 1, `${device.name}: an incomplete call ran all its levels`).toBe(step);
    depth = r.output.depth;
    level += f.length - 1;
    expect(calls, 'calls').toBeLessThan(g.rows + 2);
  }
  const bad = firstDifference(depth, want);
  expect(bad, `bfs from ${source} in steps of ${step} on ${devices.map((d) => d.name).join(', ')}: depth differs at vertex ${bad}`).toBe(-1);
  let deepest = 0;
  for (const d of want) deepest = Math.max(deepest, d);
  const levels = new Array<number>(deepest + 1).fill(0);
  for (const d of want) if (d >= 0) levels[d]! += 1;
  expect(counts).toEqual(levels);
}
