// When a run's intermediates die: a dense value made by a built-in kernel, read by operators of
// the run and not one of its outputs, is dead once its last reader has finished, and its buffer
// goes back to the kernels' output pool (src/kernels/output-pool.ts) for the next output of its
// size, in this run or the next. Values the caller sees (outputs, inputs, every value under
// `keepValues`), those a user operator made (its code may keep a reference) and those it read (it
// may return one as its result) are never given back.

import { DenseMatrix } from '../data/dense.js';
import { recycleOutput } from '../kernels/output-pool.js';
import { operatorKind } from '../operators/registry.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';

export class Lifetimes {
  /** Per value: readers not finished yet; -1 for a value never given back. */
  private readonly readers: Int32Array;

  constructor(bound: BoundWorkload, keepValues: boolean) {
    this.readers = new Int32Array(bound.values.length).fill(-1);
    if (keepValues) return;
    const outputs = new Set(bound.outputs);
    const builtin = (op: BoundOp): boolean => operatorKind(op.kind, 'runPlan').builtin;
    bound.values.forEach((v, i) => {
      if (v.kind === 'dense' && v.producer >= 0 && !outputs.has(i) && builtin(bound.ops[v.producer]!)) this.readers[i] = 0;
    });
    // A user operator may return its operand, or a view of it, as its own result: what it reads
    // is never given back either.
    for (const op of bound.ops) if (!builtin(op)) for (const v of op.operands) this.readers[v] = -1;
    for (const op of bound.ops) for (const v of new Set(op.operands)) if (this.readers[v]! >= 0) this.readers[v]!++;
  }

  /**
   * Operator `op` has finished: give back the buffers of the operands it was the last reader of,
   * and clear them from `values` (a stray later read fails loudly instead of seeing reused memory).
   * `beforeReuse` sees each such value first.
   */
  finished(op: BoundOp, values: (Value | undefined)[], beforeReuse?: (dead: Value) => void): void {
    for (const v of new Set(op.operands)) {
      if (this.readers[v]! <= 0 || --this.readers[v]! > 0) continue;
      const value = values[v];
      // A device copy of the buffer must go before the buffer is handed out again.
      if (value !== undefined) beforeReuse?.(value);
      if (value instanceof DenseMatrix) recycleOutput(value.data);
      values[v] = undefined;
    }
  }
}

/**
 * Give back the output of a built-in operator's piece that nobody will read (a probe's, an oracle
 * run's, a split piece's once joined): the next output of its size takes it, already mapped, as in
 * a run. A user operator's output is never given back (its code may keep a reference).
 */
export function recycleOperatorOutput(op: BoundOp, output: Value): void {
  if (output instanceof DenseMatrix && operatorKind(op.kind, 'recycleOperatorOutput').builtin) recycleOutput(output.data);
}

/** Give back the pieces' outputs of a split operator once they were joined into `joined`. */
export function recyclePieces(op: BoundOp, outputs: readonly Value[], joined: Value): void {
  for (const o of outputs) if (o !== joined) recycleOperatorOutput(op, o);
}
