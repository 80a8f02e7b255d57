// Where calibrations live between runs: one msgpack file per machine and model version in the
// user's cache folder. A missing, stale or corrupted file is never trusted: the model falls back
// to spec defaults and says why, and `dype calibrate` rebuilds it.

import type { System } from '../devices/system.js';
import { InvalidArgumentError } from '../errors.js';
import { checkSystem } from '../devices/system.js';
import { machineFingerprint, readCalibration, removeCalibration, writeCalibration, type CalibrationRead } from './cache.js';
import { type CalibrationPayload, type DeviceCalibration, MODEL_VERSION } from './calibration.js';
import { CostModel } from './model.js';
import { readOperatorFits } from './operator-fits.js';

function meta(): { modelVersion: number; fingerprint: string } {
  return { modelVersion: MODEL_VERSION, fingerprint: machineFingerprint().fingerprint };
}

/** Whether a decoded payload has the shape this version writes (a checksum proves integrity, not shape). */
function isPayload(p: unknown): p is CalibrationPayload {
  if (p === null || typeof p !== 'object') return false;
  const o = p as Record<string, unknown>;
  return (
    o['modelVersion'] === MODEL_VERSION &&
    typeof o['createdAt'] === 'string' &&
    Array.isArray(o['devices']) &&
    (o['devices'] as unknown[]).every((d) => d !== null && typeof d === 'object' && typeof (d as Record<string, unknown>)['key'] === 'string')
  );
}

/** The stored calibration of this machine, or why there is none usable. */
export async function readStoredCalibration(): Promise<
  { readonly state: 'valid'; readonly payload: CalibrationPayload; readonly path: string } | Exclude<CalibrationRead, { state: 'valid' }>
> {
  const r = await readCalibration(meta());
  if (r.state !== 'valid') return r;
  if (!isPayload(r.payload)) return { state: 'corrupted', path: r.path, reason: 'the payload does not have the calibration shape' };
  return { state: 'valid', payload: r.payload, path: r.path };
}

/**
 * Store a calibration for this machine, merged with the stored one: devices calibrated now
 * replace their earlier entries, others are kept. Returns the file's path.
 */
export async function saveCalibration(payload: CalibrationPayload): Promise<string> {
  if (!isPayload(payload)) throw new InvalidArgumentError('saveCalibration: payload is not a calibration of this model version');
  const old = await readStoredCalibration();
  let devices: DeviceCalibration[] = [...payload.devices];
  if (old.state === 'valid') {
    const fresh = new Set(payload.devices.map((d) => d.key));
    devices = [...old.payload.devices.filter((d) => !fresh.has(d.key)), ...devices];
  } else if (old.state === 'corrupted' || old.state === 'stale') {
    await removeCalibration(old.path).catch(() => undefined);
  }
  return writeCalibration({ ...payload, devices }, meta());
}

/**
 * A cost model for `system` using this machine's stored calibration when it is valid, else spec
 * defaults marked `uncalibrated` with the reason (missing, stale or corrupted file).
 * @example
 * const model = await loadCostModel(await detectSystem());
 * model.state('cpu'); // { state: 'calibrated', ... } once `dype calibrate` has run
 */
export async function loadCostModel(system: System): Promise<CostModel> {
  checkSystem('loadCostModel', system);
  const r = await readStoredCalibration();
  const reason =
    r.state === 'valid'
      ? ''
      : r.state === 'missing'
        ? 'no calibration on this machine yet (run `dype calibrate`)'
        : `the calibration file ${r.path} is ${r.state} (${r.reason}); run \`dype calibrate\` to rebuild it`;
  const model = r.state === 'valid' ? new CostModel(system, r.payload) : new CostModel(system, undefined, reason);
  model.setOperatorFits(await readOperatorFits());
  return model;
}
