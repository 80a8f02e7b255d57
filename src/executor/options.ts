// The options of `runPlan`, checked once into the settings a run's parts read, and the event of
// devices leaving a running plan.

import { describe, InvalidArgumentError } from '../errors.js';
import { type Backlog, checkBacklog } from '../scheduler/backlog.js';
import type { Plan } from '../scheduler/schedule.js';
import { checkOptions, checkSignal } from '../validate.js';
import { checkAllowance, type DeviceAllowance } from './allowance.js';
import type { OperatorGate } from './gate.js';
import type { ExecutionObserver } from './records.js';

export interface RunPlanOptions {
  /** Stops at the next piece boundary: pieces not started are not started, and the run rejects. */
  readonly signal?: AbortSignal;
  readonly observers?: readonly ExecutionObserver[];
  /**
   * Re-plan the operators not yet started when the predicted time of the remaining work, with
   * the model corrected by what the run observed, differs from its prediction when planned by
   * more than `threshold`; the new mapping is taken only when it is predicted better than the
   * one in force by more than the model's resolution (no flip-flopping between near-equals).
   * `false` runs the plan as made.
   * @default { threshold: 0.25 }
   */
  readonly replan?: false | { readonly threshold?: number };
  /**
   * Teach the plan's cost model from each piece its kernels ran (`CostModel.observeUncorrected`,
   * its outlier-resistant online correction). The run is the one path through which
   * observations reach the model. @default true
   */
  readonly learn?: boolean;
  /**
   * Withdraw devices during the run (`deviceLoss.withdraw('gpu')`): their pieces not yet done,
   * and every operator not yet started, are re-planned onto the other devices.
   */
  readonly deviceLoss?: DeviceLoss;
  /**
   * Treat a device whose piece fails as lost and re-plan around it, instead of failing the run.
   * Invalid-argument errors always fail the run. @default true
   */
  readonly recoverDeviceFailures?: boolean;
  /**
   * Re-decide single-source BFS level by level from the actual frontier: the search stops every
   * few levels and goes on on the device predicted cheapest for the next ones, moves included.
   * It needs two or more devices that can resume a search (`capabilities.bfsResume`), and is
   * used only where the graph's typical frontier profile predicts a gain of 10% or more over the
   * planned device alone. The choice minimises time: plans led by energy (`min-energy`,
   * `frugal-within-deadline`, weights favouring energy) or with an energy budget run each search
   * in one call. @default true
   */
  readonly bfsLevels?: boolean;
  /**
   * Return every operator's output in `result.values`, not only the workload's outputs (the
   * imperative session reads intermediate values without making them outputs, which would
   * change the plan: outputs are copied home). @default false
   */
  readonly keepValues?: boolean;
  /**
   * Work queued ahead on the devices and link directions when the run starts, seconds by name
   * (`{ gpu: 0.002, 'host->gpu': 0.0005 }`): the composed timeline starts each after its backlog,
   * and `busyUntil` says when the run leaves each. @default the backlog the plan was made against
   */
  readonly backlog?: Backlog;
  /**
   * Share the machine with other runs operator by operator (the shared service's interleaver):
   * each operator waits for its turn, is placed on the gate's one timeline of the machine, and,
   * where the gate says so, the operators not yet started are first re-planned against the
   * machine's queues and the work reserved ahead (elasticity). Most callers never set it.
   */
  readonly gate?: OperatorGate;
  /**
   * Device time the run may use (the shared service's per-device quotas): a piece does not start
   * on a device the allowance refuses; the rest of the run moves off it, or waits until it is
   * allowed again. Most callers never set it.
   */
  readonly allowance?: DeviceAllowance;
}

/**
 * The event of devices leaving a running plan (unplugged, reclaimed, failed health check).
 * @example
 * const loss = new DeviceLoss();
 * const run = runPlan(plan, { deviceLoss: loss });
 * loss.withdraw('gpu');   // the rest of the run avoids it
 */
export class DeviceLoss {
  readonly withdrawn = new Set<string>();
  withdraw(device: string): void {
    if (typeof device !== 'string') throw new InvalidArgumentError(`DeviceLoss.withdraw: device must be a device name, got ${describe(device)}`);
    this.withdrawn.add(device);
  }
}

/** The options of one run, checked. */
export interface RunSettings {
  readonly signal: AbortSignal | undefined;
  readonly observers: readonly ExecutionObserver[];
  /** Whether to watch for drift and re-plan. */
  readonly replan: boolean;
  /** Whether the model learns from the run's pieces. */
  readonly learn: boolean;
  /** Relative drift of the remaining work that triggers a re-plan (Infinity when `replan` is false). */
  readonly threshold: number;
  readonly deviceLoss: DeviceLoss | undefined;
  readonly recoverable: boolean;
  readonly bfsLevels: boolean;
  readonly keepValues: boolean;
  readonly backlog: Backlog | undefined;
  readonly gate: OperatorGate | undefined;
  readonly allowance: DeviceAllowance | undefined;
}

