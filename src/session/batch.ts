// One batch of a session: the pending calls turned into a workload definition (through the same
// WorkloadBuilder and defineWorkload a user's declared workload goes through), its data, and the
// bookkeeping that maps a run's values and errors back to the calls' handles.

import { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix, Precision } from '../data/dense.js';
import type { WorkloadData } from '../workloads/bind.js';
import { WorkloadBuilder } from '../workloads/builder.js';
import type { Workload } from '../workloads/definition.js';
import type { Call, Operand } from './calls.js';
import { Handle, handleInternals } from './handle.js';

/** A batch's calls as a declared workload with its data. */
export interface BatchWorkload {
  readonly workload: Workload;
  readonly data: WorkloadData;
  /** Operator ids (handle ids) of the batch's sinks: its workload's outputs. */
  readonly outputs: readonly string[];
}

/**
 * The workload of `calls` (in call order, which is a topological order). User data and values of
 * earlier batches become inputs (`in0`, `in1`, ...; one per distinct object); handles made in
 * this batch are operators. The outputs are the calls no other call of the batch reads, as a
 * declared workload names its results: making every value an output would price copying it
 * home, and the plan would differ from the declared one. (The run keeps every value anyway.)
 */
export function batchWorkload(calls: readonly Call[], precision: Precision | undefined, index: number): BatchWorkload {
  const builder = new WorkloadBuilder(`session-batch-${index}`);
  if (precision) builder.withPrecision(precision);
  const inBatch = new Set<Handle>(calls.map((c) => c.handle));
  const read = new Set<Handle>();
  const inputNames = new Map<object, string>();
  const data: Record<string, CsrMatrix | DenseMatrix> = {};
  const nameOf = (x: Operand): string => {
    if (x instanceof Handle && inBatch.has(x)) {
      read.add(x);
      return x.id;
    }
    // Data, or a value an earlier batch computed (awaited before this batch was built).
    const value = x instanceof Handle ? handleInternals.valueOf(x) : x;
    if (value === undefined || value instanceof Int32Array) throw new Error(`session: internal: operand ${String(x)} has no matrix value`);
    let name = inputNames.get(value);
    if (name === undefined) {
      name = `in${inputNames.size}`;
      inputNames.set(value, name);
      data[name] = value;
      if (value instanceof CsrMatrix) builder.sparse(name);
      else builder.dense(name, { rows: value.rows, cols: value.cols });
    }
    return name;
  };
  for (const call of calls) builder.op(call.handle.id, call.kind, call.operands.map(nameOf), call.params);
  const outputs = calls.filter((c) => !read.has(c.handle)).map((c) => c.handle.id);
  builder.output(...outputs);
  return { workload: builder.build(), data, outputs };
}

/** The calls of `calls` that read `failed`, directly or through others of `calls` (in call order). */
export function dependentsOf(calls: readonly Call[], failed: ReadonlySet<Handle>): Call[] {
  const lost = new Set(failed);
  const out: Call[] = [];
  for (const call of calls) {
    if (lost.has(call.handle)) continue;
    if (call.operands.some((x) => x instanceof Handle && lost.has(x))) {
      lost.add(call.handle);
      out.push(call);
    }
  }
  return out;
}

/** Handles of earlier batches that `calls` read and that have not settled yet. */
export function unsettledInputs(calls: readonly Call[]): Handle[] {
  const inBatch = new Set<Handle>(calls.map((c) => c.handle));
  const out = new Set<Handle>();
  for (const call of calls) {
    for (const x of call.operands) if (x instanceof Handle && !inBatch.has(x) && x.state !== 'done') out.add(x);
  }
  return [...out];
}
