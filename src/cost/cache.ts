// The on-disk calibration cache: one msgpack file per machine fingerprint and model version,
// written atomically, checksummed, and read back as valid / missing / stale / corrupted.

import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { Packr } from 'msgpackr';
import { describe, InvalidArgumentError, IoError, LimitError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { checkInt } from '../validate.js';

export { machineFingerprint, type MachineFingerprint } from './machine-fingerprint.js';

/** Identifies a dype calibration file among other msgpack files. */
export const CALIBRATION_MAGIC = 'dype-calibration';
/** Version of the envelope layout below (not of the cost model: that is `modelVersion`). */
export const CALIBRATION_FORMAT_VERSION = 1;
/** Largest calibration file read or written; anything bigger is not one of ours. */
export const MAX_CALIBRATION_BYTES = 256 * 2 ** 20;

/** Which calibration: the cost model's version and the machine it was measured on. */
export interface CalibrationMeta {
  /** Bumped whenever the cost model's terms change, so old coefficients are not reused. */
  readonly modelVersion: number;
  /** From {@link machineFingerprint}. Letters, digits, `-` and `_` (it is part of a file name). */
  readonly fingerprint: string;
}

/** What {@link readCalibration} found. Only `valid` carries a payload. */
export type CalibrationRead =
  | { readonly state: 'valid'; readonly payload: unknown; readonly path: string; readonly createdAt: Date }
  | { readonly state: 'missing'; readonly path: string }
  /** Well formed, but for another model version, machine or envelope format: rebuild. */
  | { readonly state: 'stale'; readonly path: string; readonly reason: string }
  /** Damaged or not a calibration file at all: never trusted, rebuild. */
  | { readonly state: 'corrupted'; readonly path: string; readonly reason: string };

interface Envelope {
  readonly magic: string;
  readonly formatVersion: number;
  readonly modelVersion: number;
  readonly fingerprint: string;
  readonly createdAt: string;
  readonly payloadSha256: string;
  /** The caller's object, msgpack-encoded on its own so the checksum covers exactly these bytes. */
  readonly payload: Uint8Array;
}

const FINGERPRINT_RE = /^[A-Za-z0-9_-]{1,64}$/;
const FILE_RE = /^calibration-([A-Za-z0-9_-]{1,64})-v(\d+)\.msgpack$/;

/**
 * A fresh codec per call: a Packr with records keeps structure state between calls, and one
 * hostile file must not be able to influence how the next is read or written.
 */
function codec(): Packr {
  return new Packr({ moreTypes: true });
}

/**
 * The folder calibrations live in: `$DYPE_CACHE_DIR` if set (resolved against the working
 * directory), else `$XDG_CACHE_HOME/dype` if that is an absolute path (the XDG spec says to
 * ignore relative ones), else `~/.cache/dype`. Read from the environment on every call.
 *
 * @example
 * calibrationDir(); // '/home/ada/.cache/dype'
 */
export function calibrationDir(): string {
  const own = process.env['DYPE_CACHE_DIR'];
  if (own) return resolve(own);
  const xdg = process.env['XDG_CACHE_HOME'];
  if (xdg && isAbsolute(xdg)) return join(xdg, 'dype');
  return join(homedir(), '.cache', 'dype');
}

/**
 * Where the calibration for `meta` is stored. The fingerprint is in the name so machines that
 * share a home folder (cluster nodes over NFS) keep one file each; the model version is in it
 * so two dype installs of different versions on one machine do not overwrite each other.
 *
 * @throws {InvalidArgumentError} for a bad `meta`.
 * @example
 * calibrationPath({ modelVersion: 3, fingerprint: '3f9a0c1d2e4b5a67' });
 * // '/home/ada/.cache/dype/calibration-3f9a0c1d2e4b5a67-v3.msgpack'
 */
export function calibrationPath(meta: CalibrationMeta): string {
  const m = checkMeta('calibrationPath', meta);
  return join(calibrationDir(), fileName(m));
}

/**
 * Store `payload` (anything msgpack with `moreTypes` encodes: objects, arrays, typed arrays,
 * Maps, Dates...) as the calibration for `meta`. Written to a temporary file in the same
 * folder, flushed to disk, then renamed over the old file, so a reader sees the old file or
 * the new one, never a mixture; a failed write leaves no temporary file behind.
 *
 * @returns the path written.
 * @throws {InvalidArgumentError} for a bad `meta`, or a payload msgpack cannot encode.
 * @throws {LimitError} when the encoded payload exceeds {@link MAX_CALIBRATION_BYTES}.
 * @throws {IoError} when the folder or file cannot be written.
 * @example
 * const { fingerprint } = machineFingerprint();
 * await writeCalibration({ coefficients: Float64Array.of(2e-6, 1e-9) }, { modelVersion: 1, fingerprint });
 */
export async function writeCalibration(payload: unknown, meta: CalibrationMeta): Promise<string> {
  const fn = 'writeCalibration';
  const m = checkMeta(fn, meta);
  let bytes: Uint8Array;
  try {
    bytes = codec().pack(payload);
  } catch (cause) {
    throw new InvalidArgumentError(`${fn}: the payload cannot be encoded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (bytes.length > MAX_CALIBRATION_BYTES) {
    throw new LimitError(`${fn}: the encoded payload is ${bytes.length} bytes, more than the ${MAX_CALIBRATION_BYTES} a calibration may be`);
  }
  const envelope: Envelope = {
    magic: CALIBRATION_MAGIC,
    formatVersion: CALIBRATION_FORMAT_VERSION,
    modelVersion: m.modelVersion,
    fingerprint: m.fingerprint,
    createdAt: new Date().toISOString(),
    payloadSha256: sha256(bytes),
    payload: bytes,
  };
  const file = codec().pack(envelope);
  const dir = calibrationDir();
  const path = join(dir, fileName(m));
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new IoError(fn, path, cause);
  }
  await writeFileAtomic(fn, path, file, { mode: 0o600 });
  return path;
}

/**
 * Read the calibration for `meta`. A damaged, foreign or outdated file is reported, not
 * thrown, so the caller rebuilds it; nothing from a `corrupted` or `stale` file is returned.
 * `stale` also covers a missing file when the same machine has a calibration for another
 * model version (its path is given, so the caller may remove it).
 *
 * @throws {InvalidArgumentError} for a bad `meta`.
 * @throws {IoError} for a failure to read other than the file not existing (e.g. permission).
 * @example
 * const found = await readCalibration({ modelVersion: 1, fingerprint });
 * if (found.state !== 'valid') console.warn(`recalibrating: ${found.state}`);
 */
export async function readCalibration(meta: CalibrationMeta): Promise<CalibrationRead> {
  const fn = 'readCalibration';
  const m = checkMeta(fn, meta);
  const dir = calibrationDir();
  const path = join(dir, fileName(m));
  const bytes = await readBounded(fn, path);
  if (bytes === undefined) return (await otherVersion(fn, dir, m)) ?? { state: 'missing', path };
  if (bytes === 'too-large') {
    return { state: 'corrupted', path, reason: `larger than the ${MAX_CALIBRATION_BYTES} bytes a calibration may be` };
  }
  return decode(bytes, m, path);
}

/**
 * Delete a calibration file (e.g. a `stale` or `corrupted` one); nothing happens if it is
 * already gone. Only file names this module writes are accepted, so a wrong path cannot delete
 * anything else.
 *
 * @throws {InvalidArgumentError} when `path` does not name a calibration file.
 * @throws {IoError} when the file exists but cannot be removed.
 * @example
 * const found = await readCalibration(meta);
 * if (found.state === 'corrupted') await removeCalibration(found.path);
 */
export async function removeCalibration(path: string): Promise<void> {
  const fn = 'removeCalibration';
  if (typeof path !== 'string' || !FILE_RE.test(basename(path))) {
    throw new InvalidArgumentError(`${fn}: ${describe(path)} is not a calibration file path (calibration-<fingerprint>-v<N>.msgpack)`);
  }
  try {
    await rm(path, { force: true });
  } catch (cause) {
    throw new IoError(fn, path, cause);
  }
}

function checkMeta(fn: string, meta: unknown): CalibrationMeta {
  if (meta === null || typeof meta !== 'object') throw new InvalidArgumentError(`${fn}: meta must be an object, got ${describe(meta)}`);
  const { modelVersion, fingerprint } = meta as Record<string, unknown>;
  checkInt(fn, 'meta.modelVersion', modelVersion, 0);
  if (typeof fingerprint !== 'string' || !FINGERPRINT_RE.test(fingerprint)) {
    throw new InvalidArgumentError(`${fn}: meta.fingerprint must be 1 to 64 letters, digits, '-' or '_', got ${describe(fingerprint)}`);
  }
  return { modelVersion: modelVersion as number, fingerprint };
}

function fileName(m: CalibrationMeta): string {
  return `calibration-${m.fingerprint}-v${m.modelVersion}.msgpack`;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file's bytes; undefined when it does not exist; 'too-large' past the size cap. */
async function readBounded(fn: string, path: string): Promise<Uint8Array | undefined | 'too-large'> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new IoError(fn, path, cause);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_CALIBRATION_BYTES) return 'too-large';
    return await handle.readFile();
  } catch (cause) {
    throw new IoError(fn, path, cause);
  } finally {
    await handle.close();
  }
}

/** A same-machine calibration for another model version, reported as stale. */
async function otherVersion(fn: string, dir: string, m: CalibrationMeta): Promise<CalibrationRead | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new IoError(fn, dir, cause);
  }
  let best: { name: string; version: number } | undefined;
  for (const name of names) {
    const match = FILE_RE.exec(name);
    if (match?.[1] !== m.fingerprint) continue;
    const version = Number(match[2]);
    if (version !== m.modelVersion && (best === undefined || version > best.version)) best = { name, version };
  }
  if (best === undefined) return undefined;
  return {
    state: 'stale',
    path: join(dir, best.name),
    reason: `this machine's calibration is for model version ${best.version}, not ${m.modelVersion}`,
  };
}

/** Check the envelope field by field; the payload is decoded only once its checksum matches. */
function decode(bytes: Uint8Array, m: CalibrationMeta, path: string): CalibrationRead {
  const corrupted = (reason: string): CalibrationRead => ({ state: 'corrupted', path, reason });
  let raw: unknown;
  try {
    raw = codec().unpack(bytes);
  } catch (e) {
    return corrupted(`not a complete msgpack value (truncated or garbage): ${e instanceof Error ? e.message : String(e)}`);
  }
  if (raw === null || typeof raw !== 'object' || (raw as Record<string, unknown>)['magic'] !== CALIBRATION_MAGIC) {
    return corrupted(`not a dype calibration file (no ${JSON.stringify(CALIBRATION_MAGIC)} magic)`);
  }
  const env = raw as Record<string, unknown>;
  const formatVersion = env['formatVersion'];
  if (!Number.isInteger(formatVersion)) return corrupted(`envelope field formatVersion is ${describe(formatVersion)}`);
  if (formatVersion !== CALIBRATION_FORMAT_VERSION) {
    // Another layout: its other fields may mean something else, so stop here.
    return { state: 'stale', path, reason: `file format version ${String(formatVersion)}, this dype reads ${CALIBRATION_FORMAT_VERSION}` };
  }
  const { modelVersion, fingerprint, createdAt, payloadSha256, payload } = env;
  if (!Number.isInteger(modelVersion)) return corrupted(`envelope field modelVersion is ${describe(modelVersion)}`);
  if (typeof fingerprint !== 'string') return corrupted(`envelope field fingerprint is ${describe(fingerprint)}`);
  const created = typeof createdAt === 'string' ? new Date(createdAt) : undefined;
  if (created === undefined || Number.isNaN(created.getTime())) return corrupted(`envelope field createdAt is ${describe(createdAt)}`);
  if (typeof payloadSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(payloadSha256)) {
    return corrupted(`envelope field payloadSha256 is ${describe(payloadSha256)}`);
  }
  if (!(payload instanceof Uint8Array)) return corrupted(`envelope field payload is ${describe(payload)}`);
  if (sha256(payload) !== payloadSha256) return corrupted('payload checksum mismatch (the file was damaged or edited)');
  if (fingerprint !== m.fingerprint) {
    return { state: 'stale', path, reason: `calibrated on machine ${fingerprint}, this is ${m.fingerprint}` };
  }
  if (modelVersion !== m.modelVersion) {
    return { state: 'stale', path, reason: `calibrated for model version ${String(modelVersion)}, this is ${m.modelVersion}` };
  }
  let value: unknown;
  try {
    value = codec().unpack(payload);
  } catch (e) {
    return corrupted(`payload does not decode: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { state: 'valid', payload: value, path, createdAt: created };
}
