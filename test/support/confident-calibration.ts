// A calibration that states +-`spread` for every device of a system, made of the spec-derived
// coefficients: for tests of decisions that need the model's uncertainty to be small (stepping a
// BFS, splitting), without calibrating in a unit test. An uncalibrated model states +-100%.

import { type CalibrationPayload, deviceKey, MODEL_VERSION } from '../../src/cost/calibration.js';
import { defaultCoefficients } from '../../src/cost/defaults.js';
import { CostModel } from '../../src/cost/model.js';
import type { System } from '../../src/devices/system.js';

export function confidentPayload(system: System, spread = 0.2): CalibrationPayload {
  return {
    modelVersion: MODEL_VERSION,
    createdAt: '2026-01-01T00:00:00.000Z',
    quick: true,
    seconds: 0,
    devices: system.devices.map((d) => {
      const operators = Object.fromEntries(
        Object.entries(defaultCoefficients(d)).map(([op, c]) => [
          op,
          { ...c, timeMape: spread / 2, energyMape: spread / 2, timeSpread: spread, energySpread: spread, samples: 10 },
        ]),
      );
      return { key: deviceKey(d), backend: d.backend, profile: d.spec.name, operators };
    }),
  };
}

/** A model built on {@link confidentPayload}. */
export function confidentModel(system: System, spread = 0.2): CostModel {
  return new CostModel(system, confidentPayload(system, spread));
}
