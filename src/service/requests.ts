// What each request does on the server. Fields are checked here (names and types) and the rest is
// the library's: `schedule`, `explore` and `runPlan` check the options and data as they do
// in-process, so a served call fails with the same typed error as a local one. Requests that use
// the devices (planning probes them) go through the fair scheduler; the others answer at once.

import type { CostModel } from '../cost/model.js';
import type { BackendStatus, System } from '../devices/system.js';
import { describe, InvalidArgumentError, UnsupportedError } from '../errors.js';
import { reservedSeconds } from '../executor/gate.js';
import { runPlan, type RunPlanOptions, type RunResult } from '../executor/run.js';
import { type RunStreamOptions, runStream } from '../executor/stream.js';
import { explore, planResult, resolveWorkload, schedule, type Plan, type ScheduleOptions } from '../scheduler/schedule.js';
import { streamOf } from '../workloads/definition.js';
import type { WorkloadData } from '../workloads/bind.js';
import type { DataStore } from './data-store.js';
import type { FairScheduler, JobContext, JobHandle, JobOutcome, JobSpec } from './fair-scheduler.js';
import { checkKey, KeyedJobs } from './idempotency.js';
import { type JobMemory, type MemoryJob, planBytes } from './job-memory.js';
import type { Interleaver, Lane, OpenJob } from './interleaver.js';
import { deviceSeconds, type MachineSlot, type MachineTimeline, workOf } from './machine-timeline.js';
import type { Leases } from './leases.js';
import type { KeptPlan, PlanCache } from './plan-cache.js';
import type { TenantPolicy } from './policy.js';
import { checkFields, type Envelope, stringField } from './protocol.js';
import { describeSystem } from './system-info.js';
import { dataField, jobTimes, mergedExclude, optionsField, workloadField } from './request-fields.js';
import { contentHashOffThread, decodeMatrixOffThread, encodeValue } from './wire-values.js';

/** What requests act on: the server's machine, model, data and dispatcher. */
export interface ServiceState {
  readonly system: System;
  readonly model: CostModel;
  readonly backends: readonly BackendStatus[];
  readonly store: DataStore;
  readonly scheduler: FairScheduler;
  readonly machine: MachineTimeline;
  /** With operator granularity: the jobs' operators take turns on the machine (else jobs run whole). */
  readonly interleaver: Interleaver | undefined;
  readonly keys: KeyedJobs;
  /** Bytes each tenant's running jobs hold, counted in its memory quota. */
  readonly jobMemory: JobMemory;
  /** The policy in force for a tenant. */
  tenantPolicy(name: string): TenantPolicy | undefined;
  /** `wall`: jobs arrive when received; `declared`: at the `arrival` their request gives (replay, for benchmarks). */
  readonly clock: ServiceClock;
  /** Plan each job against the backlog (else as if the machine were idle; it still runs behind the backlog). */
  readonly backlogPlanning: boolean;
  readonly plans: PlanCache;
  /** Runs in clients' own processes on devices granted here (leases.ts). */
  readonly leases: Leases;
  readonly version: string;
  readonly started: number;
  connections(): number;
}

/**
 * How a request is answered: now, or by a job whose id the connection keeps (to cancel it when the
 * client leaves, unless the job is under an idempotency key, which outlives the connection).
 */
export type Answer =
  /** Answered at once, or (a Promise) when work off the JS thread is done, without a job. */
  | { readonly state: 'now'; readonly value: unknown }
  | { readonly state: 'job'; readonly jobId: string; readonly value: Promise<unknown>; readonly keyed?: boolean };

export type ServiceClock = 'wall' | 'declared';

const RUN_OPTION_KEYS = ['replan', 'learn', 'bfsLevels', 'recoverDeviceFailures'];
const JOB_FIELDS = ['timeout', 'arrival', 'key'];

