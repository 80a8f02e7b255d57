// A handle: the future result of one call in an imperative session. It carries its shape at once
// (so later calls are checked when they are made) and settles when the batch it ran in finishes.

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix, Precision } from '../data/dense.js';
import type { OperatorName } from '../workloads/definition.js';

/** What a handle's value is: a dense matrix, a sparse one (SDDMM), or BFS depths. */
export type HandleKind = 'dense' | 'sparse' | 'depths';

/** The value a handle resolves to. */
export type SessionValue = DenseMatrix | CsrMatrix | Int32Array;

/**
 * `pending`: recorded, not yet planned; `running`: in a batch being planned or run; `done`:
 * its value is ready; `failed`: it (or something it depends on) failed or was cancelled.
 */
export type HandleState = 'pending' | 'running' | 'done' | 'failed';

/** The session side of a handle: what `value()` asks of it. */
export interface HandleOwner {
  /** Launch the pending work that `handle` belongs to (a sync point). */
  demand(handle: { readonly state: HandleState }): void;
}

/** The shape of a value, known when the call is made. */
export interface HandleShape {
  readonly kind: HandleKind;
  readonly rows: number;
  readonly cols: number;
  readonly precision: Precision;
}

/** The session's access to a handle's private state (not part of the public API). */
interface HandleInternals {
  owner(h: Handle): HandleOwner;
  start(h: Handle): void;
  settle(h: Handle, value: SessionValue): void;
  fail(h: Handle, error: unknown): void;
  valueOf(h: Handle): SessionValue | undefined;
  errorOf(h: Handle): unknown;
  settled(h: Handle): Promise<void>;
}

// Assigned by the class's static block, which alone can read the private fields.
export let handleInternals: HandleInternals;

/**
 * The result of a session call, available later: `await h.value()`.
 * @example
 * const h = s.spmm(a, x);       // returns at once
 * h.rows; h.cols;               // the shape is known already
 * const y = await h.value();    // plans and runs the pending calls, then resolves
 */
export class Handle<T extends SessionValue = SessionValue> implements HandleShape {
  /** Unique in its session (`v1`, `v2`, ...); the operator id in the batch's plan. */
  readonly id: string;
  /** The operator kind of the call that made it. */
  readonly op: OperatorName;
  readonly kind: HandleKind;
  readonly rows: number;
  readonly cols: number;
  readonly precision: Precision;
  readonly #owner: HandleOwner;
  readonly #promise: Promise<T>;
  #resolve!: (value: SessionValue) => void;
  #reject!: (error: unknown) => void;
  #state: HandleState = 'pending';
  #value: SessionValue | undefined;
  #error: unknown;

  /** @internal made by a session's calls only */
  constructor(owner: HandleOwner, id: string, op: OperatorName, shape: HandleShape) {
    this.#owner = owner;
    this.id = id;
    this.op = op;
    this.kind = shape.kind;
    this.rows = shape.rows;
    this.cols = shape.cols;
    this.precision = shape.precision;
    this.#promise = new Promise<T>((resolve, reject) => {
      this.#resolve = resolve as (value: SessionValue) => void;
      this.#reject = reject;
    });
    // A failure nobody awaits is not an unhandled rejection: it is reported at this handle.
    this.#promise.catch(() => undefined);
  }

  get state(): HandleState {
    return this.#state;
  }

  /**
   * The computed value. A sync point: the session plans and launches its pending calls.
   * @throws (rejects) the error of the operator that failed: this one's, or that of a call it
   *   depends on ({@link ExecutionError}), {@link AbortedError} when cancelled.
   */
  value(): Promise<T> {
    if (this.#state === 'pending') this.#owner.demand(this);
    return this.#promise;
  }

  toString(): string {
    return `${this.id} (${this.op}, ${this.rows} x ${this.cols} ${this.kind})`;
  }

  static {
    handleInternals = {
      owner: (h) => h.#owner,
      start: (h) => {
        if (h.#state === 'pending') h.#state = 'running';
      },
      settle: (h, value) => {
        if (h.#state === 'done' || h.#state === 'failed') return;
        h.#state = 'done';
        h.#value = value;
        h.#resolve(value);
      },
      fail: (h, error) => {
        if (h.#state === 'done' || h.#state === 'failed') return;
        h.#state = 'failed';
        h.#error = error;
        h.#reject(error);
      },
      valueOf: (h) => h.#value,
      errorOf: (h) => h.#error,
      settled: (h) =>
        h.#promise.then(
          () => undefined,
          () => undefined,
        ),
    };
  }
}
