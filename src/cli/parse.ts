// Flag parsing on top of node:util's strict parseArgs, with "did you mean" for unknown flags
// and typed number conversion, so every command rejects bad input the same way.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { suggest } from '../validate.js';
import { UsageError } from './usage-error.js';

export type Options = NonNullable<ParseArgsConfig['options']>;
/** Parsed flags: a string, a boolean, or a list for flags marked `multiple`. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;
type FlagValue = FlagValues[string];

/**
 * Library option names that the flags spell differently: a user who knows `schedule(..., {
 * policy: 'min-time' })` types `--policy` (or `--polcy`), which no flag is close to.
 */
const LIBRARY_NAMES: Record<string, { readonly flag: string; readonly note: string }> = {
  policy: { flag: 'objective', note: "the library's policy 'min-time', 'min-energy' or 'min-edp' is --objective time, energy or edp" },
};

export function parseFlags<T extends Options>(
  command: string,
  argv: readonly string[],
  options: T,
  allowPositionals = false,
): { values: FlagValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals });
    return { values: values as FlagValues, positionals };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message);
    if (unknown) {
      const flag = unknown[1]!;
      const name = flag.replace(/^-+/, '');
      const hint = suggest(name, Object.keys(options));
      const library = hint === undefined ? suggest(name, Object.keys(LIBRARY_NAMES)) : undefined;
      const renamed = library !== undefined && LIBRARY_NAMES[library]!.flag in options ? LIBRARY_NAMES[library] : undefined;
      const advice = hint ? ` (did you mean --${hint}?)` : renamed ? ` (did you mean --${renamed.flag}? ${renamed.note})` : '';
      throw new UsageError(`${command}: unknown option ${flag}${advice}; see dype ${command} --help`);
    }
    // `--deadline -1ms`: parseArgs refuses a value that starts with a dash in three lines of
    // its own wording; one line naming the flag and the value, and how to pass it, instead.
    const ambiguous = /Option '(-{1,2}[^']+)' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const flag = ambiguous[1]!;
      const value = argv[argv.indexOf(flag) + 1] ?? '';
      throw new UsageError(
        `${command}: ${flag} takes a value, and ${JSON.stringify(value)} after it starts with a dash, so it reads as an option; write ${flag}=${value} to pass it as the value`,
      );
    }
    // `dype explore --data` at the end of the line: "Option '--data <value>' argument missing".
    const missing = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
    if (missing) throw new UsageError(`${command}: ${missing[1]} needs a value; see dype ${command} --help`);
    throw new UsageError(`${command}: ${message.replace(/\. To specify.*$/s, '')}`);
  }
}

export function intFlag(command: string, name: string, raw: FlagValue, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const v = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    throw new UsageError(`${command}: --${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  }
  return v;
}

export function choiceFlag<T extends string>(command: string, name: string, raw: FlagValue, fallback: T, choices: readonly T[]): T {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !(choices as readonly string[]).includes(raw)) {
    const hint = typeof raw === 'string' ? suggest(raw, choices) : undefined;
    throw new UsageError(`${command}: --${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(raw)}${hint ? ` (did you mean ${hint}?)` : ''}`);
  }
  return raw as T;
}
