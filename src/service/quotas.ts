// A tenant's device use inside its quota windows, and the devices it may not use now: those
// outside its partition (the policy's `devices`) and those it used past `share x window`; and its
// admission rate (the policy's `rate`: at most `jobs` submissions in any `window` seconds).

import { type DeviceAllowance, sleepFor } from '../executor/allowance.js';
import type { TenantPolicy } from './policy.js';

/** One job's seconds on one device, recorded when the job ended. */
export interface UseRecord {
  readonly at: number;
  readonly device: string;
  readonly seconds: number;
}

/** Seconds of `device` in the records of the last `window` seconds before `now`. */
export function usedSeconds(recent: readonly UseRecord[], device: string, window: number, now: number): number {
  let s = 0;
  for (const r of recent) if (r.device === device && r.at > now - window) s += r.seconds;
  return s;
}

/** The devices of `devices` the tenant may not use at `now`: outside its partition, or over quota. */
export function excludedDevices(policy: TenantPolicy, recent: readonly UseRecord[], devices: readonly string[], now: number): string[] {
  const only = policy.devices;
  const out = new Set(only ? devices.filter((d) => !only.includes(d)) : []);
  for (const [d, q] of Object.entries(policy.quotas)) if (usedSeconds(recent, d, q.window, now) >= q.share * q.window) out.add(d);
  return [...out];
}

/**
 * Record a finished job's `usage` on the devices its tenant has quotas on, less what its run
 * already charged piece by piece (`charged`), and forget records older than the longest window.
 */
export function recordUse(
  policy: TenantPolicy,
  recent: UseRecord[],
  usage: ReadonlyMap<string, number>,
  charged: ReadonlyMap<string, number> | undefined,
  now: number,
): void {
  for (const [d, s] of usage) {
    const rest = s - (charged?.get(d) ?? 0);
    if (policy.quotas[d] && rest > 1e-12) recent.push({ at: now, device: d, seconds: rest });
  }
  const longest = Math.max(0, ...Object.values(policy.quotas).map((q) => q.window));
  while (recent.length > 0 && recent[0]!.at <= now - longest) recent.shift();
}

/** Seconds from `now` until the first of these tenants' records under a quota leaves its window (Infinity: none). */
export function nextRecordExpiry(tenants: readonly { readonly policy: TenantPolicy; readonly recent: readonly UseRecord[] }[], now: number): number {
  let soonest = Infinity;
  for (const t of tenants)
    for (const r of t.recent) {
      const q = t.policy.quotas[r.device];
      if (q) soonest = Math.min(soonest, r.at + q.window - now);
    }
  return soonest;
}

/**
 * Seconds from `now` until `device`'s use in its window falls below the quota: the oldest records
 * leave the window first. 0 when it is already below; Infinity when the device has no quota.
 */
export function quotaFreesIn(policy: TenantPolicy, recent: readonly UseRecord[], device: string, now: number): number {
  const q = policy.quotas[device];
  if (!q) return Infinity;
  const limit = q.share * q.window;
  const inWindow = recent.filter((r) => r.device === device && r.at > now - q.window).sort((a, b) => a.at - b.at);
  let used = inWindow.reduce((s, r) => s + r.seconds, 0);
  if (used < limit) return 0;
  for (const r of inWindow) {
    used -= r.seconds;
    if (used < limit) return Math.max(0, r.at + q.window - now);
  }
  return 0;
}

/**
 * A running job's allowance (executor/allowance.ts) under its tenant's quotas: a device is refused
 * once the tenant's use of it in the window reaches `share x window`, each piece is charged to the
 * tenant's records as it ends, and `charged` keeps what was charged so the job's total at its end
 * is not counted twice. It reads the tenant's policy through `policy`, so a reload applies at once.
 */
export class QuotaAllowance implements DeviceAllowance {
  /** Seconds charged by this job, per device. */
  readonly charged = new Map<string, number>();

  constructor(
    private readonly policy: () => TenantPolicy,
    private readonly recent: UseRecord[],
    private readonly now: () => number,
    /** Give the job's host slot to others around the wait (the dispatcher's), else just wait. */
    private readonly yieldSlot: (wait: () => Promise<void>, signal: AbortSignal | undefined) => Promise<void> = (wait) => wait(),
  ) {}

  wait(signal: AbortSignal | undefined): Promise<void> {
    return this.yieldSlot(() => sleepFor(this, signal), signal);
  }

  get watched(): ReadonlySet<string> {
    return new Set(Object.keys(this.policy().quotas));
  }

  refuses(device: string): boolean {
    const q = this.policy().quotas[device];
    return q !== undefined && usedSeconds(this.recent, device, q.window, this.now()) >= q.share * q.window;
  }

  retryIn(): number {
    const policy = this.policy();
    const now = this.now();
    let soonest = Infinity;
    for (const d of Object.keys(policy.quotas)) {
      const s = quotaFreesIn(policy, this.recent, d, now);
      if (s > 0) soonest = Math.min(soonest, s);
    }
    return Number.isFinite(soonest) ? soonest : 0;
  }

  charge(device: string, seconds: number): void {
    if (!this.policy().quotas[device] || !(seconds > 0)) return;
    this.recent.push({ at: this.now(), device, seconds });
    this.charged.set(device, (this.charged.get(device) ?? 0) + seconds);
  }
}

/**
 * Whether `policy` admits one more job at `now`, given the times of its earlier submissions
 * (trimmed here to the window): undefined when it does, else why not.
 */
export function rateRefusal(policy: TenantPolicy, submitted: number[], now: number): string | undefined {
  const rate = policy.rate;
  if (!rate) return undefined;
  while (submitted.length > 0 && submitted[0]! <= now - rate.window) submitted.shift();
  if (submitted.length < rate.jobs) return undefined;
  const retry = submitted[0]! + rate.window - now;
  return `tenant ${JSON.stringify(policy.name)} submitted ${submitted.length} jobs in the last ${rate.window} s, its rate limit (rate.jobs ${rate.jobs}); retry in ${retry.toFixed(3)} s`;
}
