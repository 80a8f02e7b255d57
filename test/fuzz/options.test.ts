// Options objects under fuzzing: every public function that takes options gets objects built from
// its known option names, near-miss misspellings and unrelated keys, holding hostile values
// (wrong types, negative, huge, non-finite, wrongly shaped arrays). It must run or refuse with a
// typed error naming itself; an unknown name is always refused, with a did-you-mean when close.

import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { symmetrize } from '../../src/data/convert.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { OnlineCorrection } from '../../src/cost/online-correction.js';
import { graphFeatures, matrixFeatures } from '../../src/cost/features.js';
import { bandedMatrix, denseFeatures, erdosRenyiGraph, gridGraph, kroneckerGraph } from '../../src/generators/index.js';
import { formatMatrixMarket } from '../../src/io/write-matrix-market.js';
import { parseMatrixMarket } from '../../src/io/matrix-market.js';
import { parseMetis } from '../../src/io/metis.js';
import { parseEdgeList } from '../../src/io/snap.js';
import { bfs } from '../../src/kernels/bfs.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { spmm } from '../../src/kernels/spmm.js';
import { spmv } from '../../src/kernels/spmv.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { attempt, attemptAsync, fuzz, fuzzAsync } from './harness.js';

const graph = kroneckerGraph({ scale: 5, seed: 3 });
const matrix = erdosRenyiGraph({ n: 40, m: 100, seed: 2, weights: 'f64', directed: true });
const x = denseFeatures({ rows: matrix.cols, cols: 3, seed: 1, precision: 'f64' });

const VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  2,
  3,
  16,
  -1,
  0.5,
  1.5,
  -0.0,
  NaN,
  Infinity,
  -Infinity,
  2 ** 31,
  2 ** 53,
  1e308,
  '',
  'f32',
  'f64',
  'sum',
  'error',
  'top-down',
  'bottom-up',
  'auto',
  'typescript',
  'wasm',
  'symmetric',
  'x',
  '3',
  [],
  [0, 1],
  [5, 3],
  [0, 1e9],
  [-1, 2],
  [0, 40],
  {},
  { k: 2 },
  { k: -1 },
  () => 0,
  3n,
  Symbol('s'),
  new Int32Array(3),
  new Float64Array(120),
  DenseMatrix.zeros(40, 3, 'f64'),
  DenseMatrix.zeros(40, 1, 'f64'),
  AbortSignal.abort(),
];

/** Misspell a known name (a swap, a dropped or a doubled letter) or use an unrelated one. */
const misspelt = (names: readonly string[]) =>
  fc.tuple(fc.constantFrom(...names), fc.nat(), fc.constantFrom('swap', 'drop', 'double', 'upper', 'other')).map(([n, at, how]) => {
    const i = at % n.length;
    if (how === 'swap' && n.length > 1) return n.slice(0, i) + (n[i + 1] ?? '') + n[i] + n.slice(i + 2);
    if (how === 'drop') return n.slice(0, i) + n.slice(i + 1);
    if (how === 'double') return n.slice(0, i) + n[i] + n.slice(i);
    if (how === 'upper') return n.toUpperCase();
    return ['bogus', '__proto__', 'constructor', 'toString', 'hasOwnProperty'][at % 5]!;
  });

function optionsFor(names: readonly string[]) {
  return fc.record({
    known: fc.dictionary(fc.constantFrom(...names), fc.constantFrom(...VALUES), { maxKeys: 4 }),
    unknown: fc.option(fc.tuple(misspelt(names), fc.constantFrom(...VALUES)), { nil: undefined }),
    notObject: fc.constantFrom(false, false, false, false, true),
  });
}

interface Target {
  fn: string;
  names: readonly string[];
  call: (options: unknown) => unknown;
}

