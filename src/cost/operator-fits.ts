// Fitted time of the operators the host computes: user-defined ones (`dype calibrate --op NAME`)
// and the built-in dense ones (`dype calibrate`). Per operator kind, device and precision, seconds = launch + secondsPerFlop * flops + secondsPerByte * bytes over the operator's
// own cost terms. Stored beside this machine's calibration in the cache folder, in the same
// checked envelope (cost/cache.ts), as `calibration-<fingerprint>-operators-v<N>.msgpack`.

import { InvalidArgumentError } from '../errors.js';
import { machineFingerprint, readCalibration, writeCalibration } from './cache.js';

/** Bumped when the fit's form changes, so older fits are not reused. */
export const OPERATOR_FITS_VERSION = 1;

export interface OperatorCostFit {
  /** The operator kind's name. */
  readonly kind: string;
  /** The device's calibration key (cost/calibration.ts deviceKey). */
  readonly device: string;
  /** Precision of the outputs it was fitted on. */
  readonly precision: 'f32' | 'f64';
  readonly launchSeconds: number;
  readonly secondsPerFlop: number;
  readonly secondsPerByte: number;
  /** Inputs timed. */
  readonly samples: number;
  /** Mean absolute relative error of the fit on those inputs (0.1 is 10%). */
  readonly timeMape: number;
  readonly quick: boolean;
  readonly createdAt: string;
}

/** The fitted seconds for `flops` and `bytes` of work. */
export function fittedSeconds(fit: OperatorCostFit, flops: number, bytes: number): number {
  return fit.launchSeconds + fit.secondsPerFlop * flops + fit.secondsPerByte * bytes;
}

/** Mean absolute relative error of `fit` on `rows`. */
export function leastSquaresFitError(fit: Omit<OperatorCostFit, 'timeMape'>, rows: readonly { flops: number; bytes: number; seconds: number }[]): number {
  let sum = 0;
  for (const r of rows) sum += Math.abs(fittedSeconds({ ...fit, timeMape: 0 }, r.flops, r.bytes) / r.seconds - 1);
  return rows.length ? sum / rows.length : 0;
}

function meta(): { modelVersion: number; fingerprint: string } {
  return { modelVersion: OPERATOR_FITS_VERSION, fingerprint: `${machineFingerprint().fingerprint}-operators` };
}

function isFit(x: unknown): x is OperatorCostFit {
  if (x === null || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  const num = (k: string): boolean => typeof o[k] === 'number' && Number.isFinite(o[k]) && (o[k] as number) >= 0;
  return (
    typeof o['kind'] === 'string' &&
    typeof o['device'] === 'string' &&
    (o['precision'] === 'f32' || o['precision'] === 'f64') &&
    ['launchSeconds', 'secondsPerFlop', 'secondsPerByte', 'samples', 'timeMape'].every(num)
  );
}

/** This machine's stored operator fits; none when the file is missing, stale or damaged (never trusted then). */
export async function readOperatorFits(): Promise<OperatorCostFit[]> {
  const r = await readCalibration(meta());
  if (r.state !== 'valid') return [];
  const fits = (r.payload as { fits?: unknown } | null)?.fits;
  return Array.isArray(fits) ? fits.filter(isFit) : [];
}

/** Store `fits`, replacing earlier fits of the same operator, device and precision; returns the file's path. */
export async function saveOperatorFits(fits: readonly OperatorCostFit[]): Promise<string> {
  if (!Array.isArray(fits) || !fits.every(isFit)) throw new InvalidArgumentError('saveOperatorFits: fits must be operator cost fits');
  const key = (f: OperatorCostFit): string => `${f.kind}\u0000${f.device}\u0000${f.precision}`;
  const fresh = new Set(fits.map(key));
  const kept = (await readOperatorFits()).filter((f) => !fresh.has(key(f)));
  return writeCalibration({ fits: [...kept, ...fits] }, meta());
}