/** Serve one request for `tenant`. @throws a typed error naming the request and the field. */
export function answer(state: ServiceState, tenant: string, req: Envelope): Answer {
  const fn = `serve.${req.type}`;
  const f = req.fields;
  switch (req.type) {
    case 'upload': {
      checkFields(fn, f, ['matrix'], []);
      // Checked and hashed off the JS thread: a large upload does not hold other tenants' requests.
      const quota = state.tenantPolicy(tenant)?.memoryBytes;
      const stored = async (): Promise<object> => {
        const matrix = await decodeMatrixOffThread(fn, 'matrix', f['matrix']);
        const hash = await contentHashOffThread(matrix);
        return { ...state.store.put(tenant, matrix, quota, hash, state.jobMemory.held(tenant)), via: 'socket' };
      };
      return { state: 'now', value: stored() };
    }
    case 'reserve':
    case 'close-regions':
      // Regions belong to a connection: the connection answers this before it comes here.
      throw new UnsupportedError(`${fn}: shared-memory regions are reserved on the connection that uploads into them`);
    case 'release': {
      checkFields(fn, f, ['hash'], []);
      return { state: 'now', value: { released: state.store.release(tenant, stringField(fn, 'hash', f['hash'], 64)) } };
    }
    case 'system':
      checkFields(fn, f, [], []);
      return { state: 'now', value: describeSystem(state.system, state.backends) };
    case 'status':
      checkFields(fn, f, [], []);
      return {
        state: 'now',
        value: {
          server: {
            version: state.version,
            uptimeSeconds: performance.now() / 1000 - state.started,
            connections: state.connections(),
            system: state.system.name,
          },
          tenant,
          machine: {
            sharing: state.machine.sharing,
            granularity: state.interleaver ? 'operator' : 'job',
            ...(state.interleaver ? { elastic: state.interleaver.elastic } : {}),
            clock: state.clock,
            backlog: state.machine.backlogAt(state.clock === 'wall' ? performance.now() / 1000 : state.machine.earliestFree),
          },
          ...state.scheduler.status(tenant),
          store: { ...state.store.usage(tenant), tenantJobBytes: state.jobMemory.held(tenant) },
        },
      };
    case 'cancel': {
      checkFields(fn, f, ['job'], []);
      state.scheduler.cancel(fn, tenant, stringField(fn, 'job', f['job'], 64));
      return { state: 'now', value: { cancelled: f['job'] } };
    }
    case 'explore':
    case 'schedule':
      checkFields(fn, f, ['workload', 'data'], ['options', 'stream', ...JOB_FIELDS]);
      return keyed(state, tenant, fn, req, () => planJob(state, tenant, fn, req.type as 'explore' | 'schedule', f));
    case 'run':
      if (f['plan'] !== undefined) {
        checkFields(fn, f, ['plan'], ['run', ...JOB_FIELDS]);
        return keyed(state, tenant, fn, req, () => runKeptPlan(state, tenant, fn, f));
      }
      checkFields(fn, f, ['workload', 'data'], ['options', 'run', 'stream', ...JOB_FIELDS]);
      return keyed(state, tenant, fn, req, () => planJob(state, tenant, fn, 'run', f));
    case 'stream':
      checkFields(fn, f, ['workload', 'data'], ['options', 'run', ...JOB_FIELDS]);
      return keyed(state, tenant, fn, req, () => streamJob(state, tenant, fn, f));
    case 'lease':
      return state.leases.request(state, tenant, f);
    case 'lease-done':
      return state.leases.done(state, tenant, f);
    case 'lease-hold':
      return state.leases.hold(tenant, f);
  }
}

/** A job under an idempotency key (`key`): the one already under it, or a new one kept there. */
function keyed(state: ServiceState, tenant: string, fn: string, req: Envelope, start: () => Answer): Answer {
  if (req.fields['key'] === undefined) return start();
  const key = checkKey(fn, req.fields['key']);
  const fingerprint = KeyedJobs.fingerprint(req.type, req.fields);
  const found = state.keys.find(fn, tenant, key, fingerprint);
  if (found) return { state: 'job', jobId: found.jobId, value: found.value, keyed: true };
  const a = start();
  if (a.state !== 'job') return a;
  return { ...a, value: state.keys.keep(tenant, key, fingerprint, a.jobId, a.value), keyed: true };
}

