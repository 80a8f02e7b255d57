// The reference result of a bound workload: every value computed by plain TypeScript kernels, on
// the host, in topological order. The yardstick for the executor and the oracle's source of real
// intermediate data. Each operator's reference is its kind's (src/operators/).

import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import type { Value } from '../operators/kind.js';
import { operatorKind } from '../operators/registry.js';
import type { BoundWorkload } from './bind.js';

export type { Value } from '../operators/kind.js';

/**
 * Every value of `bound` (inputs as given, outputs computed), indexed like `bound.values`.
 * @example
 * const values = referenceValues(bindWorkload(workload('gcn'), graph));
 */
export function referenceValues(bound: BoundWorkload): Value[] {
  const raw = bound as unknown as { values?: unknown; ops?: unknown } | null;
  if (raw === null || typeof raw !== 'object' || !Array.isArray(raw.values) || !Array.isArray(raw.ops)) {
    throw new InvalidArgumentError(`referenceValues: bound must come from bindWorkload, got ${describe(bound)}`);
  }
  const out: Value[] = bound.values.map((v) => v.data as Value);
  for (const op of bound.ops) {
    const x = op.operands.map((i) => out[i]!);
    const o = bound.values[op.output]!;
    const r = operatorKind(op.kind, 'referenceValues').reference(op, x);
    if (o.kind === 'dense' && !(r instanceof DenseMatrix)) throw new Error(`referenceValues: ${op.id} produced the wrong kind`);
    out[op.output] = r;
  }
  return out;
}
