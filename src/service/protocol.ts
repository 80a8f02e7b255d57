// The messages of `dype serve` and their checks. A connection opens with `hello` (protocol
// version, client version, token) answered by `welcome` or an error frame; then every request
// carries an `id` chosen by the client and gets exactly one reply with that id: `result` or
// `error`. Errors travel as their dype class name, code and message and are rebuilt as the same
// classes on the client.

import {
  AbortedError,
  AccessError,
  DypeError,
  type DypeErrorCode,
  ExecutionError,
  FormatError,
  InfeasibleError,
  InvalidArgumentError,
  IoError,
  LimitError,
  MissingDataError,
  NativeError,
  OperatorError,
  SessionClosedError,
  UnsupportedError,
  describe,
  DistributedError,
} from '../errors.js';
import { suggest } from '../validate.js';

/** Bumped whenever a message changes shape; client and server must agree exactly. */
export const PROTOCOL_VERSION = 1;

/** Requests a client may send after the handshake. */
export const REQUEST_TYPES = [
  'upload',
  'reserve',
  'close-regions',
  'schedule',
  'explore',
  'run',
  'stream',
  'system',
  'status',
  'cancel',
  'release',
  'lease',
  'lease-done',
  'lease-hold',
] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** Largest request id (ids are unsigned 32-bit, reused freely once answered). */
export const MAX_REQUEST_ID = 2 ** 32 - 1;

export interface Hello {
  readonly type: 'hello';
  readonly protocol: number;
  /** The client's dype version (informative: the protocol version decides). */
  readonly client: string;
  readonly token: string;
}

export interface Welcome {
  readonly type: 'welcome';
  readonly protocol: number;
  readonly server: string;
  readonly tenant: string;
  readonly maxFrameBytes: number;
  /** Present when this client may upload through shared memory (`reserve`, then `upload` naming the region). */
  readonly sharedMemory?: true;
}

/** An error as it travels: enough to rebuild the same class on the other side. */
export interface WireError {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly operator?: string;
  readonly device?: string;
  /** A MissingDataError's content hash. */
  readonly missing?: string;
}

export type Reply =
  | { readonly type: 'result'; readonly id: number; readonly result: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: WireError };

/** A request after its envelope was checked: its type, id and the rest of its fields. */
export interface Envelope {
  readonly type: RequestType;
  readonly id: number;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Whether `v` is an object made of plain fields (what msgpack maps decode to). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Check a request's envelope: a map with a known `type` and an integer `id`.
 * @throws {InvalidArgumentError} naming the field; `id` is reported when it could be read, so the
 *   client can match even a refused request.
 */
export function checkEnvelope(message: unknown): Envelope {
  const fn = 'serve';
  if (!isRecord(message)) throw new RequestError(0, new InvalidArgumentError(`${fn}: a request must be a msgpack map, got ${describe(message)}`));
  const { type, id, ...fields } = message;
  const readId = typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= MAX_REQUEST_ID ? id : 0;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > MAX_REQUEST_ID) {
    throw new RequestError(0, new InvalidArgumentError(`${fn}: field "id" must be an integer in [0, ${MAX_REQUEST_ID}], got ${describe(id)}`));
  }
  if (typeof type !== 'string' || !(REQUEST_TYPES as readonly string[]).includes(type)) {
    const hint = typeof type === 'string' ? suggest(type, REQUEST_TYPES) : undefined;
    throw new RequestError(
      readId,
      new InvalidArgumentError(
        `${fn}: request ${readId}: field "type" must be one of ${REQUEST_TYPES.join(', ')}, got ${describe(type)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
      ),
    );
  }
  return { type: type as RequestType, id, fields };
}

/** A refusal tied to a request id, so the reply reaches the request that caused it. */
export class RequestError extends Error {
  constructor(
    readonly id: number,
    readonly error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Check a request's fields: `required` must be present, nothing outside `required` and
 * `optional` may be (misspellings get a suggestion).
 * @throws {InvalidArgumentError} `serve.<type>: ...` naming the field.
 */
export function checkFields(fn: string, fields: Readonly<Record<string, unknown>>, required: readonly string[], optional: readonly string[]): void {
  const known = [...required, ...optional];
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) {
      const hint = suggest(key, known);
      throw new InvalidArgumentError(
        `${fn}: unknown field ${JSON.stringify(key)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : known.length ? ` (known fields: ${known.join(', ')})` : ' (this request takes no fields)'}`,
      );
    }
  }
  for (const key of required) {
    if (fields[key] === undefined) throw new InvalidArgumentError(`${fn}: field ${JSON.stringify(key)} is missing`);
  }
}

/** A string field (non-empty, bounded). */
export function stringField(fn: string, name: string, value: unknown, maxLength = 4096): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    throw new InvalidArgumentError(
      `${fn}: field ${JSON.stringify(name)} must be a non-empty string of at most ${maxLength} characters, got ${describe(value)}`,
    );
  }
  return value;
}

/** The wire form of anything thrown while serving a request. Errors that are not dype's are reported without their internals. */
export function wireError(e: unknown): WireError {
  if (e instanceof DypeError) {
    return {
      name: e.name,
      code: e.code,
      message: e.message,
      ...(e instanceof ExecutionError || e instanceof OperatorError ? { operator: e.operator } : {}),
      ...(e instanceof ExecutionError ? { device: e.device } : {}),
      ...(e instanceof MissingDataError ? { missing: e.hash } : {}),
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { name: 'ExecutionError', code: 'ERR_EXECUTION', message: `serve: the request failed: ${message}` };
}

const CODES: Readonly<Record<string, (w: WireError) => DypeError>> = {
  ERR_INVALID_ARGUMENT: (w) => (typeof w.missing === 'string' ? new MissingDataError(w.message, w.missing) : new InvalidArgumentError(w.message)),
  ERR_FORMAT: (w) => Object.assign(new FormatError('serve', '<frame>', 0, ''), { message: w.message }),
  ERR_UNSUPPORTED: (w) => new UnsupportedError(w.message),
  ERR_LIMIT: (w) => new LimitError(w.message),
  ERR_NATIVE: (w) => new NativeError(w.message),
  ERR_IO: (w) => Object.assign(new IoError('serve', '', w.message), { message: w.message }),
  ERR_INFEASIBLE: (w) => new InfeasibleError(w.message),
  ERR_EXECUTION: (w) => new ExecutionError(w.operator ?? '', w.device ?? '', w.message),
  ERR_ABORTED: (w) => new AbortedError(w.message),
  ERR_CLOSED: (w) => new SessionClosedError(w.message),
  ERR_OPERATOR: (w) => new OperatorError(w.operator ?? '', w.message),
  ERR_ACCESS: (w) => new AccessError(w.message),
  ERR_DISTRIBUTED: (w) => new DistributedError(w.message),
} satisfies Record<DypeErrorCode, (w: WireError) => DypeError>;

/** The dype error a wire error stands for (same class and code; the message is the server's). */
export function reviveError(raw: unknown): DypeError {
  if (!isRecord(raw) || typeof raw['code'] !== 'string' || typeof raw['message'] !== 'string') {
    return new FormatError('connect', '<frame>', 0, `the server sent a malformed error: ${describe(raw)}`);
  }
  const w = raw as unknown as WireError;
  const make = CODES[w.code];
  return make ? make(w) : new ExecutionError('', '', w.message);
}