const KEYS = [
  'signal',
  'observers',
  'replan',
  'learn',
  'deviceLoss',
  'recoverDeviceFailures',
  'bfsLevels',
  'keepValues',
  'backlog',
  'gate',
  'allowance',
] as const;

/** @throws {InvalidArgumentError} where `plan` is not a plan `schedule()` made. */
function checkPlan(fn: string, plan: unknown): asserts plan is Plan {
  const p = plan as Partial<Plan> | null;
  if (p === null || typeof p !== 'object' || !p.problem?.bound || !p.chosen || !p.constraints)
    throw new InvalidArgumentError(`${fn}: plan must come from schedule(), got ${describe(plan)}`);
}

/**
 * Check `runPlan`'s arguments.
 * @throws {InvalidArgumentError} naming the option and the value.
 * @throws the signal's reason when it is already aborted.
 */
export function checkRunOptions(fn: string, plan: Plan, options: RunPlanOptions): RunSettings {
  checkOptions(fn, options, KEYS as unknown as (keyof RunPlanOptions & string)[]);
  checkPlan(fn, plan);
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new InvalidArgumentError(`${fn}: options must be an object, got ${describe(options)}`);
  const observers = options.observers ?? [];
  if (!Array.isArray(observers)) throw new InvalidArgumentError(`${fn}: observers must be an array, got ${describe(observers)}`);
  observers.forEach((o: unknown, i) => {
    if (o === null || typeof o !== 'object') throw new InvalidArgumentError(`${fn}: observers[${i}] must be an object, got ${describe(o)}`);
    for (const hook of ['onPiece', 'onReplan', 'onRunEnd'] as const) {
      const f = (o as Record<string, unknown>)[hook];
      if (f !== undefined && typeof f !== 'function') throw new InvalidArgumentError(`${fn}: observers[${i}].${hook} must be a function, got ${describe(f)}`);
    }
  });
  const signal = checkSignal(fn, 'signal', options.signal);
  signal?.throwIfAborted();
  const replan = options.replan ?? {};
  if (replan !== false && (replan === null || typeof replan !== 'object'))
    throw new InvalidArgumentError(`${fn}: replan must be false or { threshold }, got ${describe(replan)}`);
  const threshold = replan === false ? Infinity : (replan.threshold ?? 0.25);
  if (typeof threshold !== 'number' || !(threshold > 0))
    throw new InvalidArgumentError(`${fn}: replan.threshold must be a number > 0, got ${describe(threshold)}`);
  if (options.deviceLoss !== undefined && !(options.deviceLoss instanceof DeviceLoss))
    throw new InvalidArgumentError(`${fn}: deviceLoss must be a DeviceLoss, got ${describe(options.deviceLoss)}`);
  const recoverable = options.recoverDeviceFailures ?? true;
  if (typeof recoverable !== 'boolean') throw new InvalidArgumentError(`${fn}: recoverDeviceFailures must be true or false, got ${describe(recoverable)}`);
  const learn = options.learn ?? true;
  if (typeof learn !== 'boolean') throw new InvalidArgumentError(`${fn}: learn must be true or false, got ${describe(learn)}`);
  const bfsLevels = options.bfsLevels ?? true;
  if (typeof bfsLevels !== 'boolean') throw new InvalidArgumentError(`${fn}: bfsLevels must be true or false, got ${describe(bfsLevels)}`);
  const keepValues = options.keepValues ?? false;
  if (typeof keepValues !== 'boolean') throw new InvalidArgumentError(`${fn}: keepValues must be true or false, got ${describe(keepValues)}`);
  const backlog = options.backlog === undefined ? plan.problem.constraints.backlog : checkBacklog(fn, options.backlog, plan.problem.system);
  const gate = options.gate;
  if (
    gate !== undefined &&
    (gate === null ||
      typeof gate !== 'object' ||
      !Number.isFinite(gate.origin) ||
      typeof gate.enter !== 'function' ||
      typeof gate.leave !== 'function' ||
      typeof gate.close !== 'function')
  )
    throw new InvalidArgumentError(`${fn}: gate must be an OperatorGate (origin, enter, leave, close), got ${describe(gate)}`);
  const allowance = checkAllowance(fn, options.allowance);
  return {
    signal,
    observers,
    replan: replan !== false,
    learn,
    threshold,
    deviceLoss: options.deviceLoss,
    recoverable,
    bfsLevels,
    keepValues,
    backlog,
    gate,
    allowance,
  };
}
