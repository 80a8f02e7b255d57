// Turns the addon's coded rejections into dype's typed errors, so callers see one error family
// whether TypeScript or C++ caught the problem.

import { DypeError, InvalidArgumentError, LimitError, NativeError, UnsupportedError } from '../errors.js';

export function fromNativeError(fn: string, cause: unknown): DypeError {
  if (cause instanceof DypeError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ERR_INVALID_ARGUMENT') return new InvalidArgumentError(message, { cause });
  if (code === 'ERR_LIMIT') return new LimitError(message, { cause });
  if (code === 'ERR_UNSUPPORTED') return new UnsupportedError(message, { cause });
  return new NativeError(message.startsWith(fn) ? message : `${fn}: ${message}`, { cause });
}

/** Await a native call, rethrowing its failure as a typed dype error. */
export async function callNative<T>(fn: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (cause) {
    throw fromNativeError(fn, cause);
  }
}