/**
 * Run `plan` behind the backlog its arrival finds, and put it on the machine's timeline: whole, or
 * operator by operator through its `lane` of the interleaver.
 */
async function runOnMachine(
  state: ServiceState,
  plan: Plan,
  arrival: number,
  runOptions: Readonly<Record<string, unknown>>,
  job: MemoryJob & { readonly allowance?: RunPlanOptions['allowance'] },
  lane: Lane | undefined,
): Promise<{ result: RunResult; machine: MachineSlot; charge: Omit<JobOutcome<unknown>, 'value'> }> {
  const bytes = planBytes(plan, (d) => state.store.holds(d)).computed;
  // A job whose lane is open may not wait: the other jobs' operators wait for its first one.
  const waits = lane ? { ...job, waitAside: undefined } : job;
  return withJobMemory(state, waits, bytes, () => runBehindBacklog(state, plan, arrival, runOptions, job, lane));
}

/** Run `body` holding `bytes` of the job's tenant's memory quota beside its data and its other running jobs, waiting for them where it may (job-memory.ts). */
function withJobMemory<T>(state: ServiceState, job: MemoryJob, bytes: number, body: () => Promise<T>): Promise<T> {
  const { fn, tenant, signal, waitAside } = job;
  const limit = () => ({ quota: state.tenantPolicy(tenant)?.memoryBytes, dataBytes: state.store.usage(tenant).tenantBytes! });
  return state.jobMemory.during(fn, tenant, bytes, limit, body, waitAside ? { aside: waitAside, signal } : undefined);
}

async function runBehindBacklog(
  state: ServiceState,
  plan: Plan,
  arrival: number,
  runOptions: Readonly<Record<string, unknown>>,
  job: { readonly signal: AbortSignal; readonly allowance?: RunPlanOptions['allowance'] },
  lane: Lane | undefined,
): Promise<{ result: RunResult; machine: MachineSlot; charge: Omit<JobOutcome<unknown>, 'value'> }> {
  const options = { ...runOptions, signal: job.signal, ...(job.allowance ? { allowance: job.allowance } : {}) } as RunPlanOptions;
  // What the run asked of the machine wherever it goes: its tenant's fair share is charged this.
  const demand = plan.problem.table.demandSeconds();
  if (lane) {
    lane.reserve(reservedSeconds(plan, plan.problem.costs, plan.chosen.genome, []), demand);
    const result = await runPlan(plan, { ...options, gate: lane, backlog: state.interleaver!.backlogFor(lane) });
    return { result, machine: lane.slot(), charge: { usage: usageOf(result), demand } };
  }
  const backlog = state.machine.backlogAt(arrival);
  const result = await runPlan(plan, { ...options, backlog });
  // The run was composed behind the backlog its arrival found: its pieces' times count from the arrival.
  const work = workOf(result, arrival);
  return {
    result,
    machine: { ...state.machine.commit(arrival, backlog, result.busyUntil, result.composedMakespan), work },
    charge: { usage: deviceSeconds(work), demand },
  };
}

/** A job as the interleaver orders it: its tenant, priority and weight. */
function openJob(state: ServiceState, tenant: string, arrival: number): OpenJob {
  const p = state.tenantPolicy(tenant);
  return { tenant, priority: p?.priority ?? 0, weight: p?.weight ?? 1, arrival };
}

/** Busy seconds per device of a run's pieces. */
function usageOf(result: RunResult): Map<string, number> {
  return deviceSeconds(workOf(result));
}

/** A run's result as plain data: its outputs in wire form, the rest as it is. */
function runReply(result: RunResult): object {
  const { outputs, values: _, ...rest } = result;
  const wire: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(outputs)) wire[k] = encodeValue(v);
  return { ...rest, outputs: wire };
}

/** Submit a job that reads `hashes` of the store: they stay pinned while it is queued or running. */
function pinnedJob(state: ServiceState, fn: string, hashes: readonly string[], spec: JobSpec<unknown>): Answer {
  state.store.pin(hashes);
  let handle: JobHandle<unknown>;
  try {
    handle = state.scheduler.submit(fn, spec);
  } catch (e) {
    state.store.unpin(hashes);
    throw e;
  }
  return { state: 'job', jobId: handle.id, value: handle.result.finally(() => state.store.unpin(hashes)) };
}

