// What calibration produces and the cache stores: per device (identified by backend, profile and
// parameter values) and operator, fitted time and energy coefficients with their fit error.

import { createHash } from 'node:crypto';
import { describe, InvalidArgumentError } from '../errors.js';
import type { Device } from '../devices/device.js';
import type { ModelOperator } from './packed.js';

/** Bumped whenever the basis terms or the payload change: older caches become stale. */
export const MODEL_VERSION = 3;

/** The fit of one operator on one device. */
export interface OperatorFit {
  readonly time: readonly number[];
  readonly energy: readonly number[];
  /** Mean absolute relative error of the fit on its own samples. */
  readonly timeMape: number;
  readonly energyMape: number;
  /** 90th percentile of the absolute relative residuals: the predictions' stated uncertainty. */
  readonly timeSpread: number;
  readonly energySpread: number;
  readonly samples: number;
}

/** How far a real device's speed moved between moments during calibration (cost/speed-drift.ts). */
export interface SpeedDrift {
  /** Either way, as a fraction: 0.2 is 20% faster or slower than usual. */
  readonly drift: number;
  /** The sentinel readings it comes from. */
  readonly readings: number;
}

export interface DeviceCalibration {
  /** `deviceKey(device)`: the same backend, profile and parameters share a calibration. */
  readonly key: string;
  readonly backend: string;
  readonly profile: string;
  readonly operators: Partial<Record<ModelOperator, OperatorFit>>;
  /** Real devices only; absent in calibrations made before it was measured. */
  readonly speedDrift?: SpeedDrift;
}

export interface CalibrationPayload {
  readonly modelVersion: number;
  readonly createdAt: string;
  readonly quick: boolean;
  /** Wall time the calibration took, in seconds. */
  readonly seconds: number;
  readonly devices: readonly DeviceCalibration[];
}

/** Identity of a device for calibration: backend, profile and a hash of every parameter value. */
export function deviceKey(device: Device): string {
  const raw = (device as { spec?: { params?: unknown } } | null)?.spec?.params;
  if (raw === null || typeof raw !== 'object') {
    throw new InvalidArgumentError(`deviceKey: device must be a device of a System (with a spec), got ${describe(device)}`);
  }
  const params = Object.entries(device.spec.params)
    .map(([k, p]) => `${k}=${p.value}`)
    .sort()
    .join(',');
  const hash = createHash('sha256').update(params).digest('hex').slice(0, 12);
  return `${device.backend}/${device.spec.name}/${hash}`;
}
