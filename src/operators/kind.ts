// What dype knows about one operator kind, in one record: its operands and parameters, its shape
// rule (for the binder and for session calls), its reference, how it runs on a device, how it is
// priced and how its split pieces join. The binder, the reference evaluator, the piece runner,
// the planner's costs and the session read these records instead of switching on the kind.

import type { KeepOutputs } from '../devices/kept-outputs.js';
import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix, Precision } from '../data/dense.js';
import type { Device, DeviceResult, RowRange, RunOptions } from '../devices/device.js';
import type { OperatorShape } from '../cost/model.js';
import type { NativeDenseResult } from '../kernels/dense.js';
import type { BoundOp, BoundValue, SplitAxis } from '../workloads/bind.js';

/** A computed value: a matrix, or BFS depths (`sources x n` row-major for multi-source). */
export type Value = CsrMatrix | DenseMatrix | Int32Array;

/** What an operand or output is. */
export type ValueKind = 'sparse' | 'dense' | 'depths';

/** A value's shape, as a session call knows it before anything runs. */
export interface ValueShape {
  readonly kind: ValueKind;
  readonly rows: number;
  readonly cols: number;
  readonly precision: Precision;
}

/** Per-operator parameters the binder resolves (expressions evaluated, sources picked). */
export interface OpParams {
  readonly scale?: number;
  readonly shift?: number;
  readonly reduceOp?: 'sum' | 'max' | 'norm2';
  readonly source?: number;
  readonly sources?: Int32Array;
  /** A user-defined operator's numeric params, evaluated. */
  readonly userParams?: Readonly<Record<string, number>>;
}

/** What the binder gives a kind's shape rule. */
export interface BindContext {
  /** The operands, bound, in operand order. */
  readonly operands: readonly BoundValue[];
  /** The operator's params as written (expressions unevaluated). */
  readonly params: Readonly<Record<string, number | string>>;
  /** A numeric param's value (its expression evaluated), or undefined when absent. */
  num(name: string): number | undefined;
  /** The binding's seed (source choices). */
  readonly seed: number;
  /** Refuse the operator's operands: an InvalidArgumentError naming the workload and operator. */
  fail(detail: string): never;
}

/** What binding an operator yields: its output's shape and size, its units, and its work. */
export interface BoundShape {
  readonly output: Omit<BoundValue, 'name' | 'producer'>;
  /** Rows (or sources) a split divides. */
  readonly units: number;
  readonly split: SplitAxis;
  /** Operand positions read whole by every part of a split. */
  readonly whole: readonly boolean[];
  /** Floating-point operations and bytes moved, for operators priced by a roofline. */
  readonly flops: number;
  readonly bytes: number;
  readonly params?: OpParams;
}

/**
 * A kind run by the devices' own kernels (`Device.run`): native on the CPU, simulated on the
 * simulators, CUDA on a GPU; priced by the AssemblyScript cost model.
 */
export interface DeviceExecution {
  readonly on: 'device';
  /** Run units `range` (undefined: all) of `op` on `device`; the output as the executor keeps it. */
  run(device: Device, op: BoundOp, x: readonly Value[], range: RowRange | undefined, options: RunOptions): Promise<{ output: Value; result: DeviceResult }>;
  /** The cost model's shape of units `[begin, end)` of `op` (`full` when they are all of them). */
  costShape(op: BoundOp, values: readonly BoundValue[], begin: number, end: number, full: boolean): OperatorShape;
}

/**
 * A host-computed kind's kernel on a device with memory of its own (a CUDA GPU): the output, and
 * the device's own costs (`run`: the kernels' time from CUDA events, the copies beside it).
 */
export interface OwnKernel {
  /** A library the device must have found at run time (cuBLAS for GEMM on a CUDA GPU). */
  readonly needs?: 'blas';
  /** `keep`: leave the output on the device (kept-outputs.ts), as the executor asks for intermediates. */
  run(op: BoundOp, x: readonly Value[], range: RowRange, keep?: KeepOutputs): Promise<NativeDenseResult<Value>>;
}

/**
 * A kind computed on the host: timed on the host CPU (its native kernel where it has one, else
 * its TypeScript code), priced by a simulator's roofline (or the kind's own cost) elsewhere.
 */
export interface HostExecution {
  readonly on: 'host';
  /** Native kernel over output rows `range`, with its own measured seconds. */
  native?(op: BoundOp, x: readonly Value[], range: RowRange): Promise<{ output: Value; seconds: number }>;
  /** Plain code over output rows `range` (on `device` where the kind has code per device): a simulator's true result, and the CPU's without `native`. */
  compute(op: BoundOp, x: readonly Value[], range: RowRange, device?: Device): Value | Promise<Value>;
  /**
   * Kernels of its own on devices with memory of their own, by backend name (`gpu`: CUDA). Such a
   * device is offered the kind only where it has one (DeviceCapabilities.denseKernels).
   */
  readonly onDevice?: Readonly<Record<string, OwnKernel>>;
}

/** One operator kind. */
export interface OperatorKind {
  readonly name: string;
  readonly description: string;
  /** Operands, in order: `sparse` a sparse matrix, `dense` a dense matrix. */
  readonly operands: readonly ('sparse' | 'dense')[];
  /** Parameters the operator accepts. */
  readonly params: readonly string[];
  /** What its output is (checked against the next operator's operands). */
  readonly output: ValueKind;
  /** Shipped with dype (false for defineOperator's). */
  readonly builtin: boolean;
  /** Whether a split across devices can pay for itself (element-wise steps stay whole). */
  readonly splittable: boolean;
  /**
   * A parameter whose value is a literal word, not an expression: an error detail when `value`
   * is not one of its words, `null` when it is, undefined when `name` takes an expression.
   */
  literalParam?(name: string, value: unknown): string | null | undefined;
  /** Shape rule on bound values: checks the operands, sizes the output and the work. */
  bind(ctx: BindContext): BoundShape;
  /** Shape rule on shapes alone (session calls), operands named `names` in messages. */
  shape(names: readonly string[], s: readonly ValueShape[], params: Readonly<Record<string, number | string>>, fail: (detail: string) => never): ValueShape;
  /** The whole output from the operands, by plain code: the yardstick. */
  reference(op: BoundOp, x: readonly Value[]): Value;
  readonly execution: DeviceExecution | HostExecution;
  /** Join pieces' outputs over `ranges` (in unit order); row concatenation when absent. */
  join?(op: BoundOp, outputs: readonly Value[], precision: Precision): Value;
  /** Whether `device` can run it at all, beyond precision (user kinds run only where they have code). @default every host or simulated device */
  runsOn?(device: Device): boolean;
  /** Operand lists `dype calibrate --op` times it on (fewer and smaller when `quick`); generated from its operand kinds when absent. */
  calibration?(quick: boolean): readonly (readonly (CsrMatrix | DenseMatrix)[])[];
}
