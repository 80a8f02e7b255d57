// What the shared dispatcher reports (`status`): each tenant's queue, service and quota use, and
// each device's busy time and shares. Plain data, sent to clients as is.

import type { TenantPolicy } from './policy.js';
import { type UseRecord, usedSeconds } from './quotas.js';

/** What the dispatcher keeps of a tenant that status reports. */
export interface TenantRecord {
  readonly policy: TenantPolicy;
  readonly queue: { readonly length: number };
  readonly running: number;
  readonly completed: number;
  readonly failed: number;
  readonly refused: number;
  readonly served: number;
  readonly busy: ReadonlyMap<string, number>;
  readonly recent: readonly UseRecord[];
}

/** One tenant's line of the status at `now`. */
export function tenantStatus(t: TenantRecord, devices: readonly string[], now: number): TenantStatus {
  const byDevice: Record<string, { busySeconds: number; quota?: { share: number; window: number; used: number } }> = {};
  for (const d of devices) {
    const q = t.policy.quotas[d];
    byDevice[d] = { busySeconds: t.busy.get(d) ?? 0, ...(q ? { quota: { ...q, used: usedSeconds(t.recent, d, q.window, now) / q.window } } : {}) };
  }
  const p = t.policy;
  return {
    name: p.name,
    weight: p.weight,
    priority: p.priority,
    maxQueued: p.maxQueued,
    queued: t.queue.length,
    running: t.running,
    completed: t.completed,
    failed: t.failed,
    refused: t.refused,
    servedSeconds: t.served,
    devices: byDevice,
  };
}

/** Each device's busy seconds and every tenant's share of them. */
export function deviceShares(devices: readonly string[], tenants: readonly TenantRecord[]): SchedulerStatus['devices'] {
  return devices.map((name) => {
    let busy = 0;
    for (const t of tenants) busy += t.busy.get(name) ?? 0;
    const shares: Record<string, number> = {};
    for (const t of tenants) if (busy > 0) shares[t.policy.name] = (t.busy.get(name) ?? 0) / busy;
    return { name, busySeconds: busy, shares };
  });
}

export interface TenantStatus {
  readonly name: string;
  readonly weight: number;
  readonly priority: number;
  readonly maxQueued: number;
  readonly queued: number;
  readonly running: number;
  readonly completed: number;
  readonly failed: number;
  readonly refused: number;
  /** Seconds of service (job wall time) received. */
  readonly servedSeconds: number;
  /** Device -> { busy seconds, used share of its quota window when it has a quota }. */
  readonly devices: Readonly<
    Record<string, { readonly busySeconds: number; readonly quota?: { readonly share: number; readonly window: number; readonly used: number } }>
  >;
}

/** A job's state: waiting its turn, running, or running but waiting for its tenant's quota (its host slot given to others). */
export type JobState = 'queued' | 'running' | 'waiting for quota' | 'waiting for memory';

export interface SchedulerStatus {
  readonly slots: number;
  readonly draining: boolean;
  readonly queued: number;
  readonly running: number;
  readonly tenants: readonly TenantStatus[];
  /** Per device: its busy seconds and each tenant's share of them. */
  readonly devices: readonly { readonly name: string; readonly busySeconds: number; readonly shares: Readonly<Record<string, number>> }[];
  /** The asking tenant's own jobs. */
  readonly jobs: readonly { readonly id: string; readonly kind: string; readonly state: JobState; readonly seconds: number }[];
}
