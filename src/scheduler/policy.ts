// Policies: how one point is picked from the Pareto front. Each is a rule over the feasible
// front's metrics; the constraints (deadline, energy budget, memory) were applied before.

import { InvalidArgumentError, describe } from '../errors.js';
import { suggest } from '../validate.js';
import type { Objective } from './evaluate.js';

/**
 * - `min-time`, `min-energy`: the fastest, the most frugal (ties broken by the other).
 * - `min-edp`: least energy x delay.
 * - `fastest-within-budget`: the fastest whose energy fits `energyBudget` (required).
 * - `frugal-within-deadline`: the most frugal that finishes by `deadline` (required).
 * - `{ weights }`: least weighted sum of the objectives, each scaled to [0, 1] over the front.
 */
export type Policy =
  | 'min-time'
  | 'min-energy'
  | 'min-edp'
  | 'fastest-within-budget'
  | 'frugal-within-deadline'
  | { readonly weights: Readonly<Partial<Record<Objective, number>>> };

export const POLICY_NAMES = ['min-time', 'min-energy', 'min-edp', 'fastest-within-budget', 'frugal-within-deadline'] as const;

/** What a policy reads of each candidate. */
export interface Candidate {
  readonly time: number;
  readonly energy: number;
  readonly memory: number;
  readonly latency: number;
}

export function checkPolicy(fn: string, policy: unknown, has: { deadline: boolean; energyBudget: boolean }): Policy {
  if (typeof policy === 'string') {
    if (!(POLICY_NAMES as readonly string[]).includes(policy)) {
      const hint = suggest(policy, POLICY_NAMES);
      throw new InvalidArgumentError(
        `${fn}: unknown policy ${JSON.stringify(policy)}` +
          (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (policies: ${POLICY_NAMES.join(', ')}, or { weights })`),
      );
    }
    if (policy === 'fastest-within-budget' && !has.energyBudget)
      throw new InvalidArgumentError(`${fn}: policy "fastest-within-budget" needs the energyBudget option`);
    if (policy === 'frugal-within-deadline' && !has.deadline)
      throw new InvalidArgumentError(`${fn}: policy "frugal-within-deadline" needs the deadline option`);
    return policy as Policy;
  }
  if (policy !== null && typeof policy === 'object' && !Array.isArray(policy) && Object.keys(policy).join() === 'weights') {
    const w = (policy as { weights: unknown }).weights;
    if (w === null || typeof w !== 'object' || Array.isArray(w)) throw new InvalidArgumentError(`${fn}: policy.weights must be an object, got ${describe(w)}`);
    let total = 0;
    for (const [k, v] of Object.entries(w)) {
      if (!['time', 'energy', 'memory', 'latency'].includes(k)) {
        const hint = suggest(k, ['time', 'energy', 'memory', 'latency']);
        throw new InvalidArgumentError(
          `${fn}: policy.weights has unknown objective ${JSON.stringify(k)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''),
        );
      }
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw new InvalidArgumentError(`${fn}: policy.weights.${k} must be a number >= 0, got ${describe(v)}`);
      total += v;
    }
    if (total <= 0) throw new InvalidArgumentError(`${fn}: policy.weights must give some objective a positive weight`);
    return policy as Policy;
  }
  throw new InvalidArgumentError(`${fn}: policy must be one of ${POLICY_NAMES.join(', ')} or { weights: {...} }, got ${describe(policy)}`);
}

/** A short name of a policy, for tables and explanations. */
export function policyName(policy: Policy): string {
  if (typeof policy === 'string') return policy;
  return `weighted (${Object.entries(policy.weights)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')})`;
}

/** Index of the candidate the policy picks; -1 when there is none. */
export function pick(policy: Policy, candidates: readonly Candidate[]): number {
  let best = -1;
  let bestKey = [Infinity, Infinity];
  const keyOf = policyKey(policy, candidates);
  candidates.forEach((c, i) => {
    const k = keyOf(c);
    if (k[0]! < bestKey[0]! || (k[0] === bestKey[0] && k[1]! < bestKey[1]!)) {
      best = i;
      bestKey = k;
    }
  });
  return best;
}

/** The quantity a policy minimises (first element; the second breaks ties). */
export function policyKey(policy: Policy, candidates: readonly Candidate[]): (c: Candidate) => number[] {
  switch (policy) {
    case 'min-time':
    case 'fastest-within-budget':
      return (c) => [c.time, c.energy];
    case 'min-energy':
    case 'frugal-within-deadline':
      return (c) => [c.energy, c.time];
    case 'min-edp':
      return (c) => [c.time * c.energy, c.time];
    default: {
      const objs = Object.entries(policy.weights) as [Objective, number][];
      const lo: Record<string, number> = {};
      const hi: Record<string, number> = {};
      for (const [o] of objs) {
        lo[o] = Math.min(...candidates.map((c) => c[o]));
        hi[o] = Math.max(...candidates.map((c) => c[o]));
      }
      return (c) => [objs.reduce((s, [o, w]) => s + w * (hi[o]! > lo[o]! ? (c[o] - lo[o]!) / (hi[o]! - lo[o]!) : 0), 0), c.time];
    }
  }
}
