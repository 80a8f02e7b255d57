// Running one batch of session calls: wait for the earlier batches it reads, plan it with
// `schedule` and run it with `runPlan` (the declared-workload path), then settle each call's
// handle. A failure lands on the handle that failed and on every handle depending on it; the
// calls of the batch that do not depend on it are planned and run again without it.

import type { Precision } from '../data/dense.js';
import type { CostModel } from '../cost/model.js';
import type { System } from '../devices/system.js';
import { AbortedError, ExecutionError } from '../errors.js';
import { runPlan, type RunPlanOptions, type RunResult } from '../executor/run.js';
import { type Plan, schedule, type ScheduleOptions } from '../scheduler/schedule.js';
import { batchWorkload, dependentsOf, unsettledInputs } from './batch.js';
import type { Call } from './calls.js';
import { Handle, handleInternals } from './handle.js';

/** What a session tells `onBatch` after each batch. */
export interface BatchRecord {
  /** 0, 1, ... in launch order (a batch re-run after a failure keeps its index). */
  readonly index: number;
  /** What launched it: a handle's value awaited, `flush()`, the window filling, or `close()`. */
  readonly reason: 'value' | 'flush' | 'window' | 'close';
  /** The handle ids it planned (operator ids in its plan). */
  readonly operators: readonly string[];
  readonly plan?: Plan;
  /** Host seconds `schedule` took (building the workload included). */
  readonly planSeconds?: number;
  readonly result?: RunResult;
  readonly error?: unknown;
}

/** What a batch needs of its session. */
export interface BatchContext {
  readonly schedule: ScheduleOptions;
  readonly run: RunPlanOptions;
  readonly signal: AbortSignal | undefined;
  readonly onBatch: ((batch: BatchRecord) => void) | undefined;
  resources(): Promise<{ system: System; model: CostModel }>;
  precision(): Precision | undefined;
}

/**
 * Plan, run and settle `calls`. Never rejects: every error lands on handles.
 * @returns the first error a handle of the batch got, for `flush()`.
 */
export async function runBatch(ctx: BatchContext, launched: readonly Call[], reason: BatchRecord['reason'], index: number): Promise<unknown> {
  let first: unknown;
  const fail = (h: Handle, e: unknown): void => {
    handleInternals.fail(h, e);
    first ??= e;
  };
  let calls = [...launched];
  const abort = (): void => {
    for (const c of calls) fail(c.handle, new AbortedError(`session: ${c.handle.id} (${c.kind}) was cancelled`, { cause: ctx.signal?.reason }));
  };
  try {
    // Values of earlier batches are inputs here: wait for those still running.
    const waits = unsettledInputs(calls);
    if (waits.length) await Promise.all(waits.map((h) => handleInternals.settled(h)));
    calls = failDependents(calls, collectFailedInputs(calls), fail);
    while (calls.length) {
      if (ctx.signal?.aborted) {
        abort();
        return first;
      }
      const { system, model } = await ctx.resources();
      const t0 = performance.now();
      const batch = batchWorkload(calls, ctx.precision(), index);
      let plan: Plan | undefined;
      let planSeconds = 0;
      let result: RunResult;
      try {
        plan = await schedule(batch.workload, batch.data, { ...ctx.schedule, system, model });
        planSeconds = (performance.now() - t0) / 1000;
        result = await runPlan(plan, { ...ctx.run, keepValues: true });
      } catch (e) {
        ctx.onBatch?.({ index, reason, operators: calls.map((c) => c.handle.id), ...(plan ? { plan, planSeconds } : {}), error: e });
        if (ctx.signal?.aborted) {
          abort();
          return first;
        }
        const culprit = e instanceof ExecutionError ? calls.find((c) => c.handle.id === e.operator) : undefined;
        if (!culprit) {
          for (const c of calls) fail(c.handle, e);
          return first;
        }
        // That operator failed: it and what reads it fail; the rest is planned again without them.
        fail(culprit.handle, e);
        calls = failDependents(calls, new Set([culprit.handle]), fail);
        continue;
      }
      const values = result.values!;
      for (const c of calls) handleInternals.settle(c.handle, values[c.handle.id]!);
      ctx.onBatch?.({ index, reason, operators: calls.map((c) => c.handle.id), plan, planSeconds, result });
      return first;
    }
  } catch (e) {
    // Not a planning or run failure (an onBatch hook threw, or a bug): nothing may stay pending.
    for (const c of launched) fail(c.handle, e);
  }
  return first;
}

/** Handles of earlier batches that `calls` read and that failed. */
function collectFailedInputs(calls: readonly Call[]): Set<Handle> {
  const failed = new Set<Handle>();
  for (const c of calls) for (const x of c.operands) if (x instanceof Handle && x.state === 'failed') failed.add(x);
  return failed;
}

/**
 * Fail every call reading a handle of `failed` (directly or through others) with an
 * ExecutionError naming it and the failed handle; return the calls still to run.
 */
function failDependents(calls: readonly Call[], failed: ReadonlySet<Handle>, fail: (h: Handle, e: unknown) => void): Call[] {
  if (failed.size === 0) return [...calls];
  const lost = new Set<Handle>(failed);
  for (const d of dependentsOf(calls, failed)) {
    const root = rootFailure(d, lost, failed);
    const cause = handleInternals.errorOf(root);
    const device = cause instanceof ExecutionError ? cause.device : '';
    const why = cause instanceof Error ? cause.message : String(cause);
    fail(
      d.handle,
      new ExecutionError(
        d.handle.id,
        device,
        `session: ${d.handle.id} (${d.kind}) was not computed: it depends on ${root.id} (${root.op}), which failed: ${why}`,
        { cause },
      ),
    );
    lost.add(d.handle);
  }
  return calls.filter((c) => !lost.has(c.handle) && c.handle.state !== 'failed');
}

/** The failed handle a call depends on: its own operand when it failed, else the first operand's root. */
function rootFailure(call: Call, lost: ReadonlySet<Handle>, failed: ReadonlySet<Handle>): Handle {
  for (const x of call.operands) if (x instanceof Handle && failed.has(x)) return x;
  for (const x of call.operands) {
    if (x instanceof Handle && lost.has(x)) {
      // A dependent failed before: its cause is an ExecutionError whose cause is the root's error.
      const e = handleInternals.errorOf(x);
      if (e instanceof ExecutionError && e.cause !== undefined) {
        for (const f of failed) if (handleInternals.errorOf(f) === e.cause) return f;
      }
    }
  }
  return [...failed][0]!;
}
