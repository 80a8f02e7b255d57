// A small typed builder for workload definitions, for users who write workloads in code rather
// than JSON. It produces the same plain definition a file would hold, validated the same way.

import type { InputDefinition, OperatorDefinition, TransformName, Workload, WorkloadDefinition, OperatorName } from './definition.js';
import { defineWorkload } from './definition.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { checkInt, checkNumber } from '../validate.js';

/**
 * Build a workload definition step by step.
 * @example
 * const w = new WorkloadBuilder('layer')
 *   .param('hidden', 16)
 *   .sparse('graph', { square: true })
 *   .derived('A', 'graph', 'gcn-normalise')
 *   .dense('X', { rows: 'graph.rows', cols: '$hidden' })
 *   .op('y', 'spmm', ['A', 'X'])
 *   .output('y')
 *   .build();
 */
export class WorkloadBuilder {
  private readonly params: Record<string, number> = {};
  private readonly inputs: Record<string, InputDefinition> = {};
  private readonly operators: OperatorDefinition[] = [];
  private readonly outputs: string[] = [];
  private precision: 'f32' | 'f64' | undefined;
  private description: string | undefined;

  constructor(private readonly name: string) {
    if (typeof name !== 'string') throw new InvalidArgumentError(`WorkloadBuilder: name must be a string, got ${describe(name)}`);
  }

  describe(text: string): this {
    this.description = text;
    return this;
  }

  withPrecision(p: 'f32' | 'f64'): this {
    this.precision = p;
    return this;
  }

  param(name: string, value: number): this {
    this.params[name] = value;
    return this;
  }

  sparse(name: string, options: { square?: boolean; description?: string } = {}): this {
    this.inputs[name] = { kind: 'sparse', ...options };
    return this;
  }

  derived(name: string, from: string, transform: TransformName): this {
    this.inputs[name] = { kind: 'sparse', from, transform };
    return this;
  }

  dense(name: string, shape: { rows: number | string; cols: number | string; generate?: 'random' | { fill: number | string }; description?: string }): this {
    this.inputs[name] = { kind: 'dense', generate: 'random', ...shape };
    return this;
  }

  op(id: string, kind: OperatorName, inputs: readonly string[], params?: Record<string, number | string>): this {
    this.operators.push({ id, kind, inputs: [...inputs], ...(params ? { params } : {}) });
    return this;
  }

  output(...ids: string[]): this {
    this.outputs.push(...ids);
    return this;
  }

  /** The plain definition (JSON-compatible), not yet validated. */
  definition(): WorkloadDefinition {
    return {
      name: this.name,
      ...(this.description !== undefined ? { description: this.description } : {}),
      ...(this.precision !== undefined ? { precision: this.precision } : {}),
      ...(Object.keys(this.params).length ? { params: { ...this.params } } : {}),
      inputs: { ...this.inputs },
      operators: [...this.operators],
      outputs: [...this.outputs],
    };
  }

  /**
   * Validate and return the workload.
   * @throws {FormatError} as `defineWorkload` does.
   */
  build(): Workload {
    return defineWorkload(this.definition(), `<builder ${this.name}>`);
  }
}

/**
 * PageRank by power iteration, unrolled: x(t+1) = d P x(t) + (1 - d) / n, each iteration an SpMV
 * and an element-wise affine step. The shipped `pagerank` is this with 4 iterations.
 */
export function pagerankDefinition(iterations = 4, damping = 0.85): WorkloadDefinition {
  checkInt('pagerankDefinition', 'iterations', iterations, 1, 1000);
  checkNumber('pagerankDefinition', 'damping', damping, 0, 1);
  const b = new WorkloadBuilder('pagerank')
    .describe(`PageRank, ${iterations} power iterations: x <- d P x + (1 - d) / n with P the column-stochastic transpose of the graph`)
    .withPrecision('f64')
    .param('damping', damping)
    .sparse('graph', { square: true, description: 'adjacency matrix, out-edges by row' })
    .derived('P', 'graph', 'pagerank-matrix')
    .dense('x0', { rows: 'graph.rows', cols: 1, generate: { fill: '1 / graph.rows' }, description: 'uniform start vector' });
  let x = 'x0';
  for (let t = 1; t <= iterations; t++) {
    b.op(`p${t}`, 'spmv', ['P', x]).op(`x${t}`, 'affine', [`p${t}`], { scale: '$damping', shift: '(1 - $damping) / graph.rows' });
    x = `x${t}`;
  }
  return b.output(x).definition();
}
