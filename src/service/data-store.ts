// The service's data, kept by content hash: the same bytes uploaded by two tenants are stored
// once, and each tenant sees only what it uploaded itself. The store holds at most `maxBytes`;
// past that, the least recently used data that no job or kept plan references is evicted.

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError, LimitError, MissingDataError } from '../errors.js';
import { contentHash, matrixBytes } from './wire-values.js';

interface Entry {
  readonly matrix: CsrMatrix | DenseMatrix;
  readonly bytes: number;
  /** Tenants that uploaded it: the only ones that may use it. */
  readonly owners: Set<string>;
  /** Jobs and kept plans using it: while above 0 it is never evicted. */
  pins: number;
}

/** What an upload did. */
export interface Stored {
  readonly hash: string;
  readonly bytes: number;
  /** `new`: first copy; `shared`: the same content was already held (for this or another tenant). */
  readonly stored: 'new' | 'shared';
  /** How the bytes came: through the socket, or written into a shared-memory region the server mapped. */
  readonly via?: 'socket' | 'shared-memory';
}

const HASH = /^[0-9a-f]{64}$/;

export class DataStore {
  /** Insertion order is recency: a used entry is moved to the end. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  #evicted = 0;

  constructor(readonly maxBytes: number) {}

  /**
   * Keep `matrix` for `tenant`; returns its hash.
   * @param quota bytes the tenant may hold (its policy's `memoryBytes`); shared content counts in full.
   * @param hash the matrix's {@link contentHash}, where the caller computed it already (off the JS thread).
   * @param jobBytes bytes the tenant's running jobs hold, counted against `quota` beside its data.
   * @throws {LimitError} when it cannot fit even after evicting everything unreferenced, or past the tenant's quota.
   */
  put(tenant: string, matrix: CsrMatrix | DenseMatrix, quota?: number, hash = contentHash(matrix), jobBytes = 0): Stored {
    const had = this.#entries.get(hash);
    if (quota !== undefined && !had?.owners.has(tenant)) {
      const held = this.usage(tenant).tenantBytes!;
      const bytes = had?.bytes ?? matrixBytes(matrix);
      if (held + jobBytes + bytes > quota) {
        throw new LimitError(
          `serve.upload: tenant ${JSON.stringify(tenant)} holds ${held} bytes of data${jobBytes > 0 ? ` and ${jobBytes} bytes in its running jobs` : ''}; ${bytes} more would pass its memory quota of ${quota} bytes (memoryBytes); release data it no longer needs`,
        );
      }
    }
    if (had) {
      had.owners.add(tenant);
      this.#touch(hash, had);
      return { hash, bytes: had.bytes, stored: 'shared' };
    }
    const bytes = matrixBytes(matrix);
    if (bytes > this.maxBytes) {
      throw new LimitError(`serve.upload: the matrix holds ${bytes} bytes, more than the store's bound of ${this.maxBytes} bytes (dype serve --store-mib)`);
    }
    this.#makeRoom(bytes);
    if (this.#bytes + bytes > this.maxBytes) {
      throw new LimitError(
        `serve.upload: the store holds ${this.#bytes} bytes in use by jobs and kept plans; ${bytes} more would pass its bound of ${this.maxBytes} bytes; retry when jobs finish`,
      );
    }
    this.#entries.set(hash, { matrix, bytes, owners: new Set([tenant]), pins: 0 });
    this.#bytes += bytes;
    return { hash, bytes, stored: 'new' };
  }

  /**
   * The matrix `hash` names, when `tenant` uploaded it.
   * @throws {InvalidArgumentError} for a malformed hash, or one this tenant has not uploaded (or
   *   that was evicted): both read the same, so a tenant learns nothing of others' data.
   */
  get(fn: string, field: string, tenant: string, hash: unknown): CsrMatrix | DenseMatrix {
    if (typeof hash !== 'string' || !HASH.test(hash)) {
      throw new InvalidArgumentError(`${fn}: field ${JSON.stringify(field)} must be a content hash (64 hex digits from upload), got ${describe(hash)}`);
    }
    const e = this.#entries.get(hash);
    if (!e?.owners.has(tenant)) {
      throw new MissingDataError(
        `${fn}: field ${JSON.stringify(field)}: no data ${hash.slice(0, 12)}... for tenant ${JSON.stringify(tenant)} (never uploaded by it, or evicted since: upload it again)`,
        hash,
      );
    }
    this.#touch(hash, e);
    return e.matrix;
  }

  /** Keep `hashes` from eviction until `unpin`. */
  pin(hashes: readonly string[]): void {
    for (const h of hashes) {
      const e = this.#entries.get(h);
      if (e) e.pins++;
    }
  }

  unpin(hashes: readonly string[]): void {
    for (const h of hashes) {
      const e = this.#entries.get(h);
      if (e && e.pins > 0) e.pins--;
    }
    if (this.#bytes > this.maxBytes) this.#makeRoom(0);
  }

  /** Drop `tenant`'s claim on `hash` (the bytes go when no tenant claims them and nothing pins them). */
  release(tenant: string, hash: string): boolean {
    const e = this.#entries.get(hash);
    if (!e?.owners.delete(tenant)) return false;
    if (e.owners.size === 0 && e.pins === 0) this.#remove(hash, e);
    return true;
  }

  /** For `status`: the bytes held, the bound, how many entries were evicted, and a tenant's own entries. */
  usage(tenant?: string): { bytes: number; maxBytes: number; entries: number; evicted: number; tenantEntries?: number; tenantBytes?: number } {
    let tenantEntries = 0;
    let tenantBytes = 0;
    if (tenant !== undefined) {
      for (const e of this.#entries.values()) {
        if (e.owners.has(tenant)) {
          tenantEntries++;
          tenantBytes += e.bytes;
        }
      }
    }
    return {
      bytes: this.#bytes,
      maxBytes: this.maxBytes,
      entries: this.#entries.size,
      evicted: this.#evicted,
      ...(tenant !== undefined ? { tenantEntries, tenantBytes } : {}),
    };
  }

  #touch(hash: string, e: Entry): void {
    this.#entries.delete(hash);
    this.#entries.set(hash, e);
  }

  /** Whether `data` is a matrix this store holds (a job's memory counts only inputs it does not: job-memory.ts). */
  holds(data: unknown): boolean {
    for (const e of this.#entries.values()) if (e.matrix === data) return true;
    return false;
  }

  #remove(hash: string, e: Entry): void {
    this.#entries.delete(hash);
    this.#bytes -= e.bytes;
  }

  /** Evict least recently used, unpinned entries until `incoming` more bytes fit (or nothing more can go). */
  #makeRoom(incoming: number): void {
    if (this.#bytes + incoming <= this.maxBytes) return;
    for (const [hash, e] of this.#entries) {
      if (this.#bytes + incoming <= this.maxBytes) break;
      if (e.pins > 0) continue;
      this.#remove(hash, e);
      this.#evicted++;
    }
  }
}