/** `explore`, `schedule`, or `run` of a workload on uploaded data: one job that plans (and runs). */
function planJob(state: ServiceState, tenant: string, fn: string, kind: 'explore' | 'schedule' | 'run', f: Readonly<Record<string, unknown>>): Answer {
  const workload = workloadField(fn, f['workload'], f['stream']);
  const { data, hashes } = dataField(state, tenant, fn, f['data']);
  const options = optionsField(fn, 'options', f['options']);
  const runOptions = kind === 'run' ? optionsField(fn, 'run', f['run'], RUN_OPTION_KEYS) : {};
  return pinnedJob(state, fn, hashes, {
    tenant,
    kind,
    ...jobTimes(state, fn, f),
    run: async (ctx): Promise<JobOutcome<unknown>> => {
      // Opened before planning, so no other job's operator moves on until this one says what it runs first.
      const lane = kind === 'run' ? state.interleaver?.open(openJob(state, tenant, ctx.arrival)) : undefined;
      try {
        return await planAndRun(state, tenant, kind, workload, data, hashes, options, runOptions, ctx, lane);
      } finally {
        lane?.close();
      }
    },
  });
}

/** The body of a planning job: plan against the machine's backlog at its arrival (a busy device costs its queue), then run or keep the plan. */
async function planAndRun(
  state: ServiceState,
  tenant: string,
  kind: 'explore' | 'schedule' | 'run',
  workload: string | object,
  data: WorkloadData,
  hashes: readonly string[],
  options: Record<string, unknown>,
  runOptions: Record<string, unknown>,
  ctx: JobContext,
  lane: Lane | undefined,
): Promise<JobOutcome<unknown>> {
  const { signal, exclude, arrival: at, allowance, waitAside } = ctx;
  const merged = mergedExclude(options['exclude'], exclude);
  // The library checks every option (names and values) as it does in-process.
  // Jobs sharing the machine by operator turns plan in the order they opened, each against the reservations before it.
  if (lane) await state.interleaver!.earlierPlans(lane);
  const backlog = lane ? state.interleaver!.backlogFor(lane) : state.machine.backlogAt(at);
  const planning = {
    ...options,
    ...(merged !== undefined ? { exclude: merged } : {}),
    ...(state.backlogPlanning && Object.keys(backlog).length > 0 ? { backlog } : {}),
    system: state.system,
    model: state.model,
    signal,
  } as ScheduleOptions;
  const t0 = performance.now();
  if (kind === 'explore') {
    const ex = await explore(workload, data, planning);
    return { value: planResult(ex), usage: new Map([['host', (performance.now() - t0) / 1000]]) };
  }
  const plan = await schedule(workload, data, planning);
  if (kind === 'schedule') {
    const planId = state.plans.keep(tenant, plan, hashes);
    return { value: { ...planResult(plan), planId }, usage: new Map([['host', (performance.now() - t0) / 1000]]) };
  }
  const { result, machine, charge } = await runOnMachine(state, plan, at, runOptions, { fn: 'serve.run', tenant, signal, allowance, waitAside }, lane);
  return { value: { ...runReply(result), plan: planResult(plan), machine }, ...charge };
}

/** `run` of a plan this tenant made with `schedule` (kept on the server by its id). */
function runKeptPlan(state: ServiceState, tenant: string, fn: string, f: Readonly<Record<string, unknown>>): Answer {
  const kept = state.plans.get(fn, tenant, f['plan']);
  const runOptions = optionsField(fn, 'run', f['run'], RUN_OPTION_KEYS);
  const times = jobTimes(state, fn, f);
  const plan: Plan = kept.plan;
  const handle = keptPlanJob(state, fn, kept, {
    tenant,
    kind: 'run',
    ...times,
    run: async ({ signal, arrival: at, allowance, waitAside }): Promise<JobOutcome<unknown>> => {
      const lane = state.interleaver?.open(openJob(state, tenant, at));
      try {
        const { result, machine, charge } = await runOnMachine(state, plan, at, runOptions, { fn, tenant, signal, allowance, waitAside }, lane);
        return { value: { ...runReply(result), machine }, ...charge };
      } finally {
        lane?.close();
      }
    },
  });
  return { state: 'job', jobId: handle.id, value: handle.result };
}

