// The declared sharing policy of `dype serve` (`--policy FILE`, JSON): the tenants, each with its
// token, weight (its fair share of the machine), priority, admission limits (queue length, rate),
// per-device quotas, a device partition and a bound on the data it holds.
// Every bad field is reported, one line each, before the policy takes effect.

import { readFileSync } from 'node:fs';
import { describe, FormatError, IoError } from '../errors.js';
import { suggest } from '../validate.js';
import { isRecord } from './protocol.js';

/** At most `share` of a device's busy time over the last `window` seconds. */
export interface DeviceQuota {
  readonly share: number;
  /** @default 60 */
  readonly window: number;
}

export interface TenantPolicy {
  readonly name: string;
  readonly token: string;
  /** Relative share of the machine when tenants compete. @default 1 */
  readonly weight: number;
  /** Higher runs first; equal priorities share by weight. @default 0 */
  readonly priority: number;
  /** Jobs queued or running at once; one more is refused. @default 64 */
  readonly maxQueued: number;
  /** Device name -> quota. @default {} */
  readonly quotas: Readonly<Record<string, DeviceQuota>>;
  /** The only devices its jobs may use (a static partition of the machine). @default every device */
  readonly devices?: readonly string[];
  /** Bytes of uploaded data it may hold at once (shared content counts in full). @default no bound but the store's */
  readonly memoryBytes?: number;
  /** At most `jobs` jobs submitted in any `window` seconds; more are refused. @default no bound but maxQueued */
  readonly rate?: { readonly jobs: number; readonly window: number };
}

export interface ServicePolicy {
  readonly tenants: readonly TenantPolicy[];
  /** Where it came from (a path, or `<default>`). */
  readonly source: string;
}

const TOP_KEYS = ['tenants'];
const TENANT_KEYS = ['name', 'token', 'weight', 'priority', 'maxQueued', 'quotas', 'devices', 'memoryBytes', 'rate'];
const QUOTA_KEYS = ['share', 'window'];
const RATE_KEYS = ['jobs', 'window'];
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Shortest token accepted: guessing must not be practical. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * Check a parsed policy. `devices`, when given, are the device names quotas may name.
 * @throws {FormatError} listing every bad field, each with its path and value.
 * @example
 * checkPolicy({ tenants: [{ name: 'web', token: 'a-long-random-token-1', weight: 2 }] }, 'policy.json');
 */
