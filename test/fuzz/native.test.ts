// Every native entry point called directly with hostile positional arguments: CSR arrays with
// non-monotone or out-of-range row pointers, negative or out-of-range column indices, NaN values,
// wrong lengths and element types, mismatched dense shapes, n x k products that overflow, empty
// and one-vertex graphs, bad sources, directions and simulator parameters, and for the simulated
// single-source searches resumed depth arrays with values outside [-1, startLevel], bad start
// levels and bad level limits. A call must either
// settle with the result the plain TypeScript reference gives, or throw / reject with a coded
// error whose message starts with the entry point's name; never crash, never hang.
// (`npm run test:asan` runs this file under AddressSanitizer, where a read out of bounds aborts.)

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { CsrMatrix } from '../../src/data/csr.js';
import { cgraSimBackend } from '../../src/devices/backends/cgra-sim.js';
import { gpuSimBackend } from '../../src/devices/backends/gpu-sim.js';
import { loadProfile, specValues } from '../../src/devices/spec.js';
import { bfsReference, msbfsReference } from '../../src/kernels/reference.js';
import { nativeAddon } from '../../src/native/addon.js';
import { hostileCsr, type RawCsr } from './csr-arbitraries.js';
import { expectCodedError, fuzzAsync, hostileInt, nonFinite, notANumber, type Outcome } from './harness.js';

type Fn = (...args: unknown[]) => unknown;
const addon = nativeAddon() as unknown as Record<string, Fn>;
const CGRA = specValues(loadProfile('fuzz', 'cgra-sim', 'hycube-4x4', cgraSimBackend.params));
const GPU_SIM = specValues(loadProfile('fuzz', 'gpu-sim', 'h100-sxm', gpuSimBackend.params));

/** Call a raw export; a synchronous throw and a rejection are both outcomes. */
async function call(name: string, args: unknown[]): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: (await addon[name]!(...args)) as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The reference for the raw SpMM contract, or undefined when the arguments are unsafe: lengths
 * must match, and every row pointer in [rowBegin, rowEnd] and every column index read must lie in
 * range. (The native side reads only those rows, so corruption elsewhere is no fault of the call.)
 * With `structure` false the CSR arrays are not examined: a call with k = 0 or an empty row range
 * reads none of them, so it may be accepted or refused.
 */
function safeSpmm(
  m: RawCsr,
  x: unknown,
  k: unknown,
  y: unknown,
  rb: unknown,
  re: unknown,
  structure = true,
): { y: Float64Array; bound: Float64Array } | undefined {
  const isInt = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
  if (!isInt(m.rows, 0, 2 ** 31 - 1) || !isInt(m.cols, 0, 2 ** 31 - 1) || !isInt(k, 0, 2 ** 31 - 1)) return undefined;
  const { rowPtr, colIdx, values } = m;
  if (!(rowPtr instanceof Int32Array || rowPtr instanceof BigInt64Array) || !(colIdx instanceof Int32Array)) return undefined;
  if (values !== undefined && values !== null && !(values instanceof Float32Array || values instanceof Float64Array)) return undefined;
  if (rowPtr.length !== m.rows + 1 || (values && values.length !== colIdx.length)) return undefined;
  if (!isInt(rb, 0, m.rows) || !isInt(re, rb, m.rows)) return undefined;
  if (!(x instanceof Float32Array || x instanceof Float64Array) || !(y instanceof Float32Array || y instanceof Float64Array)) return undefined;
  if (x.constructor !== y.constructor || x.length !== m.cols * k || y.length !== (re - rb) * k) return undefined;
  const nnz = colIdx.length;
  const ptr = (r: number) => Number(rowPtr[r]!);
  if (!structure) return { y: new Float64Array((re - rb) * k), bound: new Float64Array((re - rb) * k) };
  for (let r = rb; r <= re; r++) if (ptr(r) < 0 || ptr(r) > nnz || (r > rb && ptr(r) < ptr(r - 1))) return undefined;
  const out = new Float64Array((re - rb) * k);
  const bound = new Float64Array((re - rb) * k);
  for (let r = rb; r < re; r++) {
    for (let p = ptr(r); p < ptr(r + 1); p++) {
      const c = colIdx[p]!;
      if (c < 0 || c >= m.cols) return undefined;
      const v = values ? values[p]! : 1;
      for (let j = 0; j < k; j++) {
        out[(r - rb) * k + j]! += v * x[c * k + j]!;
        bound[(r - rb) * k + j]! += Math.abs(v * x[c * k + j]!) * (ptr(r + 1) - ptr(r) + 2);
      }
    }
  }
  return { y: out, bound };
}

