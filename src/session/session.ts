// The imperative API: `session()` records calls such as `s.spmm(a, x)` and returns handles at
// once; the DAG grows from the handles each call reads. At a sync point (`await h.value()`,
// `await s.flush()`) or when the window of pending calls fills, the pending calls become one
// declared workload, planned by `schedule` and run by `runPlan` exactly as a workload written
// by hand, so plans are the declared path's and independent branches run concurrently.

import { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix, Precision } from '../data/dense.js';
import type { CostModel } from '../cost/model.js';
import { loadCostModel } from '../cost/store.js';
import { detectSystem, type System } from '../devices/system.js';
import { AbortedError, describe, InvalidArgumentError, SessionClosedError } from '../errors.js';
import type { RunPlanOptions } from '../executor/options.js';
import { scalarObjective } from '../scheduler/pick.js';
import { checkPolicy, type Policy } from '../scheduler/policy.js';
import { PREPARE_KEYS } from '../scheduler/problem.js';
import type { ScheduleOptions } from '../scheduler/schedule.js';
import { checkEnum, checkInt, checkOptions, checkSignal } from '../validate.js';
import { operatorKind } from '../operators/registry.js';
import type { OperatorName } from '../workloads/definition.js';
import { type BatchRecord, runBatch, type BatchContext } from './run-batch.js';
import { type Call, checkPrecision, type Operand, operandKind, outputShape, shapeOf } from './calls.js';
import { Handle, type HandleOwner, handleInternals, type SessionValue } from './handle.js';

export type { BatchRecord } from './run-batch.js';

/** A sparse operand: a matrix, or the handle of an SDDMM. */
export type SparseOperand = CsrMatrix | Handle<CsrMatrix>;
/** A dense operand: a matrix, or the handle of a dense result. */
export type DenseOperand = DenseMatrix | Handle<DenseMatrix>;

/** Options of `runPlan` a session passes to every batch's run. */
export type SessionRunOptions = Omit<RunPlanOptions, 'signal' | 'keepValues'>;

/**
 * A session's options: `schedule`'s (each batch is planned with them), and its own. Three
 * defaults differ from `schedule`'s, all for what a session does not show. `maxPoints` (dominated
 * mappings kept for plots) is 0: keeping them was most of the planning time of small batches.
 * `budget` (the sampled front search's evaluations) and `exhaustiveLimit` (the largest space
 * searched whole) are {@link SESSION_SEARCH_BUDGET} where the policy's pick is the exact optimum
 * of its objective (branch and bound; every policy but those that pick from the front itself):
 * the front's search was 60-80% of planning a batch of 6-11 operators (2000 sampled evaluations,
 * or all 19,683 mappings of 9 operators on 3 devices). The pick does not depend on them.
 */
export interface SessionOptions extends Omit<ScheduleOptions, 'params' | 'staticMapping' | 'fixedMapping' | 'signal' | 'policy'> {
  /** How each batch's mapping is picked from its front (as `schedule`'s). @default 'min-time' */
  readonly policy?: Policy;
  /** Another name for `policy`. */
  readonly objective?: Policy;
  /** Pending calls that launch a batch without a sync point. @default 64 */
  readonly window?: number;
  /** Cancels the session: pending and running calls reject with an {@link AbortedError}, later calls throw it. */
  readonly signal?: AbortSignal;
  /** Passed to each batch's `runPlan` (`replan`, `learn`, `observers`, ...). */
  readonly run?: SessionRunOptions;
  /** Called after each batch with its plan and result, or its error. Must not throw. */
  readonly onBatch?: (batch: BatchRecord) => void;
}

/** Evaluations a session's batch front gets unless `budget` / `exhaustiveLimit` are given (schedule's defaults: 2000 and 100,000). */
export const SESSION_SEARCH_BUDGET = 256;

// schedule's planning options (less the workload's params: each call has its own), and the session's.
const SESSION_KEYS = [...PREPARE_KEYS.filter((k) => k !== 'params'), 'policy', 'objective', 'maxPoints', 'window', 'run', 'onBatch'] as const;
const RUN_KEYS = ['observers', 'replan', 'learn', 'deviceLoss', 'recoverDeviceFailures', 'bfsLevels'] as const;

