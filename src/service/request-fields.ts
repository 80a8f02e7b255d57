// The fields of a request, checked: names and types here, values by the library (which checks
// options and data as it does in-process, so a served call fails with the same typed error).

import type { CsrMatrix } from '../data/csr.js';
import type { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { resolveWorkload } from '../scheduler/schedule.js';
import { streamOf } from '../workloads/definition.js';
import type { WorkloadData } from '../workloads/bind.js';
import { isRecord } from './protocol.js';
import type { ServiceState } from './requests.js';

/** Options the server owns: a client cannot pass its own machine, model, signal, the machine's backlog, a gate or an allowance. */
const SERVER_OWNED = ['system', 'model', 'signal', 'observers', 'deviceLoss', 'backlog', 'gate', 'allowance'];

/** The workload field: a shipped workload's name, or a definition (checked by the library); its stream form where `stream` is true. */
export function workloadField(fn: string, raw: unknown, stream?: unknown): string | object {
  if (typeof raw !== 'string' && !isRecord(raw))
    throw new InvalidArgumentError(`${fn}: field "workload" must be a shipped workload's name or a workload definition map, got ${describe(raw)}`);
  if (stream === undefined || stream === false) return raw;
  if (stream !== true) throw new InvalidArgumentError(`${fn}: field "stream" must be true or false, got ${describe(stream)}`);
  return streamOf(resolveWorkload(fn, raw));
}

/** The data field: one content hash (the sparse input), or input name -> hash. Returns the data and the hashes to pin. */
export function dataField(state: ServiceState, tenant: string, fn: string, raw: unknown): { data: WorkloadData; hashes: string[] } {
  if (typeof raw === 'string') return { data: state.store.get(fn, 'data', tenant, raw) as CsrMatrix, hashes: [raw] };
  if (!isRecord(raw) || Object.keys(raw).length === 0) {
    throw new InvalidArgumentError(`${fn}: field "data" must be a content hash or a map of input name -> content hash, got ${describe(raw)}`);
  }
  const data: Record<string, CsrMatrix | DenseMatrix> = {};
  const hashes: string[] = [];
  for (const [name, h] of Object.entries(raw)) {
    data[name] = state.store.get(fn, `data.${name}`, tenant, h);
    hashes.push(h as string);
  }
  return { data, hashes };
}

/** A map of options, without the keys the server owns. */
export function optionsField(fn: string, name: string, raw: unknown, allowed?: readonly string[]): Record<string, unknown> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw new InvalidArgumentError(`${fn}: field ${JSON.stringify(name)} must be a map of options, got ${describe(raw)}`);
  for (const k of Object.keys(raw)) {
    if (SERVER_OWNED.includes(k)) throw new InvalidArgumentError(`${fn}: option "${name}.${k}" is the server's; a served call cannot set it`);
    if (allowed && !allowed.includes(k)) throw new InvalidArgumentError(`${fn}: unknown option "${name}.${k}" (known: ${allowed.join(', ')})`);
  }
  return raw;
}

function timeoutField(fn: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'number' || !(raw > 0) || raw > 86400 * 365)
    throw new InvalidArgumentError(`${fn}: field "timeout" must be seconds in (0, 31536000], got ${describe(raw)}`);
  return raw;
}

/** The arrival field: service seconds, given only where the server replays declared arrivals. */
function arrivalField(state: ServiceState, fn: string, raw: unknown): number | undefined {
  if (state.clock === 'wall') {
    if (raw === undefined) return undefined;
    throw new InvalidArgumentError(
      `${fn}: field "arrival" is for servers that replay declared arrivals (started with clock "declared"); this one stamps jobs as they come`,
    );
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || raw > 1e9)
    throw new InvalidArgumentError(
      `${fn}: field "arrival" must be service seconds in [0, 1e9] on a server that replays declared arrivals, got ${describe(raw)}`,
    );
  return raw;
}

/** The job fields of a request (`timeout`, `arrival`), checked, as a job spec's fields. */
export function jobTimes(state: ServiceState, fn: string, f: Readonly<Record<string, unknown>>): { timeout?: number; arrival?: number } {
  const timeout = timeoutField(fn, f['timeout']);
  const arrival = arrivalField(state, fn, f['arrival']);
  return { ...(timeout !== undefined ? { timeout } : {}), ...(arrival !== undefined ? { arrival } : {}) };
}

/** The devices to plan without: the caller's `exclude` and the dispatcher's (left for the library to check when not an array). */
export function mergedExclude(own: unknown, exclude: readonly string[]): unknown {
  if (exclude.length === 0) return own;
  return Array.isArray(own) ? [...new Set([...(own as string[]), ...exclude])] : own === undefined ? exclude : own;
}
