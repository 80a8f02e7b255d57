// The mappings a decision is judged against: each device alone, a static mapping carried over
// unchanged from other data (today's hand partitioning), and HEFT with averaged costs
// (Topcuoglu et al., 2002).

import type { System } from '../devices/system.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { suggest } from '../validate.js';
import type { BoundWorkload } from '../workloads/bind.js';
import type { Choice, CostTable } from './space.js';

/**
 * A mapping independent of any one input: per operator, its devices and their shares. Plans
 * give theirs as `plan.mapping`; `translateMapping` applies it to another input.
 */
export type PortableMapping = readonly { readonly op: string; readonly devices: readonly string[]; readonly shares: readonly number[] }[];

/** The portable form of a genome. */
export function portableMapping(bound: BoundWorkload, system: System, choices: readonly (readonly Choice[])[], genome: Int32Array): PortableMapping {
  return bound.ops.map((op, i) => {
    const ch = choices[i]![genome[i]!]!;
    return { op: op.id, devices: ch.parts.map((p) => system.devices[p.device]!.name), shares: ch.parts.map((p) => p.fraction) };
  });
}

const ENTRY_FIELDS = ['op', 'devices', 'shares'];

/**
 * `value` as a portable mapping (what `plan.mapping` gives): an array of `{ op, devices, shares }`,
 * one entry an operator, its devices named once each, its shares in [0, 1] summing to 1.
 * @throws {InvalidArgumentError} naming `fn`, the option and the entry at fault.
 */
