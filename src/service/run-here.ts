// The client's half of a lease (leases.ts): a plan the server made and keeps, run in this process
// on this process's copy of the data, when the server grants the devices. Only the grant and the
// run's record cross the socket; the outputs never leave this process.

import { describe, InvalidArgumentError } from '../errors.js';
import { runPlan, type RunResult } from '../executor/run.js';
import type { Plan } from '../scheduler/schedule.js';
import type { ServedPlan, ServedRunOptions, ServedRunResult } from './client-types.js';
import { jobFields } from './call-fields.js';
import type { LeaseGrant, LeaseRecord } from './leases.js';
import { type MachineSlot, workOf } from './machine-timeline.js';
import { isRecord, type RequestType } from './protocol.js';
import { deviceInfo, type SystemInfo } from './system-info.js';

const fn = 'DypeClient.runHere';

type Call = (type: RequestType, fields: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>;

/** A device as both sides must agree on it: its name, backend, whether simulated, and its parameters. */
const deviceKey = (d: SystemInfo['devices'][number]): string => JSON.stringify([d.name, d.backend, d.simulated, d.spec]);

/**
 * Check that `local` is the served plan's mapping on a system with the server's devices.
 * @throws {InvalidArgumentError} naming what differs.
 */
export function checkLocalPlan(plan: ServedPlan, local: Plan, server: SystemInfo): void {
  if (!isRecord(plan) || typeof (plan as { planId?: unknown }).planId !== 'string')
    throw new InvalidArgumentError(`${fn}: plan must come from this client's schedule(), got ${describe(plan)}`);
  if (!isRecord(local) || !isRecord((local as { problem?: unknown }).problem))
    throw new InvalidArgumentError(
      `${fn}: local must be a plan made in this process (schedule(workload, data, { fixedMapping: plan.mapping, system })), got ${describe(local)}`,
    );
  const mine = local.problem.system.devices.map((d) => deviceKey(deviceInfo(d)));
  const theirs = server.devices.map(deviceKey);
  const differs = theirs.findIndex((k, i) => mine[i] !== k);
  if (mine.length !== theirs.length || differs >= 0) {
    const at = differs >= 0 ? differs : Math.min(mine.length, theirs.length);
    throw new InvalidArgumentError(
      `${fn}: the local plan's system is not the server's: device ${at} is ${describe(local.problem.system.devices[at]?.name)} here and ${describe(server.devices[at]?.name)} on the server (name, backend and parameters must match; build the system from the server's system file)`,
    );
  }
  if (JSON.stringify(local.mapping) !== JSON.stringify(plan.mapping))
    throw new InvalidArgumentError(
      `${fn}: the local plan maps ${local.chosen.label}, the served plan ${plan.chosen.label}: make it with schedule(workload, data, { fixedMapping: plan.mapping })`,
    );
}

/** What the server is told of a run: each piece's time and device seconds, the devices' busy ends, the composed makespan. */
export function recordOf(result: RunResult): LeaseRecord {
  return { pieces: workOf(result), busyUntil: result.busyUntil, makespan: result.composedMakespan };
}

/** Wait for the grant, run `local` behind the backlog it names, and report the run (or its failure). */
export async function runHere(call: Call, plan: ServedPlan, local: Plan, options: ServedRunOptions): Promise<ServedRunResult> {
  const { signal, timeout: _t, arrival: _a, key, ...run } = options;
  if (key !== undefined) throw new InvalidArgumentError(`${fn}: key is not taken here: a run in this process cannot be joined from another connection`);
  const grant = (await call('lease', { plan: plan.planId, ...jobFields(options) }, signal)) as LeaseGrant;
  let result: RunResult;
  try {
    result = await runPlan(local, { ...run, ...(signal ? { signal } : {}), backlog: grant.backlog });
  } catch (e) {
    await call('lease-done', { lease: grant.lease, failed: e instanceof Error ? e.message : String(e) }).catch(() => undefined);
    throw e;
  }
  // Not awaited: the outputs are this process's whatever the server does with the record, and the
  // server reads the record before this connection's next request (one socket, in order).
  const recorded = call('lease-done', { lease: grant.lease, record: recordOf(result) }).then((r) => (r as { machine: MachineSlot }).machine);
  recorded.catch(() => undefined); // handled here; a caller awaiting `recorded` still hears a refusal
  return { ...result, recorded, outputsVia: 'this-process' };
}
