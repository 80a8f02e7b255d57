// Command-line usage errors: exit code 2 and a one-line message, as opposed to failures (1).

import { DypeError } from '../errors.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Exit code and one-line message for anything a command threw. */
export function describeFailure(e: unknown, verbose: boolean): { code: number; message: string } {
  if (e instanceof UsageError) return { code: EXIT_USAGE, message: `dype: ${e.message}` };
  if (e instanceof DypeError && e.code === 'ERR_INVALID_ARGUMENT') {
    return { code: EXIT_USAGE, message: `dype: ${e.message}${verbose && e.stack ? `\n${e.stack}` : ''}` };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { code: EXIT_FAILURE, message: `dype: ${err.message}${verbose && err.stack ? `\n${err.stack}` : ''}` };
}
