// Plans a tenant made with `schedule`, kept on the server by id so that `runPlan(plan)` runs the
// very plan the client holds (with its probes and its live problem) without planning again. A
// few per tenant, least recently used dropped first; a kept plan pins the data it was made on.

import { describe, InvalidArgumentError } from '../errors.js';
import type { Plan } from '../scheduler/schedule.js';
import type { DataStore } from './data-store.js';

export interface KeptPlan {
  readonly id: string;
  readonly tenant: string;
  readonly plan: Plan;
  readonly hashes: readonly string[];
  /** Runs using it now: it is not dropped while above 0. */
  runs: number;
}

export class PlanCache {
  readonly #plans = new Map<string, KeptPlan>();
  #next = 1;

  constructor(
    private readonly store: DataStore,
    /** Plans kept per tenant. */
    readonly perTenant = 16,
  ) {}

  /** Keep `plan` for `tenant`; returns its id. */
  keep(tenant: string, plan: Plan, hashes: readonly string[]): string {
    const id = `p${this.#next++}`;
    this.#plans.set(id, { id, tenant, plan, hashes, runs: 0 });
    this.store.pin(hashes);
    const mine = [...this.#plans.values()].filter((k) => k.tenant === tenant);
    // Oldest first (a used plan moves to the end); plans running now are kept.
    let excess = mine.length - this.perTenant;
    for (const k of mine) {
      if (excess <= 0) break;
      if (k.runs > 0) continue;
      this.#drop(k);
      excess--;
    }
    return id;
  }

  /**
   * The plan `id` of `tenant`.
   * @throws {InvalidArgumentError} for a plan of another tenant, dropped, or never made (all alike).
   */
  get(fn: string, tenant: string, id: unknown): KeptPlan {
    const k = typeof id === 'string' ? this.#plans.get(id) : undefined;
    if (!k || k.tenant !== tenant) {
      throw new InvalidArgumentError(
        `${fn}: field "plan": no kept plan ${describe(id)} for tenant ${JSON.stringify(tenant)} (plans are kept ${this.perTenant} per tenant; schedule again)`,
      );
    }
    this.#plans.delete(k.id);
    this.#plans.set(k.id, k);
    return k;
  }

  pin(k: KeptPlan): void {
    k.runs++;
  }

  unpin(k: KeptPlan): void {
    k.runs--;
  }

  /** Forget every plan of `tenant` (when the tenant leaves the policy). */
  dropTenant(tenant: string): void {
    for (const k of this.#plans.values()) if (k.tenant === tenant && k.runs === 0) this.#drop(k);
  }

  count(tenant: string): number {
    let n = 0;
    for (const k of this.#plans.values()) if (k.tenant === tenant) n++;
    return n;
  }

  #drop(k: KeptPlan): void {
    this.#plans.delete(k.id);
    this.store.unpin(k.hashes);
  }
}
