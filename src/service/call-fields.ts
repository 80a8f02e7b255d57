// How the client's calls become request fields: a workload as it travels, and a job's own
// options (the server reads them back in request-fields.ts).

import type { Workload } from '../workloads/definition.js';
import type { ServedJobOptions } from './client-types.js';
import { isRecord } from './protocol.js';

/** The request fields of a job's own options. */
export function jobFields(options: ServedJobOptions): { timeout?: number; arrival?: number; key?: string } {
  const { timeout, arrival, key } = options;
  return { ...(timeout !== undefined ? { timeout } : {}), ...(arrival !== undefined ? { arrival } : {}), ...(key !== undefined ? { key } : {}) };
}

/**
 * A workload as it travels: a shipped name (`stream:NAME` for a stream form), or its definition,
 * with `stream: true` beside it for the stream form of a bound workload.
 */
export function workloadFields(w: Workload | string | object): { workload: string | object; stream?: true } {
  if (typeof w === 'string') return { workload: w };
  const definition = (w as { definition?: unknown }).definition;
  if (definition !== undefined && isRecord(definition) && 'order' in w)
    return { workload: definition, ...((w as Workload).stream === true ? { stream: true as const } : {}) };
  return { workload: w };
}
