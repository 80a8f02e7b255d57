// A tenant's device use inside its quota windows, and the devices it may not use now: those
// outside its partition (the policy's `devices`) and those it used past `share x window`; and its
// admission rate (the policy's `rate`: at most `jobs` submissions in any `window` seconds).

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
