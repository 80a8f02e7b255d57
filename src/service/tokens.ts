// Who is asking: a presented token is matched against every tenant's in constant time (SHA-256
// of both, compared with `timingSafeEqual`, every tenant tried), so neither the position of a
// mismatch nor which tenant matched shows in the time taken. Also the token of the default tenant,
// generated at start and written where only this user can read it.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { AccessError, IoError } from '../errors.js';
import type { ServicePolicy, TenantPolicy } from './policy.js';

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export class TenantDirectory {
  readonly #entries: { readonly hash: Buffer; readonly tenant: TenantPolicy }[];

  constructor(policy: ServicePolicy) {
    this.#entries = policy.tenants.map((tenant) => ({ hash: digest(tenant.token), tenant }));
  }

  /**
   * The tenant holding `token`.
   * @throws {AccessError} when no tenant does (the message never says how close it was).
   */
  authenticate(fn: string, token: unknown): TenantPolicy {
    const presented = digest(typeof token === 'string' ? token : '');
    let found: TenantPolicy | undefined;
    for (const e of this.#entries) {
      // No early exit: every tenant's comparison runs.
      if (timingSafeEqual(presented, e.hash) && typeof token === 'string' && token.length > 0) found = e.tenant;
    }
    if (!found) throw new AccessError(`${fn}: the token is not valid for this server`);
    return found;
  }
}

/** A fresh random token (32 bytes, base64url). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Write `token` to `path` readable by this user only (mode 0600, also when the file existed).
 * @throws {IoError} when it cannot be written.
 */
export function writeTokenFile(path: string, token: string): void {
  try {
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  } catch (e) {
    throw new IoError('serve', path, e);
  }
}