const spmmCase = fc.record({
  m: hostileCsr,
  k: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom<unknown>(2 ** 31 - 1, 2 ** 31, -1, 1.5, NaN, '2')),
  xShape: fc.constantFrom('right', 'short', 'long', 'f32', 'nan', 'aliasY', 'notArray'),
  yShape: fc.constantFrom('right', 'right', 'short', 'long', 'f32'),
  range: fc.oneof(fc.constant('full'), fc.tuple(fc.nat(8), fc.nat(8)), fc.tuple(hostileInt, fc.nat(8))),
  precision: fc.constantFrom('f32', 'f64'),
  inline: fc.boolean(),
  entry: fc.constantFrom('spmm', 'spmv', 'cgraSpmm', 'cgraSpmv', 'gpuSimSpmm', 'gpuSimSpmv'),
});

function dense(precision: string, n: number): Float32Array | Float64Array {
  const a = precision === 'f32' ? new Float32Array(Math.max(0, n)) : new Float64Array(Math.max(0, n));
  for (let i = 0; i < a.length; i++) a[i] = ((i * 7) % 5) - 2;
  return a;
}

describe('raw SpMM entry points', () => {
  fuzzAsync('spmm, spmv, cgraSpmm, cgraSpmv, gpuSimSpmm, gpuSimSpmv: reference result or coded refusal', spmmCase, 400, async (c) => {
    const rows = typeof c.m.rows === 'number' && Number.isInteger(c.m.rows) && c.m.rows >= 0 && c.m.rows < 64 ? c.m.rows : 0;
    const cols = typeof c.m.cols === 'number' && Number.isInteger(c.m.cols) && c.m.cols >= 0 && c.m.cols < 64 ? c.m.cols : 0;
    const k = typeof c.k === 'number' && Number.isInteger(c.k) && c.k >= 0 && c.k < 64 ? c.k : 1;
    const [rb, re] = c.range === 'full' ? [0, rows] : c.range;
    const yLen =
      typeof rb === 'number' && typeof re === 'number' && Number.isInteger(rb) && Number.isInteger(re) && re >= rb && re - rb < 64 ? (re - rb) * k : 0;
    const yBase = dense(c.yShape === 'f32' ? 'f32' : c.precision, yLen + (c.yShape === 'short' ? -1 : c.yShape === 'long' ? 1 : 0));
    const y = c.yShape === 'f32' && c.precision === 'f32' ? new Float64Array(yBase.length) : yBase;
    let x: unknown = dense(
      c.xShape === 'f32' ? (c.precision === 'f32' ? 'f64' : 'f32') : c.precision,
      cols * k + (c.xShape === 'short' ? -1 : c.xShape === 'long' ? 1 : 0),
    );
    if (c.xShape === 'nan' && (x as Float64Array).length > 0) (x as Float64Array)[0] = NaN;
    if (c.xShape === 'aliasY') x = y;
    if (c.xShape === 'notArray') x = Array.from(x as Float64Array);
    const args: unknown[] = [c.m.rows, c.m.cols, c.m.rowPtr, c.m.colIdx, c.m.values ?? null, x, c.k, y, rb, re];
    if (c.entry.startsWith('cgra')) args.push(CGRA);
    if (c.entry.startsWith('gpuSim')) args.push(GPU_SIM);
    args.push(c.inline);
    // The spmv entry points are spmm with k = 1 under their own name: a k other than 1 is a fault of the caller there.
    const ref = c.xShape === 'aliasY' && y.length > 0 ? undefined : safeSpmm(c.m, x, c.k, y, rb, re);
    // Nothing is read when k = 0 or the range is empty: a corrupt structure may then pass unseen.
    const readsNothing = y.length === 0 && (c.k === 0 || rb === re) ? safeSpmm(c.m, x, c.k, y, rb, re, false) : undefined;
    const got = await call(c.entry, args);
    if (!got.ok) {
      expectCodedError(got.error, c.entry);
      const finite = ref !== undefined && c.xShape !== 'nan' && ref.y.every(Number.isFinite);
      // A safe call on intact arrays with finite data has no reason to be refused (spmv with k != 1
      // excepted); a corrupt structure may be refused even outside the rows asked for.
      if (finite && c.m.corruption === 'none' && (c.m.values === undefined || (c.m.values as Float64Array).every(Number.isFinite))) {
        expect((got.error as Error).message).toMatch(/k|not finite/);
      }
      return 'refused';
    }
    if (ref === undefined && readsNothing !== undefined) return 'result';
    expect(ref, `${c.entry} accepted unsafe arguments (${c.m.corruption}, x ${c.xShape}, y ${c.yShape}, range ${String(c.range)})`).toBeDefined();
    const out = y as Float32Array | Float64Array;
    const u = out instanceof Float32Array ? 2 ** -23 : 2 ** -52;
    // Absolute slack for products that underflow when f64 values meet f32 operands.
    const tiny = out instanceof Float32Array ? 1e-30 : 1e-300;
    for (let i = 0; i < out.length; i++) {
      expect(Math.abs(out[i]! - ref!.y[i]!)).toBeLessThanOrEqual(u * ref!.bound[i]! + tiny);
    }
    expect(typeof got.value['seconds']).toBe('number');
    return 'result';
  });
});

