// Options objects under fuzzing: every public function that takes options gets objects built from
// its known option names, near-miss misspellings and unrelated keys, holding hostile values
// (wrong types, negative, huge, non-finite, wrongly shaped arrays). It must run or refuse with a
// typed error naming itself; an unknown name is always refused, with a did-you-mean when close.

import { describe } from 'vitest';
import { cooToCsr } from '../../src/data/coo.js';
import { symmetrize } from '../../src/data/convert.js';
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
import { build, checkRefusal, optionsFor } from './option-arbitraries.js';

const graph = kroneckerGraph({ scale: 5, seed: 3 });
const matrix = erdosRenyiGraph({ n: 40, m: 100, seed: 2, weights: 'f64', directed: true });
const x = denseFeatures({ rows: matrix.cols, cols: 3, seed: 1, precision: 'f64' });

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

describe('options of the synchronous entry points', () => {
  for (const t of SYNC) {
    fuzz(`${t.fn} options: run, or a typed refusal naming ${t.fn}`, optionsFor(t.names), 60, (c) => {
      const { options, unknownName } = build(t.names, c);
      // cooToCsr's `caller` renames the function in its messages (the loaders pass their own name).
      const caller = options !== null && typeof options === 'object' ? (options as { caller?: unknown }).caller : undefined;
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
