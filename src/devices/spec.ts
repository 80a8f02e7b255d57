// Device spec files: every parameter a backend reads is a number with its unit and its source
// (spec sheet, paper, measurement or a marked assumption), loaded from devices/<backend>/ and
// validated against the backend's own table of parameters.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, FormatError, InvalidArgumentError } from '../errors.js';
import { packageRoot } from '../native/addon.js';
import { suggest } from '../validate.js';
import type { DeviceSpec, SpecParam } from './device.js';

/** What a backend accepts for one parameter. */
export interface ParamRule {
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
  readonly unit: string;
  readonly description: string;
}
export type ParamRules = Readonly<Record<string, ParamRule>>;

/** Folder of the shipped spec files of a backend. */
export function specFolder(backend: string): string {
  return join(packageRoot, 'devices', backend);
}

/** Names of the profiles shipped for a backend (`devices/<backend>/<name>.json`). */
export function shippedProfiles(backend: string): string[] {
  const dir = specFolder(backend);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/**
 * Load a shipped profile by name.
 * @throws {InvalidArgumentError} when no such profile exists (with a suggestion).
 * @throws {FormatError} when the file is malformed or a parameter breaks the backend's rules.
 */
export function loadProfile(fn: string, backend: string, profile: string, rules: ParamRules): DeviceSpec {
  const names = shippedProfiles(backend);
  if (!names.includes(profile)) {
    const hint = suggest(profile, names);
    throw new InvalidArgumentError(
      `${fn}: ${backend} has no profile ${JSON.stringify(profile)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (profiles: ${names.join(', ')})`),
    );
  }
  const file = join(specFolder(backend), `${profile}.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new FormatError(fn, file, 0, `not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
  return parseSpec(fn, file, raw, rules);
}

/** Validate a spec object: `{ name, description, params: { key: { value, unit, source } } }`. */
export function parseSpec(fn: string, file: string, raw: unknown, rules: ParamRules): DeviceSpec {
  const bad = (detail: string): never => {
    throw new FormatError(fn, file, 0, detail);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) bad(`a device spec must be an object, got ${describe(raw)}`);
  const r = raw as Record<string, unknown>;
  if (typeof r['name'] !== 'string' || r['name'] === '') bad('name must be a non-empty string');
  if (typeof r['description'] !== 'string') bad('description must be a string');
  const p = r['params'];
  if (p === null || typeof p !== 'object' || Array.isArray(p)) bad('params must be an object');
  const params: Record<string, SpecParam> = {};
  for (const [key, entry] of Object.entries(p as Record<string, unknown>)) {
    if (!(key in rules)) {
      const hint = suggest(key, Object.keys(rules));
      bad(`params.${key} is not a parameter of this backend${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`);
    }
    if (entry === null || typeof entry !== 'object') bad(`params.${key} must be { value, unit, source }`);
    const e = entry as Record<string, unknown>;
    if (typeof e['source'] !== 'string' || e['source'].trim() === '') bad(`params.${key}.source must say where the number comes from`);
    params[key] = { value: checkParam(fn, file, key, e['value'], rules[key]!), unit: rules[key]!.unit, source: e['source'] as string };
  }
  for (const key of Object.keys(rules)) if (!(key in params)) bad(`params.${key} is missing`);
  return { name: r['name'] as string, description: r['description'] as string, params };
}

/**
 * Apply a system file's `overrides` ({ key: number }) on top of a spec; each is sourced to the
 * file. `field` locates the overrides in the file for error messages (e.g. `devices[2]`).
 */
export function overrideSpec(fn: string, where: string, field: string, spec: DeviceSpec, overrides: unknown, rules: ParamRules): DeviceSpec {
  if (overrides === undefined) return spec;
  if (overrides === null || typeof overrides !== 'object' || Array.isArray(overrides)) {
    throw new FormatError(fn, where, 0, `${field}.overrides: must be an object of numbers, got ${describe(overrides)}`);
  }
  const params: Record<string, SpecParam> = { ...spec.params };
  for (const [key, value] of Object.entries(overrides as Record<string, unknown>)) {
    if (!(key in rules)) {
      const hint = suggest(key, Object.keys(rules));
      throw new FormatError(
        fn,
        where,
        0,
        `${field}.overrides.${key} is not a parameter of this backend${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
      );
    }
    params[key] = {
      value: checkParam(fn, where, `${field}.overrides.${key}`, value, rules[key]!),
      unit: rules[key]!.unit,
      source: `override in ${where} ${field}`,
    };
  }
  return { ...spec, params };
}

function checkParam(fn: string, file: string, key: string, value: unknown, rule: ParamRule): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new FormatError(fn, file, 0, `${key} must be a finite number, got ${describe(value)}`);
  }
  if (rule.integer === true && !Number.isInteger(value)) throw new FormatError(fn, file, 0, `${key} must be an integer, got ${value}`);
  if (value < rule.min || value > rule.max) {
    throw new FormatError(fn, file, 0, `${key} = ${value} is outside [${rule.min}, ${rule.max}] ${rule.unit}`);
  }
  return value;
}

/** The spec's values as a plain record, for handing to a native simulator. */
export function specValues(spec: DeviceSpec): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, p] of Object.entries(spec.params)) out[k] = p.value;
  return out;
}