export function checkPortableMapping(fn: string, option: string, value: unknown): PortableMapping {
  const bad = (at: string, what: string, got: unknown): InvalidArgumentError => new InvalidArgumentError(`${fn}: ${option}${at} ${what}, got ${describe(got)}`);
  if (!Array.isArray(value)) throw bad('', 'must be an array of { op, devices, shares } (the form plan.mapping gives)', value);
  const ops = new Set<string>();
  value.forEach((entry: unknown, i) => {
    const at = `[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw bad(at, 'must be an object { op, devices, shares }', entry);
    const e = entry as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      if (ENTRY_FIELDS.includes(k)) continue;
      const near = suggest(k, ENTRY_FIELDS);
      throw new InvalidArgumentError(
        `${fn}: ${option}${at} has an unknown field "${k}"${near ? ` (did you mean "${near}"?)` : ''}; fields: ${ENTRY_FIELDS.join(', ')}`,
      );
    }
    if (typeof e['op'] !== 'string' || e['op'] === '') throw bad(`${at}.op`, 'must be an operator id', e['op']);
    if (ops.has(e['op'])) throw bad(`${at}.op`, 'names an operator an earlier entry already maps', e['op']);
    ops.add(e['op']);
    const devices = e['devices'];
    if (
      !Array.isArray(devices) ||
      devices.length === 0 ||
      !devices.every((d) => typeof d === 'string' && d !== '') ||
      new Set(devices).size !== devices.length
    ) {
      throw bad(`${at}.devices`, 'must be a non-empty array of distinct device names', devices);
    }
    const shares = e['shares'];
    if (!Array.isArray(shares) || shares.length !== devices.length || !shares.every((x) => typeof x === 'number' && x >= 0 && x <= 1)) {
      throw bad(`${at}.shares`, `must be ${devices.length} number(s) in [0, 1], one a device`, shares);
    }
    const total = (shares as number[]).reduce((a, b) => a + b, 0);
    if (Math.abs(total - 1) > 1e-6) throw bad(`${at}.shares`, `must sum to 1 (they sum to ${total})`, shares);
  });
  return value as PortableMapping;
}

/** Why `mapping` does not fit this workload and system (an operator it lacks or does not know, a device the system lacks); undefined where it fits. */
export function mappingMismatch(mapping: PortableMapping, bound: BoundWorkload, system: System): string | undefined {
  const ids = bound.ops.map((o) => o.id);
  const missing = ids.find((id) => !mapping.some((m) => m.op === id));
  if (missing !== undefined) return `it has no entry for operator "${missing}" (the workload's operators: ${ids.join(', ')})`;
  const names = system.devices.map((d) => d.name);
  for (const m of mapping) {
    if (!ids.includes(m.op)) return `operator "${m.op}" is not one of the workload's (${ids.join(', ')})`;
    const absent = m.devices.find((d) => !names.includes(d));
    if (absent !== undefined) return `operator "${m.op}" names device "${absent}", which this system lacks (devices: ${names.join(', ')})`;
  }
  return undefined;
}

/**
 * The genome whose choices come nearest a portable mapping: same devices in the same order, the
 * closest shares; an operator whose devices have no choice here falls back to the first device
 * that has one. Null when an operator of the mapping is missing from the workload.
 */
export function translateMapping(mapping: PortableMapping, bound: BoundWorkload, system: System, choices: readonly (readonly Choice[])[]): Int32Array | null {
  const genome = new Int32Array(bound.ops.length);
  for (let i = 0; i < bound.ops.length; i++) {
    const m = mapping.find((x) => x.op === bound.ops[i]!.id);
    if (!m) return null;
    let best = -1;
    let bestDist = Infinity;
    choices[i]!.forEach((ch, c) => {
      const names = ch.parts.map((p) => system.devices[p.device]!.name);
      if (names.join() !== m.devices.join()) return;
      const dist = ch.parts.reduce((s, p, j) => s + Math.abs(p.fraction - m.shares[j]!), 0);
      if (dist < bestDist) {
        bestDist = dist;
        best = c;
      }
    });
    if (best < 0) {
      best = choices[i]!.findIndex((ch) => ch.parts.length === 1 && m.devices.includes(system.devices[ch.parts[0]!.device]!.name));
      if (best < 0) return null;
    }
    genome[i] = best;
  }
  return genome;
}

/** Every operator whole on `device`; null when the device cannot run one of them. */
export function singleDeviceGenome(choices: readonly (readonly Choice[])[], device: number): Int32Array | null {
  const genome = new Int32Array(choices.length);
  for (let i = 0; i < choices.length; i++) {
    const c = choices[i]!.findIndex((ch) => ch.parts.length === 1 && ch.parts[0]!.device === device);
    if (c < 0) return null;
    genome[i] = c;
  }
  return genome;
}

/**
 * HEFT: rank operators by upward rank over device-averaged costs and transfer times, then give
 * each, in rank order, the single device that finishes it earliest. No splits.
 */
export function heftGenome(bound: BoundWorkload, system: System, table: CostTable): Int32Array {
  const n = bound.ops.length;
  const D = system.devices.length;
  const single = (i: number, d: number): number => {
    const c = table.choices[i]!.findIndex((ch) => ch.parts.length === 1 && ch.parts[0]!.device === d);
    return c;
  };
  const secondsOf = (i: number, c: number): number => table.partSeconds[table.partBegin[table.choiceBase[i]! + c]!]!;
  const avg = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    let k = 0;
    for (let d = 0; d < D; d++) {
      const c = single(i, d);
      if (c >= 0) {
        s += secondsOf(i, c);
        k++;
      }
    }
    avg[i] = k ? s / k : 0;
  }
  const spaces = system.memorySpaces;
  const meanComm = (bytes: number): number => {
    // average over ordered pairs of distinct devices
    let s = 0;
    let k = 0;
    for (const a of system.devices) {
      for (const b of system.devices) {
        if (a === b) continue;
        s += a.memorySpace === b.memorySpace ? 0 : system.transferSeconds(bytes, a.memorySpace, b.memorySpace);
        k++;
      }
    }
    return k ? s / k : 0;
  };
  const users: number[][] = bound.ops.map(() => []);
  bound.ops.forEach((op, i) =>
    op.operands.forEach((v) => {
      const p = bound.values[v]!.producer;
      if (p >= 0) users[p]!.push(i);
    }),
  );
  const rank = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let m = 0;
    const out = bound.values[bound.ops[i]!.output]!.bytes;
    for (const u of users[i]!) m = Math.max(m, meanComm(out) + rank[u]!);
    rank[i] = avg[i]! + m;
  }
  const order = [...Array(n).keys()].sort((a, b) => rank[b]! - rank[a]! || a - b);
  const devFree = new Float64Array(D);
  const finish = new Float64Array(n);
  const placed = new Int32Array(n).fill(-1);
  const genome = new Int32Array(n);
  for (const i of order) {
    const op = bound.ops[i]!;
    let bestEft = Infinity;
    let bestD = -1;
    let bestC = 0;
    for (let d = 0; d < D; d++) {
      const c = single(i, d);
      if (c < 0) continue;
      const space = system.devices[d]!.memorySpace;
      let ready = 0;
      for (const v of op.operands) {
        const val = bound.values[v]!;
        const from = val.producer < 0 ? spaces[0]! : system.devices[placed[val.producer]!]!.memorySpace;
        const at = val.producer < 0 ? 0 : finish[val.producer]!;
        ready = Math.max(ready, at + (from === space ? 0 : system.transferSeconds(val.bytes, from, space)));
      }
      const eft = Math.max(ready, devFree[d]!) + secondsOf(i, c);
      if (eft < bestEft) {
        bestEft = eft;
        bestD = d;
        bestC = c;
      }
    }
    placed[i] = bestD;
    finish[i] = bestEft;
    devFree[bestD] = bestEft;
    genome[i] = bestC;
  }
  return genome;
}