export function checkPolicy(raw: unknown, source: string, devices?: readonly string[]): ServicePolicy {
  const problems: string[] = [];
  const bad = (path: string, detail: string): void => void problems.push(`${path}: ${detail}`);
  const unknownKeys = (path: string, obj: Record<string, unknown>, keys: readonly string[]): void => {
    for (const k of Object.keys(obj)) {
      if (keys.includes(k)) continue;
      const hint = suggest(k, keys);
      bad(`${path}${path ? '.' : ''}${k}`, `unknown field${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (known: ${keys.join(', ')})`}`);
    }
  };
  const number = (path: string, v: unknown, fallback: number, ok: (n: number) => boolean, what: string): number => {
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) {
      bad(path, `must be ${what}, got ${describe(v)}`);
      return fallback;
    }
    return v;
  };
  const tenants: TenantPolicy[] = [];
  if (!isRecord(raw)) {
    bad('(top)', `must be an object with "tenants", got ${describe(raw)}`);
  } else {
    unknownKeys('', raw, TOP_KEYS);
    const list = raw['tenants'];
    if (!Array.isArray(list) || list.length === 0) bad('tenants', `must be a non-empty array of tenants, got ${describe(list)}`);
    else {
      const names = new Set<string>();
      const tokens = new Set<string>();
      list.forEach((t: unknown, i) => {
        const at = `tenants[${i}]`;
        if (!isRecord(t)) {
          bad(at, `must be an object, got ${describe(t)}`);
          return;
        }
        unknownKeys(at, t, TENANT_KEYS);
        const name = t['name'];
        if (typeof name !== 'string' || !NAME.test(name)) bad(`${at}.name`, `must be 1 to 64 letters, digits, '.', '_' or '-', got ${describe(name)}`);
        else if (names.has(name)) bad(`${at}.name`, `${JSON.stringify(name)} is used by an earlier tenant`);
        else names.add(name);
        const token = t['token'];
        if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH || token.length > 1024) {
          bad(
            `${at}.token`,
            `must be a string of ${MIN_TOKEN_LENGTH} to 1024 characters, got ${typeof token === 'string' ? `${token.length} characters` : describe(token)}`,
          );
        } else if (tokens.has(token)) bad(`${at}.token`, 'is the token of an earlier tenant (each tenant needs its own)');
        else tokens.add(token);
        const weight = number(`${at}.weight`, t['weight'], 1, (n) => n > 0 && n <= 1e6, 'a number in (0, 1e6]');
        const priority = number(`${at}.priority`, t['priority'], 0, (n) => Number.isInteger(n) && Math.abs(n) <= 1000, 'an integer in [-1000, 1000]');
        const maxQueued = number(`${at}.maxQueued`, t['maxQueued'], 64, (n) => Number.isInteger(n) && n >= 1 && n <= 1e6, 'an integer in [1, 1000000]');
        const only = t['devices'];
        const known = (path: string, device: string): void => {
          if (!devices || devices.includes(device)) return;
          const hint = suggest(device, devices);
          bad(
            path,
            `no device ${JSON.stringify(device)} on this system${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (devices: ${devices.join(', ')})`}`,
          );
        };
        if (only !== undefined && (!Array.isArray(only) || only.length === 0 || only.some((d) => typeof d !== 'string'))) {
          bad(`${at}.devices`, `must be a non-empty array of device names, got ${describe(only)}`);
        } else if (only) (only as string[]).forEach((d, k) => known(`${at}.devices[${k}]`, d));
        const memoryBytes =
          t['memoryBytes'] === undefined
            ? undefined
            : number(`${at}.memoryBytes`, t['memoryBytes'], 0, (n) => Number.isInteger(n) && n >= 1 && n <= 2 ** 50, 'an integer number of bytes in [1, 2^50]');
        let rate: { jobs: number; window: number } | undefined;
        const r = t['rate'];
        if (r !== undefined && !isRecord(r)) bad(`${at}.rate`, `must be an object { jobs, window }, got ${describe(r)}`);
        else if (r) {
          unknownKeys(`${at}.rate`, r, RATE_KEYS);
          if (r['jobs'] === undefined) bad(`${at}.rate.jobs`, 'is missing');
          const jobs = number(`${at}.rate.jobs`, r['jobs'], 1, (n) => Number.isInteger(n) && n >= 1 && n <= 1e9, 'an integer in [1, 1e9]');
          const window = number(`${at}.rate.window`, r['window'], 1, (n) => n >= 0.001 && n <= 86400, 'seconds in [0.001, 86400]');
          rate = { jobs, window };
        }
        const quotas: Record<string, DeviceQuota> = {};
        const q = t['quotas'];
        if (q !== undefined && !isRecord(q)) bad(`${at}.quotas`, `must be an object of device name -> { share, window }, got ${describe(q)}`);
        else if (q) {
          for (const [device, spec] of Object.entries(q)) {
            const qp = `${at}.quotas.${device}`;
            known(qp, device);
            if (!isRecord(spec)) {
              bad(qp, `must be an object { share, window }, got ${describe(spec)}`);
              continue;
            }
            unknownKeys(qp, spec, QUOTA_KEYS);
            if (spec['share'] === undefined) bad(`${qp}.share`, 'is missing');
            const share = number(`${qp}.share`, spec['share'], 1, (n) => n > 0 && n <= 1, 'a fraction in (0, 1]');
            const window = number(`${qp}.window`, spec['window'], 60, (n) => n >= 0.01 && n <= 86400, 'seconds in [0.01, 86400]');
            quotas[device] = { share, window };
          }
        }
        if (typeof name === 'string' && typeof token === 'string')
          tenants.push({
            name,
            token,
            weight,
            priority,
            maxQueued,
            quotas,
            ...(Array.isArray(only) ? { devices: [...new Set(only as string[])] } : {}),
            ...(memoryBytes ? { memoryBytes } : {}),
            ...(rate ? { rate } : {}),
          });
      });
    }
  }
  if (problems.length > 0) {
    throw new FormatError('loadPolicy', source, 0, `${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`);
  }
  return { tenants, source };
}

/**
 * Read and check a policy file.
 * @throws {IoError} when it cannot be read; {FormatError} when it is not JSON or a field is bad.
 */
export function loadPolicy(path: string, devices?: readonly string[]): ServicePolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new IoError('loadPolicy', path, e);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new FormatError('loadPolicy', path, 0, `not valid JSON: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return checkPolicy(raw, path, devices);
}

/** The policy without a file: one tenant, `default`, holding `token`. */
export function defaultPolicy(token: string): ServicePolicy {
  return { tenants: [{ name: 'default', token, weight: 1, priority: 0, maxQueued: 64, quotas: {} }], source: '<default>' };
}