// Operand names and kinds of each call, made once (the call path allocates as little as it can).
const AX = ['a', 'x'] as const;
const SD = ['sparse', 'dense'] as const;
const XW = ['x', 'w'] as const;
const XY = ['x', 'y'] as const;
const DD = ['dense', 'dense'] as const;
const X = ['x'] as const;
const D = ['dense'] as const;
const G = ['g'] as const;
const S = ['sparse'] as const;

/**
 * Start an imperative session.
 * @throws {InvalidArgumentError} for unknown options (with the closest name) or bad values;
 *   {AbortedError} when `signal` is already aborted.
 * @example
 * const s = session({ system, model, policy: 'min-time' });
 * const h = s.relu(s.spmm(a, s.gemm(x, w1)));
 * const y = await s.spmm(a, s.gemm(h, w2)).value();   // plans and runs the five calls as one DAG
 * await s.close();
 */
export function session(options: SessionOptions = {}): Session {
  return new Session(options);
}

/** An imperative session: see {@link session}. Calls return handles at once and never block. */
export class Session implements HandleOwner {
  #pending: Call[] = [];
  readonly #inflight = new Set<Promise<unknown>>();
  #nextId = 1;
  #batches = 0;
  #closed = false;
  #closing: Promise<void> | undefined;
  #precision: Precision | undefined;
  readonly #window: number;
  readonly #signal: AbortSignal | undefined;
  readonly #context: BatchContext;
  readonly #onAbort = (): void => this.#abortPending();
  #resources: Promise<{ system: System; model: CostModel }> | undefined;
  #ownedSystem: System | undefined;