/**
 * Submit a job that runs a kept plan: it needs the devices the plan uses (it waits while any is
 * over its tenant's quota), and the plan stays kept while the job is queued or running.
 */
export function keptPlanJob(state: ServiceState, fn: string, kept: KeptPlan, spec: Omit<JobSpec<unknown>, 'needs'>): JobHandle<unknown> {
  const { plan } = kept;
  const needs = [...new Set(plan.predicted.timeline.map((e) => plan.problem.system.devices[e.device]!.name))];
  state.plans.pin(kept);
  try {
    const handle = state.scheduler.submit(fn, { ...spec, needs });
    return { id: handle.id, result: handle.result.finally(() => state.plans.unpin(kept)) };
  } catch (e) {
    state.plans.unpin(kept);
    throw e;
  }
}

const STREAM_RUN_KEYS = ['replan', 'bfsLevels', 'recoverDeviceFailures', 'featureThreshold'];
/** Inputs of one served stream, at most. */
const MAX_STREAM_INPUTS = 100_000;

/**
 * `stream`: a stream workload planned on its first input and run on every input (`runStream`).
 * A stream pipelines its inputs on the devices by itself, so it holds the machine: it starts when
 * every device is free and keeps the devices it uses for its pipelined makespan.
 */
function streamJob(state: ServiceState, tenant: string, fn: string, f: Readonly<Record<string, unknown>>): Answer {
  // The request says it is a stream: the workload's stream form, whichever form was sent.
  const resolved = resolveWorkload(fn, workloadField(fn, f['workload']));
  const workload = resolved.stream ? resolved : streamOf(resolved);
  const raw = f['data'];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_STREAM_INPUTS) {
    throw new InvalidArgumentError(
      `${fn}: field "data" must be an array of 1 to ${MAX_STREAM_INPUTS} inputs (each a content hash, or input name -> hash), got ${describe(raw)}`,
    );
  }
  const inputs = raw.map((d: unknown) => dataField(state, tenant, fn, d));
  const hashes = inputs.flatMap((x) => x.hashes);
  const options = optionsField(fn, 'options', f['options']);
  const runOptions = optionsField(fn, 'run', f['run'], STREAM_RUN_KEYS);
  return pinnedJob(state, fn, hashes, {
    tenant,
    kind: 'stream',
    ...jobTimes(state, fn, f),
    run: async ({ signal, exclude, arrival: at, allowance, waitAside }): Promise<JobOutcome<unknown>> => {
      const data = inputs.map((x) => x.data);
      const merged = mergedExclude(options['exclude'], exclude);
      const planning = {
        ...options,
        ...(merged !== undefined ? { exclude: merged } : {}),
        system: state.system,
        model: state.model,
        signal,
      } as ScheduleOptions;
      const plan = await schedule(workload, data, planning);
      // One input's values at a time, and every input's outputs kept for the reply.
      const { computed, outputs } = planBytes(plan, (d) => state.store.holds(d));
      const bytes = computed + (data.length - 1) * outputs;
      const s = await withJobMemory(state, { fn, tenant, signal, waitAside }, bytes, () =>
        runStream(plan, data, { ...runOptions, signal, ...(allowance ? { allowance } : {}) } as RunStreamOptions),
      );
      const usage = new Map<string, number>();
      for (const r of s.results) for (const [d, sec] of usageOf(r)) usage.set(d, (usage.get(d) ?? 0) + sec);
      const used = new Set<string>();
      for (const r of s.results) for (const [k, until] of Object.entries(r.busyUntil)) if (until > 0) used.add(k);
      const machine = state.machine.hold(at, [...used], s.pipelinedSeconds);
      const { results, plans, ...rest } = s;
      return { value: { ...rest, results: results.map(runReply), plans: plans.map((p) => planResult(p)), machine }, usage };
    },
  });
}
