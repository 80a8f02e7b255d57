// Output buffers of the native kernels, kept for reuse. A run of a plan makes its intermediates
// (a GCN's feature transforms and aggregations) and drops them when their last reader is done; a
// fresh array for each costs its pages' first touch and, worse, counts as external memory that
// makes V8 collect garbage: a full collection of 5-25 ms landed inside most runs of a GCN forward
// at 2 threads on a 2-vCPU VM (16 MB intermediates), and the run's time spread 1.0-2.3x its
// kernels'. A run gives its dead intermediates back here (`recycleOutput`) and the next kernel
// output of the same length and precision takes one (`takeOutput`), already mapped.
//
// Only arrays this pool allocated are ever taken back, and only kernels that overwrite every
// element of their output take from it, so a caller never sees a stale value.

import { newDenseArray } from '../data/aligned.js';
import { type DenseArray, denseElements, type Precision } from '../data/dense.js';
import { memoryBudget } from '../limits.js';

/** Share of the memory budget the pool may hold between runs. */
const POOL_BUDGET_SHARE = 0.25;
/**
 * The pool empties itself after this long without a take or a give-back, so a process gone idle
 * (a server between bursts) holds nothing for it; runs of a plan repeated within seconds keep it.
 */
export const POOL_IDLE_RELEASE_MS = 5000;

// Arrays allocated here (the only ones recycleOutput accepts).
const born = new WeakSet<DenseArray>();
// Free arrays by precision and length, newest last (taken first: the most likely still in cache).
const free = new Map<string, DenseArray[]>();
// Every free array in the order given back, oldest first (dropped first when over the cap).
const order: DenseArray[] = [];
const pooled = new WeakSet<DenseArray>();
let heldBytes = 0;
let idle: ReturnType<typeof setTimeout> | undefined;

const keyOf = (precision: Precision, n: number): string => `${precision}:${n}`;
const precisionOf = (a: DenseArray): Precision => (a instanceof Float32Array ? 'f32' : 'f64');

/**
 * An array for a `rows x cols` kernel output: a recycled one of that length and precision, else a
 * new (zeroed) one. Its contents are unspecified: the caller must write every element.
 * @throws {LimitError} for a size over the typed-array or memory limits (as `allocDense`).
 */
export function takeOutput(fn: string, rows: number, cols: number, precision: Precision): DenseArray {
  const n = denseElements(fn, rows, cols);
  const list = free.get(keyOf(precision, n));
  const reused = list?.pop();
  if (reused !== undefined) {
    if (list!.length === 0) free.delete(keyOf(precision, n));
    forget(reused);
    touched();
    return reused;
  }
  const a = newDenseArray(precision, n);
  born.add(a);
  return a;
}

/**
 * Give back an output nobody reads any more. Arrays not made by `takeOutput`, views into one,
 * and arrays already given back are ignored; past the pool's cap the oldest are dropped to the
 * garbage collector. The caller must hold no reference it will read again.
 */
export function recycleOutput(a: unknown): void {
  if (!(a instanceof Float32Array || a instanceof Float64Array) || !born.has(a) || pooled.has(a) || a.length === 0) return;
  const cap = Math.floor(memoryBudget() * POOL_BUDGET_SHARE);
  if (a.byteLength > cap) return;
  const key = keyOf(precisionOf(a), a.length);
  const list = free.get(key);
  if (list) list.push(a);
  else free.set(key, [a]);
  order.push(a);
  pooled.add(a);
  heldBytes += a.byteLength;
  while (heldBytes > cap) dropOldest();
  touched();
}

/** Activity: the idle release waits again (a timer that never keeps the process alive). */
function touched(): void {
  if (heldBytes === 0) return;
  if (idle) idle.refresh();
  else {
    idle = setTimeout(clearOutputPool, POOL_IDLE_RELEASE_MS);
    idle.unref();
  }
}

/** Bytes held for reuse now. */
export function pooledOutputBytes(): number {
  return heldBytes;
}

/** Drop every held array (they go to the garbage collector). */
export function clearOutputPool(): void {
  while (order.length > 0) dropOldest();
  clearTimeout(idle);
  idle = undefined;
}

function dropOldest(): void {
  const a = order[0]!;
  const key = keyOf(precisionOf(a), a.length);
  const list = free.get(key)!;
  list.splice(list.indexOf(a), 1);
  if (list.length === 0) free.delete(key);
  forget(a);
}

function forget(a: DenseArray): void {
  order.splice(order.indexOf(a), 1);
  pooled.delete(a);
  heldBytes -= a.byteLength;
}