/**
 * A square graph (n = 0 to 7) with its in-edges, and a corruption of one of the four arrays or of a
 * scalar. The simulated single-source searches (cgraBfs, gpuSimBfs) may also resume (`resume`: from
 * the reference depths cut at level `at % n`) and stop after `maxLevels` levels; `resumeDepth`,
 * `startLevel` and `maxLevels` corrupt those.
 */
const graphCase = fc.record({
  n: fc.integer({ min: 0, max: 7 }),
  edges: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 20 }),
  wide: fc.boolean(),
  corrupt: fc.constantFrom(
    'none',
    'none',
    'rowPtr',
    'colIdx',
    'inRowPtr',
    'inColIdx',
    'swapRowPtr',
    'n',
    'source',
    'depthLength',
    'direction',
    'alpha',
    'sources',
    'depthsLength',
    'inShorter',
    'resumeDepth',
    'startLevel',
    'maxLevels',
  ),
  at: fc.nat(),
  bad: fc.oneof(hostileInt, fc.integer({ min: -2, max: 9 }), nonFinite, notANumber),
  source: fc.nat(),
  sources: fc.array(fc.nat(), { maxLength: 4 }),
  direction: fc.integer({ min: 0, max: 2 }),
  entry: fc.constantFrom('bfs', 'msbfs', 'cgraBfs', 'cgraMsbfs', 'gpuSimBfs', 'gpuSimMsbfs'),
  inline: fc.boolean(),
  resume: fc.boolean(),
  maxLevels: fc.integer({ min: 0, max: 3 }),
});

function csrOf(n: number, pairs: readonly (readonly [number, number])[], wide: boolean): { rowPtr: Int32Array | BigInt64Array; colIdx: Int32Array } {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const ptr = new Array<number>(n + 1).fill(0);
  for (const [u] of sorted) ptr[u + 1]!++;
  for (let i = 0; i < n; i++) ptr[i + 1]! += ptr[i]!;
  return { rowPtr: wide ? BigInt64Array.from(ptr, BigInt) : Int32Array.from(ptr), colIdx: Int32Array.from(sorted, (e) => e[1]) };
}

function spoil(a: Int32Array | BigInt64Array, at: number, bad: unknown): Int32Array | BigInt64Array {
  const b = a.slice();
  if (b.length === 0) return b;
  const v = typeof bad === 'number' && Number.isFinite(bad) ? Math.trunc(bad) : -1;
  if (b instanceof BigInt64Array) b[at % b.length] = BigInt(v);
  else b[at % b.length] = v;
  return b;
}

