// Predicted costs of a bound workload's operators: sparse kernels from the cost model (features
// plus calibrated coefficients), the other operators from each device's roofline. The scheduler
// prices every part of every choice through this, never by running anything.

import type { CostModel, Prediction } from '../cost/model.js';
import { operatorKind } from '../operators/registry.js';
import type { System } from '../devices/system.js';
import type { BoundOp, BoundWorkload } from '../workloads/bind.js';
import { denseCost, type DenseRates, denseRates } from '../cost/dense-cost.js';
import { fittedSeconds } from '../cost/operator-fits.js';
import { PieceMap } from './piece-map.js';
import type { CostSource } from './space.js';

/** A whole-operator prediction, as the explanation shows it. */
export interface OperatorEstimate {
  readonly device: string;
  readonly seconds: number;
  readonly joules: number;
  /**
   * `cost model` (calibrated or not), `roofline` (modelled from the spec), `calibrated fit` (a
   * user operator's time fitted by `dype calibrate --op`), or `probed` (the model at the level a
   * probe of this input saw).
   */
  readonly basis: 'cost model' | 'roofline' | 'calibrated fit' | 'probed';
  /** Relative uncertainty (0.15 is +-15%), 1 when uncalibrated. */
  readonly uncertainty: number;
  readonly state: Prediction['state'] | 'modelled';
}

/** What planning prices mappings with: per piece, and per whole operator with its basis (for explanations and margins). */
export interface PlanningCosts extends CostSource {
  whole(op: BoundOp, device: number): OperatorEstimate;
  /** How far device `device`'s speed moves between moments on this machine, where calibration measured it. */
  speedDrift?(device: number): number | undefined;
}

/** Costs from the cost model and the devices' rooflines. */
export class ModelCostSource implements PlanningCosts {
  private readonly rates: DenseRates[];
  private readonly memo: PieceMap<{ seconds: number; joules: number }>;

  constructor(
    readonly bound: BoundWorkload,
    readonly system: System,
    readonly model: CostModel,
    /**
     * The online correction's factors to price at, per device and operator kind, instead of the
     * model's as they stand when a piece is first priced: a run's predictions, made lazily,
     * are then those of its start however much the run has taught the model since.
     */
    private readonly frozenFactors?: (device: number, kind: string) => readonly [number, number] | undefined,
  ) {
    this.rates = system.devices.map((d) => denseRates(d));
    this.memo = new PieceMap(bound.ops.length);
  }

  speedDrift(device: number): number | undefined {
    return this.model.speedDrift(this.system.devices[device]!);
  }

  cost(op: BoundOp, device: number, begin: number, end: number): { seconds: number; joules: number } {
    let c = this.memo.get(op.index, device, begin, end);
    if (!c) {
      const e = this.estimate(op, device, begin, end);
      c = { seconds: e.seconds, joules: e.joules };
      this.memo.set(op.index, device, begin, end, c);
    }
    return c;
  }

  /** The whole operator on one device, with its basis and uncertainty. */
  whole(op: BoundOp, device: number): OperatorEstimate {
    return this.estimate(op, device, 0, Math.max(op.units, 1));
  }

  private estimate(op: BoundOp, device: number, begin: number, end: number): OperatorEstimate {
    const d = this.system.devices[device]!;
    const values = this.bound.values;
    const full = begin === 0 && end >= op.units;
    // Device kernels are priced by the cost model from the shape their kind gives it.
    const exec = operatorKind(op.kind, 'ModelCostSource').execution;
    const p =
      exec.on === 'device' ? this.model.predictShape(d, exec.costShape(op, values, begin, end, full), this.frozenFactors?.(device, op.kind)) : undefined;
    if (p) return { device: d.name, seconds: p.seconds, joules: p.joules, basis: 'cost model', uncertainty: p.uncertainty, state: p.state };
    const frac = full ? 1 : rangeFraction(op, this.bound, begin, end);
    const out = values[op.output]!;
    const precision = out.kind === 'depths' ? 'f32' : out.precision;
    const fit = this.model.operatorFit(op.kind, d, precision);
    if (fit) {
      // Calibrated on this device (`dype calibrate`, or `--op` for a user operator): its fitted time, the device's power for energy.
      const seconds = fittedSeconds(fit, op.flops * frac, op.bytes * frac);
      const rates = this.rates[device]!;
      const joules = seconds * rates.busyWatts + op.flops * frac * rates.joulesPerFlop + op.bytes * frac * rates.joulesPerByte;
      return { device: d.name, seconds, joules, basis: 'calibrated fit', uncertainty: Math.max(0.1, 2 * fit.timeMape), state: 'calibrated' };
    }
    const c = denseCost(this.rates[device]!, op.flops * frac, op.bytes * frac, precision);
    return { device: d.name, seconds: c.seconds, joules: c.joules, basis: 'roofline', uncertainty: 1, state: 'modelled' };
  }
}

/** Share of an operator's work in units `[begin, end)`: nonzeros for sparse operands, else rows. */
export function rangeFraction(op: BoundOp, bound: BoundWorkload, begin: number, end: number): number {
  if (op.units <= 0) return 1;
  const lead = bound.values[op.operands[0]!]!;
  if (lead.kind === 'sparse' && lead.pattern && op.split === 'rows') {
    const rp = lead.pattern.rowPtr;
    const nnz = Number(rp[op.units]!);
    if (nnz > 0) return (Number(rp[end]!) - Number(rp[begin]!)) / nnz;
  }
  return (end - begin) / op.units;
}
