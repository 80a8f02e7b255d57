// The typed error family every dype entry point throws. Messages start with the name of the
// function that refused the input, so a one-line error tells the user where to look.

/** Stable, machine-readable error codes (part of the public API). */
export type DypeErrorCode =
  | 'ERR_INVALID_ARGUMENT'
  | 'ERR_FORMAT'
  | 'ERR_UNSUPPORTED'
  | 'ERR_LIMIT'
  | 'ERR_NATIVE'
  | 'ERR_IO'
  | 'ERR_INFEASIBLE'
  | 'ERR_EXECUTION'
  | 'ERR_ABORTED'
  | 'ERR_CLOSED'
  | 'ERR_OPERATOR'
  | 'ERR_ACCESS'
  | 'ERR_DISTRIBUTED';

/**
 * Base class of every error dype throws on purpose. Check `code` rather than the message.
 *
 * @example
 * try { await loadMatrixMarket('bad.mtx'); }
 * catch (e) { if (e instanceof DypeError && e.code === 'ERR_FORMAT') console.error(e.message); }
 */
export class DypeError extends Error {
  readonly code: DypeErrorCode;

  constructor(code: DypeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  override get name(): string {
    return this.constructor.name;
  }
}

/** A function was called with a value of the wrong type, shape or range. */
export class InvalidArgumentError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_INVALID_ARGUMENT', message, options);
  }
}

/**
 * A request to `dype serve` named data (by content hash) that the server does not hold for this
 * tenant: never uploaded by it, or evicted since (the two read the same). A client that uploaded
 * the matrix itself uploads it again and retries once.
 */
export class MissingDataError extends InvalidArgumentError {
  /** The content hash the request named. */
  readonly hash: string;

  constructor(message: string, hash: string, options?: { cause?: unknown }) {
    super(message, options);
    this.hash = hash;
  }
}

/** A file or buffer does not follow its format. Carries the source name and 1-based line. */
export class FormatError extends DypeError {
  /** File path, or a label such as `<buffer>` for in-memory input. */
  readonly file: string;
  /** 1-based line number where the problem was found (0 when it is not tied to a line). */
  readonly line: number;

  constructor(fn: string, file: string, line: number, detail: string, options?: { cause?: unknown }) {
    super('ERR_FORMAT', `${fn}: ${file}${line > 0 ? `:${line}` : ''}: ${detail}`, options);
    this.file = file;
    this.line = line;
  }
}

/** The request is well formed but dype does not support it (yet, or on this machine). */
export class UnsupportedError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_UNSUPPORTED', message, options);
  }
}

/** A size or memory budget would be exceeded; refused before allocating. */
export class LimitError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_LIMIT', message, options);
  }
}

/** The native addon failed, could not be loaded, or reported a fault in its input. */
export class NativeError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_NATIVE', message, options);
  }
}

/** Reading or writing a file failed at the operating-system level. */
export class IoError extends DypeError {
  readonly path: string;
  constructor(fn: string, path: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('ERR_IO', `${fn}: cannot access ${JSON.stringify(path)}: ${detail}`, { cause });
    this.path = path;
  }
}

/** Short, bounded rendering of an offending value for error messages. */
export function describe(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (ArrayBuffer.isView(value)) {
    return `${value.constructor.name}(${(value as unknown as { length?: number }).length ?? value.byteLength})`;
  }
  if (Array.isArray(value)) return `Array(${value.length})`;
  const ctor = (value as object).constructor;
  return ctor && ctor !== Object ? `${ctor.name} object` : 'object';
}

/**
 * No mapping satisfies the constraints (memory, deadline, energy budget, excluded devices). The
 * message names the constraint that ruled the mappings out and the nearest miss.
 */
export class InfeasibleError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_INFEASIBLE', message, options);
  }
}

/** An operator failed while a plan ran. Names the operator and device; `cause` holds the original error. */
export class ExecutionError extends DypeError {
  constructor(
    readonly operator: string,
    readonly device: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_EXECUTION', message, options);
  }
}

/** Work was cancelled through an `AbortSignal` before it produced its result; `cause` is the signal's reason. */
export class AbortedError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_ABORTED', message, options);
  }
}

/** A call on something already closed (an imperative session after `close()`). */
export class SessionClosedError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_CLOSED', message, options);
  }
}

/**
 * A user-defined operator's own code misbehaved: an implementation or reference threw or returned
 * a value of the wrong shape, or its cost was not a finite non-negative number. Names the operator;
 * `cause` holds what its code threw.
 */
export class OperatorError extends DypeError {
  constructor(
    readonly operator: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_OPERATOR', message, options);
  }
}

/**
 * A request to `dype serve` was refused for who made it, not for what it asked: an unknown or
 * missing token, or a job of another tenant. (Data of another tenant is reported as unknown, with
 * an {@link InvalidArgumentError}, so that a tenant cannot learn what others uploaded.)
 */
export class AccessError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_ACCESS', message, options);
  }
}

/** A distributed run's communication failed (an MPI call returned an error, or a rank is gone). */
export class DistributedError extends DypeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_DISTRIBUTED', message, options);
  }
}