const SYNC: Target[] = [
  {
    fn: 'parseMatrixMarket',
    names: ['precision', 'duplicates', 'dropSelfLoops', 'maxEntries', 'format', 'label'],
    call: (o) => parseMatrixMarket('%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1.5\n2 2 -1\n', o as never),
  },
  {
    fn: 'parseEdgeList',
    names: ['undirected', 'weights', 'precision', 'duplicates', 'dropSelfLoops', 'maxEntries', 'label'],
    call: (o) => parseEdgeList('0 1\n1 2\n', o as never),
  },
  { fn: 'parseMetis', names: ['precision', 'maxEntries', 'label'], call: (o) => parseMetis('3 2\n2\n1 3\n2\n', o as never) },
  { fn: 'formatMatrixMarket', names: ['symmetric', 'comment'], call: (o) => formatMatrixMarket(matrix, o as never) },
  {
    fn: 'cooToCsr',
    names: ['duplicates', 'mirror', 'dropSelfLoops', 'symmetric', 'caller'],
    call: (o) => cooToCsr({ rows: 3, cols: 3, rowIdx: Int32Array.of(0, 2, 2), colIdx: Int32Array.of(1, 0, 0) }, o as never),
  },
  { fn: 'symmetrize', names: ['duplicates'], call: (o) => symmetrize(matrix, o as never) },
  { fn: 'erdosRenyiGraph', names: ['n', 'm', 'directed', 'seed', 'weights'], call: (o) => erdosRenyiGraph({ n: 30, m: 40, ...(o as object) } as never) },
  { fn: 'gridGraph', names: ['rows', 'cols', 'deleteFraction', 'seed', 'weights'], call: (o) => gridGraph({ rows: 5, cols: 6, ...(o as object) } as never) },
  {
    fn: 'kroneckerGraph',
    names: ['scale', 'edgeFactor', 'a', 'b', 'c', 'directed', 'seed', 'weights'],
    call: (o) => kroneckerGraph({ scale: 4, ...(o as object) } as never),
  },
  {
    fn: 'bandedMatrix',
    names: ['n', 'halfBandwidth', 'fill', 'precision', 'seed'],
    call: (o) => bandedMatrix({ n: 20, halfBandwidth: 2, ...(o as object) } as never),
  },
  { fn: 'denseFeatures', names: ['rows', 'cols', 'seed', 'precision'], call: (o) => denseFeatures({ rows: 10, cols: 2, ...(o as object) } as never) },
  { fn: 'matrixFeatures', names: ['engine', 'sampleAbove', 'sampleRows'], call: (o) => matrixFeatures(matrix, o as never) },
  { fn: 'graphFeatures', names: ['engine', 'sources'], call: (o) => graphFeatures(graph, o as never) },
  { fn: 'OnlineCorrection', names: ['window', 'maxStep', 'sampleClip', 'maxFactor'], call: (o) => new OnlineCorrection(o as never) },
  { fn: 'bindWorkload', names: ['params', 'precision', 'seed'], call: (o) => bindWorkload(workload('gcn'), graph, o as never) },
];

const ASYNC: { fn: string; names: readonly string[]; call: (options: unknown) => Promise<unknown> }[] = [
  { fn: 'spmm', names: ['rows', 'out'], call: (o) => spmm(matrix, x, o as never) },
  { fn: 'spmv', names: ['rows', 'out'], call: (o) => spmv(matrix, new Float64Array(matrix.cols).fill(1), o as never) },
  { fn: 'bfs', names: ['direction', 'parents', 'inEdges', 'alpha', 'beta', 'out'], call: (o) => bfs(graph, 1, o as never) },
  { fn: 'msbfs', names: ['inEdges'], call: (o) => msbfs(graph, [0, 3], o as never) },
];

function build(
  names: readonly string[],
  c: { known: Record<string, unknown>; unknown: [string, unknown] | undefined; notObject: boolean },
): { options: unknown; unknownName: string | undefined } {
  if (c.notObject) return { options: c.known['x'] ?? 'options', unknownName: undefined };
  const options: Record<string, unknown> = { ...c.known };
  let unknownName: string | undefined;
  if (c.unknown && !names.includes(c.unknown[0])) {
    unknownName = c.unknown[0];
    Object.defineProperty(options, unknownName, { value: c.unknown[1], enumerable: true, configurable: true, writable: true });
  }
  return { options, unknownName };
}

function checkRefusal(fn: string, unknownName: string | undefined, got: { ok: boolean; error?: Error }): void {
  if (unknownName === undefined) return;
  expect(got.ok, `${fn} accepted the unknown option ${JSON.stringify(unknownName)}`).toBe(false);
  expect(got.error!.message).toMatch(/unknown (option|field)|caller must be/);
}

describe('options of the synchronous entry points', () => {
  for (const t of SYNC) {
    fuzz(`${t.fn} options: run, or a typed refusal naming ${t.fn}`, optionsFor(t.names), 60, (c) => {
      const { options, unknownName } = build(t.names, c);
      // cooToCsr's `caller` renames the function in its messages (the loaders pass their own name).
      const caller = (options as { caller?: unknown } | null)?.caller;
      const names = typeof caller === 'string' && caller.length > 0 ? [t.fn, caller] : [t.fn];
      const got = attempt(names, () => t.call(options));
      checkRefusal(t.fn, unknownName, got as never);
      return got.ok ? 'result' : 'refused';
    });
  }
});

describe('options of the kernels', () => {
  for (const t of ASYNC) {
    fuzzAsync(`${t.fn} options: run, or a typed refusal naming ${t.fn}`, optionsFor(t.names), 60, async (c) => {
      const { options, unknownName } = build(t.names, c);
      const got = await attemptAsync(t.fn, () => t.call(options));
      checkRefusal(t.fn, unknownName, got as never);
      return got.ok ? 'result' : 'refused';
    });
  }
});
