// Fitting a calibration: each (device, operator)'s time and energy coefficients from its samples
// by non-negative least squares on relative error, pulled weakly towards the device's spec-derived
// coefficients, with the prediction's stated uncertainty taken from leave-one-input-out
// cross-validation rather than from the fit's own residuals.

import type { System } from '../devices/system.js';
import { quantileSorted } from '../stats.js';
import { type CalibrationPayload, deviceKey, type DeviceCalibration, MODEL_VERSION, type OperatorFit, type SpeedDrift } from './calibration.js';
import { type Coefficients, defaultCoefficients } from './defaults.js';
import { fitRelative } from './fit.js';
import { TERMS, type ModelOperator } from './packed.js';

/** One observation: the basis terms of a configuration and what the device reported. */
export interface Sample {
  readonly device: string;
  readonly operator: ModelOperator;
  readonly input: string;
  readonly terms: Float64Array;
  readonly seconds: number;
  readonly joules: number;
}

/**
 * How hard a fit is pulled towards the spec-derived coefficients (see fitRelative's prior). BFS
 * and multi-source BFS fit 9 terms from one to a few samples per input, where an unregularised
 * fit trades terms freely; with 0.1, a coefficient at twice its prior costs as much as one sample
 * off by 10%. Measured on the quick accuracy run: fastest-device rate 96% -> 100%, cpu BFS MAPE
 * 98% -> 44%. Choosing the weight per (device, operator) by cross-validation instead (0 to 3)
 * gained nothing on held-out inputs (docs/cost-model.md), so it stays one constant.
 */
const PRIOR_WEIGHT = 0.1;

/** Fewest inputs for a cross-validated uncertainty; below, the fit's own residuals stand in. */
const MIN_CV_INPUTS = 4;

type Target = 'seconds' | 'joules';

function solve(rows: readonly Sample[], cols: number, target: Target, prior: readonly number[] | undefined) {
  const terms = new Float64Array(rows.length * cols);
  rows.forEach((s, i) => terms.set(s.terms, i * cols));
  const options = prior && PRIOR_WEIGHT > 0 ? { prior: { coefficients: prior, weight: PRIOR_WEIGHT } } : {};
  return fitRelative(
    terms,
    rows.length,
    cols,
    Float64Array.from(rows, (s) => s[target]),
    options,
  );
}

/**
 * The 90th percentile of |predicted - observed| / observed over every sample, each predicted by a
 * fit without its input: what a prediction for an input the calibration never saw is off by.
 * Undefined when there are too few inputs to leave one out.
 */
function crossValidatedSpread(rows: readonly Sample[], cols: number, target: Target, prior: readonly number[] | undefined): number | undefined {
  const inputs = [...new Set(rows.map((s) => s.input))];
  if (inputs.length < MIN_CV_INPUTS) return undefined;
  const errors: number[] = [];
  for (const input of inputs) {
    const rest = rows.filter((s) => s.input !== input);
    if (rest.length < cols) return undefined;
    const c = solve(rest, cols, target, prior).coefficients;
    for (const s of rows) {
      if (s.input !== input) continue;
      let predicted = 0;
      for (let j = 0; j < cols; j++) predicted += s.terms[j]! * c[j]!;
      errors.push(Math.abs(Math.max(0, predicted) - s[target]) / s[target]);
    }
  }
  return quantileSorted(Float64Array.from(errors).sort(), 0.9);
}

/**
 * Fit one (device, operator) from its samples; undefined with fewer samples than terms.
 * @example
 * const fit = fitOperator('spmm', samples.filter((s) => s.device === 'cpu' && s.operator === 'spmm'), defaultCoefficients(cpu).spmm);
 */
export function fitOperator(op: ModelOperator, samples: readonly Sample[], prior?: Coefficients): OperatorFit | undefined {
  const cols = TERMS[op];
  const usable = samples.filter((s) => s.seconds > 0 && s.joules > 0);
  if (usable.length < cols) return undefined;
  const time = solve(usable, cols, 'seconds', prior?.time);
  const energy = solve(usable, cols, 'joules', prior?.energy);
  return {
    time: Array.from(time.coefficients),
    energy: Array.from(energy.coefficients),
    timeMape: time.mape,
    energyMape: energy.mape,
    timeSpread: crossValidatedSpread(usable, cols, 'seconds', prior?.time) ?? time.residualSpread.p90,
    energySpread: crossValidatedSpread(usable, cols, 'joules', prior?.energy) ?? energy.residualSpread.p90,
    samples: usable.length,
  };
}

/** Fit every (device, operator) of the system from samples. */
export function fitCalibration(
  system: System,
  samples: readonly Sample[],
  meta: { quick: boolean; seconds: number; speedDrift?: (device: string) => SpeedDrift | undefined },
): CalibrationPayload {
  const devices: DeviceCalibration[] = system.devices.map((device) => {
    const operators: Partial<Record<ModelOperator, OperatorFit>> = {};
    for (const op of Object.keys(TERMS) as ModelOperator[]) {
      const fit = fitOperator(
        op,
        samples.filter((s) => s.device === device.name && s.operator === op),
        defaultCoefficients(device)[op],
      );
      if (fit) operators[op] = fit;
    }
    const drift = meta.speedDrift?.(device.name);
    return { key: deviceKey(device), backend: device.backend, profile: device.spec.name, operators, ...(drift ? { speedDrift: drift } : {}) };
  });
  return { modelVersion: MODEL_VERSION, createdAt: new Date().toISOString(), quick: meta.quick, seconds: meta.seconds, devices };
}