  /** @internal use {@link session} */
  constructor(options: SessionOptions = {}) {
    const fn = 'session';
    checkOptions(fn, options, SESSION_KEYS as unknown as (keyof SessionOptions & string)[]);
    const { window, signal, run, onBatch, objective, policy: policyOption, precision, ...planning } = options;
    if (objective !== undefined && policyOption !== undefined) throw new InvalidArgumentError(`${fn}: give policy or objective, not both`);
    const policy = checkPolicy(fn, policyOption ?? objective ?? 'min-time', {
      deadline: options.deadline !== undefined,
      energyBudget: options.energyBudget !== undefined,
    });
    this.#window = window === undefined ? 64 : checkInt(fn, 'window', window, 1);
    checkSignal(fn, 'signal', signal);
    if (signal?.aborted) throw new AbortedError(`${fn}: the signal is already aborted`, { cause: signal.reason });
    checkOptions(`${fn}: run`, run, RUN_KEYS as unknown as (keyof SessionRunOptions & string)[]);
    if (onBatch !== undefined && typeof onBatch !== 'function') throw new InvalidArgumentError(`${fn}: onBatch must be a function, got ${describe(onBatch)}`);
    if (precision !== undefined) this.#precision = checkEnum(fn, 'precision', precision, ['f32', 'f64'] as const);
    this.#signal = signal;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#context = {
      schedule: {
        maxPoints: 0,
        ...(scalarObjective(policy) ? { budget: SESSION_SEARCH_BUDGET, exhaustiveLimit: SESSION_SEARCH_BUDGET } : {}),
        ...planning,
        policy,
        ...(signal ? { signal } : {}),
      },
      run: { ...run, ...(signal ? { signal } : {}) },
      signal,
      onBatch,
      resources: () => this.#systemAndModel(),
      precision: () => this.#precision,
    };
  }

  /** Calls recorded and not yet launched. */
  get pending(): number {
    return this.#pending.length;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sparse x dense product `a x`: `a.rows x x.cols`. @throws {InvalidArgumentError} on shapes that do not fit (at the call). */
  spmm(a: SparseOperand, x: DenseOperand): Handle<DenseMatrix> {
    return this.#call('spmm', AX, [a, x], SD, undefined) as Handle<DenseMatrix>;
  }

  /** Sparse matrix x vector (`x` has one column). */
  spmv(a: SparseOperand, x: DenseOperand): Handle<DenseMatrix> {
    return this.#call('spmv', AX, [a, x], SD, undefined) as Handle<DenseMatrix>;
  }

  /** Sampled dense-dense product on `a`'s pattern: `(u vᵀ) ∘ a`, a sparse matrix. */
  sddmm(a: SparseOperand, u: DenseOperand, v: DenseOperand): Handle<CsrMatrix> {
    return this.#call('sddmm', ['a', 'u', 'v'], [a, u, v], ['sparse', 'dense', 'dense'], undefined) as Handle<CsrMatrix>;
  }

  /** Dense product `x w`. */
  gemm(x: DenseOperand, w: DenseOperand): Handle<DenseMatrix> {
    return this.#call('gemm', XW, [x, w], DD, undefined) as Handle<DenseMatrix>;
  }

  /** `max(x, 0)`, element-wise. */
  relu(x: DenseOperand): Handle<DenseMatrix> {
    return this.#call('relu', X, [x], D, undefined) as Handle<DenseMatrix>;
  }

  /** `scale * x + shift`, element-wise. @default scale 1, shift 0 */
  affine(x: DenseOperand, options: { readonly scale?: number; readonly shift?: number } = {}): Handle<DenseMatrix> {
    const fn = 'session.affine';
    checkOptions(fn, options, ['scale', 'shift']);
    const params: Record<string, number> = {};
    for (const key of ['scale', 'shift'] as const) {
      const v = options[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidArgumentError(`${fn}: ${key} must be a finite number, got ${describe(v)}`);
      params[key] = v;
    }
    return this.#call('affine', X, [x], D, params) as Handle<DenseMatrix>;
  }

  /** `x + y`, element-wise. */
  add(x: DenseOperand, y: DenseOperand): Handle<DenseMatrix> {
    return this.#call('add', XY, [x, y], DD, undefined) as Handle<DenseMatrix>;
  }

  /** Column-wise `sum`, `max` or `norm2`: a `1 x cols` matrix. @default op 'sum' */
  reduce(x: DenseOperand, options: { readonly op?: 'sum' | 'max' | 'norm2' } = {}): Handle<DenseMatrix> {
    const fn = 'session.reduce';
    checkOptions(fn, options, ['op']);
    const op = checkEnum(fn, 'op', options.op ?? 'sum', ['sum', 'max', 'norm2'] as const);
    return this.#call('reduce', X, [x], D, { op }) as Handle<DenseMatrix>;
  }

  /** Breadth-first search depths from `source` (a vertex, or the vertex of largest degree). @default source 'max-degree' */
  bfs(g: CsrMatrix, options: { readonly source?: number | 'max-degree' } = {}): Handle<Int32Array> {
    const fn = 'session.bfs';
    checkOptions(fn, options, ['source']);
    const source = options.source ?? 'max-degree';
    if (source !== 'max-degree' && g instanceof CsrMatrix) checkInt(fn, 'source', source, 0, g.rows - 1);
    return this.#call('bfs', G, [g], S, { source }) as Handle<Int32Array>;
  }

  /** Breadth-first searches from `sources` seeded vertices at once: `sources x n` depths. @default sources 32 */
  msbfs(g: CsrMatrix, options: { readonly sources?: number } = {}): Handle<Int32Array> {
    const fn = 'session.msbfs';
    checkOptions(fn, options, ['sources']);
    const sources = options.sources ?? 32;
    if (g instanceof CsrMatrix) checkInt(fn, 'sources', sources, 1, g.rows);
    return this.#call('msbfs', G, [g], S, { sources }) as Handle<Int32Array>;
  }

  /**
   * A call of an operator kind by name: a user-defined one (defineOperator) or a built-in, with
   * its operands in order and its numeric params. `T` is its value's type (a user kind's is dense).
   * @throws {InvalidArgumentError} for an unknown kind, operands of the wrong number or kind, a
   *   param the kind does not take, or shapes its rule refuses.
   * @example
   * const y = s.call('scale-rows', [x], { factor: 2 });
   */
  call<T extends SessionValue = DenseMatrix>(
    kind: string,
    operands: readonly (SparseOperand | DenseOperand)[],
    params: Readonly<Record<string, number>> = {},
  ): Handle<T> {
    const fn = 'session.call';
    const k = operatorKind(kind, fn);
    if (!Array.isArray(operands) || operands.length !== k.operands.length) {
      throw new InvalidArgumentError(`${fn}: ${kind} takes ${k.operands.length} operand(s) (${k.operands.join(', ')}), got ${describe(operands)}`);
    }
    checkOptions(fn, params, k.params);
    for (const [key, v] of Object.entries(params)) {
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new InvalidArgumentError(`${fn}: ${kind}: param ${key} must be a finite number, got ${describe(v)}`);
    }
    const names = operands.map((_, i) => `operands[${i}]`);
    return this.#call(kind, names, operands, k.operands, Object.keys(params).length ? { ...params } : undefined) as Handle<T>;
  }

  /**
   * Plan and launch the pending calls, and wait for every launched call to settle.
   * @throws (rejects) the first error of the calls it waited for (each is also at its handle).
   */
  async flush(): Promise<void> {
    this.#launch('flush');
    const errors = await Promise.all([...this.#inflight]);
    const first = errors.find((e) => e !== undefined);
    if (first !== undefined) throw first;
  }

  /**
   * Refuse new calls, run the pending ones, wait for everything launched, and release the
   * system the session detected itself. Never rejects: errors stay at their handles.
   */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= (async () => {
      this.#launch('close');
      await Promise.all([...this.#inflight]);
      this.#signal?.removeEventListener('abort', this.#onAbort);
      if (this.#ownedSystem) await this.#ownedSystem.dispose();
    })();
    return this.#closing;
  }

  /** @internal a handle's value was awaited: launch what is pending. */
  demand(handle: Handle): void {
    if (handle.state === 'pending') this.#launch('value');
  }

  #call(
    kind: OperatorName,
    names: readonly string[],
    operands: readonly unknown[],
    wants: readonly ('sparse' | 'dense')[],
    params: Record<string, number | string> | undefined,
  ): Handle {
    const fn = `session.${kind}`;
    if (this.#closed) throw new SessionClosedError(`${fn}: the session is closed`);
    if (this.#signal?.aborted) throw new AbortedError(`${fn}: the session was aborted`, { cause: this.#signal.reason });
    let precision = this.#precision;
    for (let i = 0; i < operands.length; i++) {
      const x = operands[i];
      operandKind(fn, names[i]!, x, wants[i]!);
      if (x instanceof Handle && handleInternals.owner(x) !== this) throw new InvalidArgumentError(`${fn}: ${names[i]!} is handle ${x.id} of another session`);
      precision = checkPrecision(fn, names[i]!, precision, x as Operand);
    }
    const shape = outputShape(fn, kind, names, (operands as Operand[]).map(shapeOf), params);
    this.#precision = precision;
    const handle = new Handle(this, `v${this.#nextId++}`, kind, shape);
    this.#pending.push({ handle, kind, operands: operands as Operand[], params });
    if (this.#pending.length >= this.#window) this.#launch('window');
    return handle;
  }

  /** Launch the pending calls as one batch. */
  #launch(reason: BatchRecord['reason']): void {
    if (this.#pending.length === 0) return;
    const calls = this.#pending;
    this.#pending = [];
    for (const c of calls) handleInternals.start(c.handle);
    const done = runBatch(this.#context, calls, reason, this.#batches++);
    this.#inflight.add(done);
    void done.then(() => this.#inflight.delete(done));
  }

  #abortPending(): void {
    const calls = this.#pending;
    this.#pending = [];
    for (const c of calls) {
      handleInternals.fail(c.handle, new AbortedError(`session: ${c.handle.id} (${c.kind}) was cancelled before it ran`, { cause: this.#signal?.reason }));
    }
  }

  /** The system and model, detected and loaded once when the options give none. */
  #systemAndModel(): Promise<{ system: System; model: CostModel }> {
    this.#resources ??= (async () => {
      const given = this.#context.schedule;
      let system = given.system;
      if (!system) system = this.#ownedSystem = await detectSystem();
      const model = given.model ?? (await loadCostModel(system));
      return { system, model };
    })();
    return this.#resources;
  }
}

// `await using s = session(...)` closes it at the end of the scope. Set on the prototype, not
// declared in the class: a `[Symbol.asyncDispose]` member in the shipped declarations fails to
// type-check in a consumer compiling for ES2022 without the esnext.disposable library.
const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
if (asyncDispose) {
  Object.defineProperty(Session.prototype, asyncDispose, {
    configurable: true,
    writable: true,
    value(this: Session): Promise<void> {
      return this.close();
    },
  });
}