describe('raw BFS entry points', () => {
  fuzzAsync('bfs, msbfs, cgraBfs, cgraMsbfs, gpuSimBfs, gpuSimMsbfs: reference depths or coded refusal', graphCase, 400, async (c) => {
    const n = c.n;
    const pairs = n === 0 ? [] : c.edges.map(([u, v]) => [u % n, v % n] as const);
    const out = csrOf(n, pairs, c.wide);
    const inn = csrOf(
      n,
      pairs.map(([u, v]) => [v, u] as const),
      c.wide,
    );
    let { rowPtr, colIdx } = out;
    let { rowPtr: inRowPtr, colIdx: inColIdx } = inn;
    let nArg: unknown = n;
    let source: unknown = n === 0 ? 0 : c.source % n;
    // An empty graph has no vertex to start from: its clean multi-source call has no sources.
    const sources = n === 0 ? new Int32Array(0) : Int32Array.from(c.sources, (s) => s % n);
    let depthLength = n;
    let depthsLength = sources.length * n;
    let direction: unknown = c.direction;
    let alpha: unknown = 15;
    switch (c.corrupt) {
      case 'rowPtr':
        rowPtr = spoil(rowPtr, c.at, c.bad);
        break;
      case 'colIdx':
        colIdx = spoil(colIdx, c.at, c.bad) as Int32Array;
        break;
      case 'inRowPtr':
        inRowPtr = spoil(inRowPtr, c.at, c.bad);
        break;
      case 'inColIdx':
        inColIdx = spoil(inColIdx, c.at, c.bad) as Int32Array;
        break;
      case 'swapRowPtr':
        if (rowPtr.length >= 3) {
          const i = 1 + (c.at % (rowPtr.length - 2));
          rowPtr = rowPtr.slice();
          const t = rowPtr[i]!;
          (rowPtr as Int32Array)[i] = rowPtr[i + 1]! as number;
          (rowPtr as Int32Array)[i + 1] = t as number;
        }
        break;
      case 'n':
        nArg = c.bad;
        break;
      case 'source':
        source = c.bad;
        break;
      case 'depthLength':
        depthLength = Math.max(0, n + (c.at % 2 ? 1 : -1));
        break;
      case 'direction':
        direction = c.bad;
        break;
      case 'alpha':
        alpha = c.bad;
        break;
      case 'sources':
        if (sources.length) sources[c.at % sources.length] = typeof c.bad === 'number' && Number.isFinite(c.bad) ? Math.trunc(c.bad) | 0 : -1;
        break;
      case 'depthsLength':
        depthsLength = Math.max(0, depthsLength + (c.at % 2 ? 1 : -1));
        break;
      case 'inShorter':
        inColIdx = inColIdx.subarray(0, Math.max(0, inColIdx.length - 1));
        break;
    }
    const depth = new Int32Array(depthLength);
    const depths = new Int32Array(depthsLength);
    const multi = c.entry.toLowerCase().endsWith('msbfs');
    // Resume and level limit: the simulated single-source searches only.
    const resumable = c.entry === 'cgraBfs' || c.entry === 'gpuSimBfs';
    const resuming = resumable && n > 0 && (c.resume || c.corrupt === 'resumeDepth');
    const cleanSource = n === 0 ? 0 : c.source % n;
    const reference = n === 0 ? new Int32Array(0) : bfsReference(new CsrMatrix({ rows: n, cols: n, rowPtr: out.rowPtr, colIdx: out.colIdx }), cleanSource);
    const level = resuming ? c.at % n : 0;
    let startLevel: unknown = resuming ? level : -1;
    let maxLevels: unknown = c.maxLevels;
    if (resuming) {
      for (let v = 0; v < Math.min(n, depth.length); v++) depth[v] = reference[v]! > level ? -1 : reference[v]!;
    }
    if (resumable && c.corrupt === 'resumeDepth' && depth.length > 0) {
      depth[c.at % depth.length] = typeof c.bad === 'number' && Number.isFinite(c.bad) ? Math.trunc(c.bad) | 0 : -2;
    }
    if (c.corrupt === 'startLevel') startLevel = c.bad;
    if (c.corrupt === 'maxLevels') maxLevels = c.bad;
    // The trailing arguments are omitted when they would be the defaults, so both forms are tried.
    const trailing = resuming || c.maxLevels !== 0 || c.corrupt === 'startLevel' || c.corrupt === 'maxLevels' ? [startLevel, maxLevels] : [];
    let args: unknown[];
    if (c.entry === 'bfs') args = [nArg, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, null, direction, alpha, 4, c.inline];
    else if (c.entry === 'msbfs') args = [nArg, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths, c.inline];
    else if (c.entry === 'cgraBfs') args = [nArg, rowPtr, colIdx, source, depth, CGRA, c.inline, ...trailing];
    else if (c.entry === 'cgraMsbfs') args = [nArg, rowPtr, colIdx, sources, depths, CGRA, c.inline];
    else if (c.entry === 'gpuSimBfs') args = [nArg, rowPtr, colIdx, inRowPtr, inColIdx, source, depth, GPU_SIM, c.inline, ...trailing];
    else args = [nArg, rowPtr, colIdx, inRowPtr, inColIdx, sources, depths, GPU_SIM, c.inline];
    const got = await call(c.entry, args);
    // Corruptions the entry point never reads: the CGRA simulator takes no in-edges and no
    // direction; only bfs reads alpha and direction; a source or depth corruption does not reach msbfs.
    const unread =
      (c.entry.startsWith('cgra') && ['inRowPtr', 'inColIdx', 'inShorter'].includes(c.corrupt)) ||
      (c.entry !== 'bfs' && ['direction', 'alpha'].includes(c.corrupt)) ||
      (multi && ['source', 'depthLength'].includes(c.corrupt)) ||
      (!multi && ['sources', 'depthsLength'].includes(c.corrupt)) ||
      (!resumable && ['resumeDepth', 'startLevel', 'maxLevels'].includes(c.corrupt));
    const clean = c.corrupt === 'none' || unread;
    if (!got.ok) {
      expectCodedError(got.error, c.entry);
      if (clean) {
        // Only an empty graph may be refused when clean: a single-source search needs a vertex,
        // and the GPU and CGRA simulators refuse an empty graph for multi-source searches too.
        expect(n === 0, `${c.entry} refused a clean call: ${(got.error as Error).message}`).toBe(true);
      }
      return 'refused';
    }
    if (clean) {
      const g = new CsrMatrix({ rows: n, cols: n, rowPtr: out.rowPtr, colIdx: out.colIdx });
      if (multi) expect(Array.from(depths)).toEqual(Array.from(msbfsReference(g, sources)));
      else if (!resumable) expect(Array.from(depth)).toEqual(Array.from(bfsReference(g, source as number)));
      else {
        // The reference cut at the level limit, and the vertices found at each level from the start.
        const last = c.maxLevels > 0 ? level + c.maxLevels : Infinity;
        const expected = reference.map((d) => (d > last ? -1 : d));
        expect(Array.from(depth)).toEqual(Array.from(expected));
        const counts = [expected.filter((d) => d === level).length];
        for (let l = level + 1; expected.includes(l); l++) counts.push(expected.filter((d) => d === l).length);
        expect(Array.from(got.value['frontier'] as Float64Array)).toEqual(counts);
      }
    } else {
      // A corruption the search never read may go unnoticed; what it wrote must still be depths
      // (a resumed search starts at most n - 1 levels down and goes at most n - 1 further).
      const bound = resumable ? 2 * Math.max(1, n) : Math.max(1, n);
      for (const d of multi ? depths : depth) expect(d >= -1 && d < bound).toBe(true);
    }
    return 'result';
  });
});

describe('raw simulator parameters', () => {
  const paramCase = fc.record({
    entry: fc.constantFrom('cgraSpmm', 'gpuSimSpmm'),
    key: fc.nat(),
    bad: fc.oneof(hostileInt, nonFinite, notANumber, fc.double()),
    drop: fc.boolean(),
  });
  fuzzAsync('cgra-sim and gpu-sim params: every value checked before the simulation runs', paramCase, 200, async (c): Promise<Outcome> => {
    const base = c.entry === 'cgraSpmm' ? CGRA : GPU_SIM;
    const keys = Object.keys(base);
    const key = keys[c.key % keys.length]!;
    const params: Record<string, unknown> = { ...base };
    if (c.drop) delete params[key];
    else params[key] = c.bad;
    const x = new Float64Array(2);
    const y = new Float64Array(2);
    const got = await call(c.entry, [2, 2, Int32Array.of(0, 1, 2), Int32Array.of(1, 0), null, x, 1, y, 0, 2, params, true]);
    if (!got.ok) {
      expectCodedError(got.error, c.entry);
      return 'refused';
    }
    expect(Array.from(y)).toEqual([0, 0]); // x is zero, so y is too, whatever the model's numbers
    return 'result';
  });
});
