// Argument checks shared by every backend's `run`, so each device refuses the same bad input
// with the same typed error before any kernel or simulator sees it.

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { checkGraph, inEdgesOf } from '../kernels/in-edges.js';
import { checkRowRange } from '../kernels/row-range.js';
import { checkOptions, checkSignal, MAX_INDEX } from '../validate.js';
import type { Device, GraphInputs, MatrixInputs, Operator, RowRange, RunOptions } from './device.js';
import { OPERATOR_KINDS } from './device.js';
import { checkEnum, checkInt } from '../validate.js';

/** A request after checking: the operator, its inputs and a concrete range. */
export type CheckedRun =
  | { readonly kind: 'spmm' | 'spmv'; readonly a: CsrMatrix; readonly x: DenseMatrix; readonly range: RowRange }
  | {
      readonly kind: 'bfs';
      readonly graph: CsrMatrix;
      readonly inEdges: CsrMatrix;
      readonly source: number;
      /** The search's starting level: -1 for a fresh search from `source`, else the resumed frontier's depth. */
      readonly startLevel: number;
      /** A fresh depth array, holding the resumed depths when resuming (the kernel writes it). */
      readonly depth: Int32Array;
      /** Levels to run at most; 0 for no limit. */
      readonly maxLevels: number;
    }
  | {
      readonly kind: 'msbfs';
      readonly graph: CsrMatrix;
      readonly inEdges: CsrMatrix;
      readonly sources: Int32Array;
      readonly range: RowRange;
    };

/** The checked request of each operator family, as a backend's execution receives it. */
export type CheckedSpmm = Extract<CheckedRun, { readonly kind: 'spmm' | 'spmv' }>;
export type CheckedBfs = Extract<CheckedRun, { readonly kind: 'bfs' }>;
export type CheckedMsbfs = Extract<CheckedRun, { readonly kind: 'msbfs' }>;

/**
 * Validate a `Device.run` call against the device's capabilities.
 * @throws {InvalidArgumentError} on malformed operators, inputs, ranges or options.
 * @throws {UnsupportedError} when the device lacks the operator or precision.
 */
export function checkRun(
  device: Device,
  op: Operator,
  inputs: MatrixInputs | GraphInputs,
  range: RowRange | undefined,
  options: RunOptions | undefined,
): CheckedRun {
  const fn = `${device.name}.run`;
  const opts = checkOptions(fn, options, ['signal', 'keepOutputs']);
  checkSignal(fn, 'signal', opts.signal);
  const keep = opts.keepOutputs as { defer?: unknown; kept?: unknown } | undefined;
  if (keep !== undefined && (keep === null || typeof keep !== 'object' || typeof keep.defer !== 'boolean' || !Array.isArray(keep.kept))) {
    throw new InvalidArgumentError(`${fn}: keepOutputs must be { defer: boolean, kept: [] }, got ${describe(keep)}`);
  }
  opts.signal?.throwIfAborted();
  if (op === null || typeof op !== 'object') throw new InvalidArgumentError(`${fn}: op must be an operator object, got ${describe(op)}`);
  const kind = checkEnum(fn, 'op.kind', (op as { kind?: unknown }).kind, OPERATOR_KINDS);
  if (!device.capabilities.operators.includes(kind)) {
    throw new UnsupportedError(`${fn}: device ${device.name} (${device.backend}) cannot run ${kind}`);
  }
  if (inputs === null || typeof inputs !== 'object') {
    throw new InvalidArgumentError(`${fn}: inputs must be an object, got ${describe(inputs)}`);
  }
  if (kind === 'spmm' || kind === 'spmv') {
    const { a, x } = checkOptions(`${fn}: inputs`, inputs as MatrixInputs, ['a', 'x']);
    if (!(a instanceof CsrMatrix)) throw new InvalidArgumentError(`${fn}: inputs.a must be a CsrMatrix, got ${describe(a)}`);
    if (!(x instanceof DenseMatrix)) throw new InvalidArgumentError(`${fn}: inputs.x must be a DenseMatrix, got ${describe(x)}`);
    if (x.rows !== a.cols) {
      throw new InvalidArgumentError(`${fn}: inputs.x has ${x.rows} rows but a has ${a.cols} columns`);
    }
    if (kind === 'spmv' && x.cols !== 1) throw new InvalidArgumentError(`${fn}: spmv needs x with one column, got ${x.cols}`);
    if (!device.capabilities.precisions.includes(x.precision)) {
      throw new UnsupportedError(`${fn}: device ${device.name} does not support ${x.precision}`);
    }
    return { kind, a, x, range: checkRowRange(fn, range, a.rows) };
  }
  const { graph, inEdges } = checkOptions(`${fn}: inputs`, inputs as GraphInputs, ['graph', 'inEdges']);
  const g = checkGraph(fn, graph);
  if (g.rows === 0) throw new InvalidArgumentError(`${fn}: the graph has no vertices`);
  const ie = inEdgesOf(fn, g, inEdges);
  if (kind === 'bfs') {
    if (range !== undefined) throw new InvalidArgumentError(`${fn}: bfs cannot be split by range (got ${describe(range)})`);
    const source = checkInt(fn, 'op.source', (op as { source?: unknown }).source, 0, Math.min(g.rows - 1, MAX_INDEX));
    const { resume, maxLevels } = op as { resume?: unknown; maxLevels?: unknown };
    if ((resume !== undefined || maxLevels !== undefined) && !device.capabilities.bfsResume) {
      throw new UnsupportedError(`${fn}: device ${device.name} (${device.backend}) cannot resume or stop a BFS part way (op.resume, op.maxLevels)`);
    }
    const limit = maxLevels === undefined ? 0 : checkInt(fn, 'op.maxLevels', maxLevels, 1, MAX_INDEX);
    if (resume === undefined) return { kind, graph: g, inEdges: ie, source, startLevel: -1, depth: new Int32Array(g.rows), maxLevels: limit };
    if (resume === null || typeof resume !== 'object') throw new InvalidArgumentError(`${fn}: op.resume must be { depth, level }, got ${describe(resume)}`);
    const { depth: from, level: rawLevel } = checkOptions(`${fn}: op.resume`, resume as { depth?: unknown; level?: unknown }, ['depth', 'level']);
    const level = checkInt(fn, 'op.resume.level', rawLevel, 0, Math.min(g.rows - 1, MAX_INDEX));
    if (!(from instanceof Int32Array) || from.length !== g.rows) {
      throw new InvalidArgumentError(`${fn}: op.resume.depth must be an Int32Array of length ${g.rows}, got ${describe(from)}`);
    }
    // A copy, checked after copying: the kernel works on this one, whatever happens to the caller's.
    const depth = from.slice();
    for (let v = 0; v < depth.length; v++) {
      const d = depth[v]!;
      if (d < -1 || d > level) throw new InvalidArgumentError(`${fn}: op.resume.depth[${v}] = ${d} is outside [-1, ${level}] (level ${level})`);
    }
    return { kind, graph: g, inEdges: ie, source, startLevel: level, depth, maxLevels: limit };
  }
  const sources = (op as { sources?: unknown }).sources;
  if (!(sources instanceof Int32Array)) throw new InvalidArgumentError(`${fn}: op.sources must be an Int32Array, got ${describe(sources)}`);
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    if (s < 0 || s >= g.rows) throw new InvalidArgumentError(`${fn}: op.sources[${i}] = ${s} is not a vertex of a graph with ${g.rows} vertices`);
  }
  return { kind, graph: g, inEdges: ie, sources, range: checkRowRange(fn, range, sources.length) };
}
