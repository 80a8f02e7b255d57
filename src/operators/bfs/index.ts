// Breadth-first search depths from one source (never split) and from many (split by sources);
// device kernels priced by the cost model.

import type { CsrMatrix } from '../../data/csr.js';
import { bfsReference, msbfsReference } from '../../kernels/reference.js';
import type { BindContext, OperatorKind, ValueShape } from '../kind.js';
import { boundDims, dims } from '../shared.js';
import { maxDegreeVertex, pickSources } from './sources.js';

function squareGraph(name: string, ctx: BindContext): { n: number; a: CsrMatrix } {
  const g = ctx.operands[0]!;
  if (g.rows !== g.cols) ctx.fail(`${name} needs a square graph, ${boundDims(g)}`);
  return { n: g.rows, a: g.pattern! };
}

function graphShape(names: readonly string[], s: readonly ValueShape[], fail: (d: string) => never): number {
  const a = s[0]!;
  if (a.rows !== a.cols) fail(`${names[0]!} must be square (a graph), ${dims(names[0]!, a)}`);
  if (a.rows === 0) fail(`${names[0]!} is empty (0 x 0)`);
  return a.rows;
}

export const bfs: OperatorKind = {
  name: 'bfs',
  description: 'breadth-first search depths from one source',
  operands: ['sparse'],
  params: ['source'],
  output: 'depths',
  builtin: true,
  splittable: false,
  // The vertex of largest out-degree, found at bind time; any other value is an expression.
  literalParam: (name, value) => (name === 'source' && value === 'max-degree' ? null : undefined),
  bind(ctx) {
    const { n, a } = squareGraph('bfs', ctx);
    const p = ctx.params['source'];
    const s = p === undefined || p === 'max-degree' ? maxDegreeVertex(a) : ctx.num('source')!;
    if (!Number.isInteger(s) || s < 0 || s >= n) ctx.fail(`source must be a vertex in [0, ${n}), got ${s}`);
    return {
      output: { kind: 'depths', rows: 1, cols: n, entries: n, bytes: n * 4, precision: 'f32' },
      units: 0,
      split: 'none',
      whole: [true],
      flops: 0,
      bytes: ctx.operands[0]!.bytes,
      params: { source: s },
    };
  },
  shape: (names, s, _params, fail) => ({ kind: 'depths', rows: 1, cols: graphShape(names, s, fail), precision: 'f32' }),
  reference: (op, x) => bfsReference(x[0] as CsrMatrix, op.source!),
  execution: {
    on: 'device',
    async run(device, op, x, _range, options) {
      const result = await device.run({ kind: 'bfs', source: op.source! }, { graph: x[0] as CsrMatrix }, undefined, options);
      return { output: result.output.depth, result };
    },
    costShape: (op, values) => ({ kind: 'bfs', graph: values[op.operands[0]!]!.pattern! }),
  },
};

export const msbfs: OperatorKind = {
  name: 'msbfs',
  description: 'breadth-first search from many sources',
  operands: ['sparse'],
  params: ['sources'],
  output: 'depths',
  builtin: true,
  splittable: true,
  bind(ctx) {
    const { n, a } = squareGraph('msbfs', ctx);
    const count = ctx.num('sources') ?? 32;
    if (!Number.isInteger(count) || count < 1 || count > n) ctx.fail(`sources must be an integer in [1, ${n}] (the graph's vertices), got ${count}`);
    return {
      output: { kind: 'depths', rows: count, cols: n, entries: count * n, bytes: count * n * 4, precision: 'f32' },
      units: count,
      split: 'sources',
      whole: [true],
      flops: 0,
      bytes: ctx.operands[0]!.bytes,
      params: { sources: pickSources(a, count, ctx.seed) },
    };
  },
  shape: (names, s, params, fail) => ({ kind: 'depths', rows: Number(params['sources'] ?? 32), cols: graphShape(names, s, fail), precision: 'f32' }),
  reference: (op, x) => msbfsReference(x[0] as CsrMatrix, op.sources!),
  execution: {
    on: 'device',
    async run(device, op, x, range, options) {
      const result = await device.run({ kind: 'msbfs', sources: op.sources! }, { graph: x[0] as CsrMatrix }, range, options);
      return { output: result.output.depths, result };
    },
    costShape: (op, values, begin, end) => ({ kind: 'msbfs', graph: values[op.operands[0]!]!.pattern!, sources: end - begin }),
  },
  join(_op, outputs) {
    if (outputs.length === 1) return outputs[0]!;
    const parts = outputs as Int32Array[];
    const all = new Int32Array(parts.reduce((s, p) => s + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return all;
  },
};
