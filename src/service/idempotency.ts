// Idempotency keys: a request that carries `key` names its job for its tenant, so sending it again
// (after a dropped connection, or from another connection of the same tenant) joins the job
// already queued or running, or gets the outcome it already had, instead of running it twice. A
// keyed job is not cancelled when the connection that sent it closes: the key outlives it. A key
// sent again with different fields is refused. Keys are per tenant; the last 1024 settled ones of
// each tenant are kept. A job that was cancelled or timed out frees its key for a retry.

import { createHash } from 'node:crypto';
import { AbortedError, InvalidArgumentError } from '../errors.js';

interface Entry {
  readonly fingerprint: string;
  readonly jobId: string;
  readonly value: Promise<unknown>;
  settled: boolean;
}

/** Settled keys kept per tenant; the oldest go first. */
export const KEPT_KEYS = 1024;
const KEY = /^[\x21-\x7e]{1,128}$/;

/** `raw` as an idempotency key: 1 to 128 printable ASCII characters. */
export function checkKey(fn: string, raw: unknown): string {
  if (typeof raw !== 'string' || !KEY.test(raw)) {
    throw new InvalidArgumentError(`${fn}: field "key" must be 1 to 128 printable ASCII characters without spaces, got ${JSON.stringify(raw)?.slice(0, 80)}`);
  }
  return raw;
}

export class KeyedJobs {
  readonly #tenants = new Map<string, Map<string, Entry>>();

  /** The SHA-256 of what a request asks, the key and job fields aside. */
  static fingerprint(type: string, fields: Readonly<Record<string, unknown>>): string {
    const { key: _k, timeout: _t, arrival: _a, ...asked } = fields;
    return createHash('sha256')
      .update(JSON.stringify([type, asked]))
      .digest('hex');
  }

  /**
   * The job already under `key` for `tenant`, when the request is the same one.
   * @throws {InvalidArgumentError} when the key names a different request.
   */
  find(fn: string, tenant: string, key: string, fingerprint: string): { jobId: string; value: Promise<unknown> } | undefined {
    const e = this.#tenants.get(tenant)?.get(key);
    if (!e) return undefined;
    if (e.fingerprint !== fingerprint) {
      throw new InvalidArgumentError(`${fn}: key ${JSON.stringify(key)} was used for a different request of this tenant; use a new key for a new request`);
    }
    return e;
  }

  /** Keep `value` under `key`; returns it. */
  keep(tenant: string, key: string, fingerprint: string, jobId: string, value: Promise<unknown>): Promise<unknown> {
    let keys = this.#tenants.get(tenant);
    if (!keys) this.#tenants.set(tenant, (keys = new Map()));
    const entry: Entry = { fingerprint, jobId, value, settled: false };
    keys.set(key, entry);
    const settle = (dropped: boolean): void => {
      entry.settled = true;
      if (dropped && keys.get(key) === entry) keys.delete(key);
      this.#trim(keys);
    };
    value.then(
      () => settle(false),
      (e: unknown) => settle(e instanceof AbortedError),
    );
    return value;
  }

  #trim(keys: Map<string, Entry>): void {
    let settled = 0;
    for (const e of keys.values()) if (e.settled) settled++;
    for (const [k, e] of keys) {
      if (settled <= KEPT_KEYS) break;
      if (!e.settled) continue;
      keys.delete(k);
      settled--;
    }
  }
}
