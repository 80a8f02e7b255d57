// How the client's calls become request fields: data as content hashes, a workload as it travels,
// and a job's own options (the server reads them back in request-fields.ts).

import { CsrMatrix } from '../data/csr.js';
import { DenseMatrix } from '../data/dense.js';
import { describe, InvalidArgumentError, MissingDataError } from '../errors.js';
import type { Workload } from '../workloads/definition.js';
import type { ServedData, ServedJobOptions } from './client-types.js';
import { isRecord } from './protocol.js';

const SCHEDULE_FN = 'DypeClient.schedule';

/** A call's data as it travels: content hashes, each matrix sent by `upload` (once) where it is not a hash already. */
export async function dataField(data: ServedData, upload: (m: CsrMatrix | DenseMatrix) => Promise<string>): Promise<string | Record<string, string>> {
  const one = async (m: unknown, name: string): Promise<string> => {
    if (m instanceof CsrMatrix || m instanceof DenseMatrix) return upload(m);
    if (isRecord(m) && typeof m['hash'] === 'string') return m['hash'];
    throw new InvalidArgumentError(`${SCHEDULE_FN}: data${name ? `.${name}` : ''} must be a CsrMatrix, DenseMatrix or an uploaded DataRef, got ${describe(m)}`);
  };
  if (data instanceof CsrMatrix || (isRecord(data) && typeof data['hash'] === 'string')) return one(data, '');
  if (!isRecord(data))
    throw new InvalidArgumentError(`${SCHEDULE_FN}: data must be a matrix, a DataRef or a map of input name -> matrix, got ${describe(data)}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) out[k] = await one(v, k);
  return out;
}

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

/**
 * Send a request naming `data` (matrices become hashes: `uploaded` holds those sent, `upload` sends
 * the rest); where the server no longer holds a matrix that `uploaded` says was sent (evicted
 * since), forget it, upload it again and send once more. Data the caller named by hash is not
 * retried: the server's answer stands.
 */
export async function withUploadedData<T>(
  data: readonly ServedData[],
  uploaded: WeakMap<object, Promise<string>>,
  upload: (m: CsrMatrix | DenseMatrix) => Promise<string>,
  send: (wire: (string | Record<string, string>)[]) => Promise<T>,
): Promise<T> {
  const wire = async (): Promise<(string | Record<string, string>)[]> => {
    const out: (string | Record<string, string>)[] = [];
    for (const d of data) out.push(await dataField(d, async (m) => (await uploaded.get(m)) ?? (await upload(m))));
    return out;
  };
  try {
    return await send(await wire());
  } catch (e) {
    if (!(e instanceof MissingDataError)) throw e;
    let forgotten = false;
    const forget = async (m: CsrMatrix | DenseMatrix): Promise<string> => {
      if ((await uploaded.get(m)?.catch(() => undefined)) === e.hash) forgotten = uploaded.delete(m) || forgotten;
      return '';
    };
    for (const d of data) await dataField(d, forget);
    if (!forgotten) throw e;
    return send(await wire());
  }
}
