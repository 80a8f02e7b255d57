// How good the cost model is on inputs it was not fitted to: predicted against measured (cpu) or
// simulated (cgra-sim, gpu-sim) time and energy, per device and operator, and how often the
// predicted fastest device is the true fastest.

import type { CsrMatrix } from '../data/csr.js';
import type { OperatorKind } from '../devices/device.js';
import { denseFeatures } from '../generators/index.js';
import { describe, InvalidArgumentError } from '../errors.js';
import { spreadSources } from './calibrate.js';
import { observeDevice } from './measure.js';
import { CostModel, type Prediction } from './model.js';

export interface AccuracyCase {
  readonly name: string;
  readonly matrix: CsrMatrix;
}

/** One prediction checked against what the device reported. */
export interface AccuracyRow {
  readonly input: string;
  readonly operator: OperatorKind;
  readonly device: string;
  readonly predictedSeconds: number;
  readonly observedSeconds: number;
  readonly predictedJoules: number;
  readonly observedJoules: number;
  readonly source: 'measured' | 'simulated';
}

export interface AccuracySummary {
  readonly device: string;
  readonly operator: OperatorKind;
  readonly cases: number;
  /** Mean absolute percentage error of time, in percent. */
  readonly timeMape: number;
  readonly energyMape: number;
}

export interface AccuracyReport {
  readonly rows: readonly AccuracyRow[];
  readonly summary: readonly AccuracySummary[];
  /** Per operator: cases where the predicted fastest device was the fastest observed, and all cases. */
  readonly fastest: readonly { readonly operator: OperatorKind; readonly right: number; readonly cases: number }[];
  /** Over every operator. */
  readonly fastestRate: number;
}

export interface AccuracyOptions {
  /** SpMM width. @default 16 */
  readonly k?: number;
  /** Repeats of each measured (real-device) run; the median is used. @default 5 */
  readonly repeats?: number;
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/** Sources of the multi-source BFS the check runs (the decision suite's msbfs workload uses as many). */
export const ACCURACY_MSBFS_SOURCES = 32;

/**
 * Run every device on every case (SpMM, SpMV; on square inputs BFS from the sources the graph
 * features sample and a multi-source BFS of ACCURACY_MSBFS_SOURCES spread sources) and compare
 * with the model's predictions. Real hardware is observed as calibration observes it
 * (observeDevice).
 */
export async function measureAccuracy(model: CostModel, cases: readonly AccuracyCase[], options?: AccuracyOptions): Promise<AccuracyReport> {
  if (!(model instanceof CostModel)) throw new InvalidArgumentError(`measureAccuracy: model must be a CostModel, got ${describe(model)}`);
  if (!Array.isArray(cases)) throw new InvalidArgumentError(`measureAccuracy: cases must be an array, got ${describe(cases)}`);
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new InvalidArgumentError(`measureAccuracy: options must be an object, got ${describe(options)}`);
  }
  const k = options?.k ?? 16;
  const repeats = options?.repeats ?? 5;
  const rows: AccuracyRow[] = [];
  const devices = model.system.devices;
  const total = cases.length * devices.length * 4;
  let done = 0;
  for (const { name, matrix: a } of cases) {
    const x = denseFeatures({ rows: a.cols, cols: k, precision: 'f32', seed: 7 });
    const v = denseFeatures({ rows: a.cols, cols: 1, precision: 'f32', seed: 8 });
    const sources = a.rows === a.cols ? model.graphFeatures(a).sources : undefined;
    for (const device of devices) {
      const push = (operator: OperatorKind, p: Prediction, o: { seconds: number; joules: number; source: 'measured' | 'simulated' }): void => {
        rows.push({
          input: name,
          operator,
          device: device.name,
          predictedSeconds: p.seconds,
          observedSeconds: o.seconds,
          predictedJoules: p.joules,
          observedJoules: o.joules,
          source: o.source,
        });
        options?.onProgress?.(++done, total, `${device.name} ${operator} on ${name}`);
      };
      push('spmm', model.predict(device, { kind: 'spmm' }, { a, x }), await observeDevice(device, repeats, () => device.run({ kind: 'spmm' }, { a, x })));
      push('spmv', model.predict(device, { kind: 'spmv' }, { a, x: v }), await observeDevice(device, repeats, () => device.run({ kind: 'spmv' }, { a, x: v })));
      if (sources && sources.length > 0) {
        const p = model.predict(device, { kind: 'bfs', source: sources[0]! }, { graph: a });
        let seconds = 0;
        let joules = 0;
        let source: 'measured' | 'simulated' = 'simulated';
        for (const s of sources) {
          const o = await observeDevice(device, repeats, () => device.run({ kind: 'bfs', source: s }, { graph: a }));
          seconds += o.seconds / sources.length;
          joules += o.joules / sources.length;
          source = o.source;
        }
        push('bfs', p, { seconds, joules, source });
        const many = spreadSources(a, ACCURACY_MSBFS_SOURCES);
        const pm = model.predict(device, { kind: 'msbfs', sources: many }, { graph: a });
        push('msbfs', pm, await observeDevice(device, repeats, () => device.run({ kind: 'msbfs', sources: many }, { graph: a })));
      } else {
        done += 2;
      }
    }
  }
  return summarize(rows);
}

/** MAPE per device and operator, and the fastest-device agreement, from checked rows. */
export function summarize(rows: readonly AccuracyRow[]): AccuracyReport {
  const groups = new Map<string, AccuracyRow[]>();
  for (const r of rows) {
    const key = `${r.device}\u0000${r.operator}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const ape = (p: number, o: number): number => (Math.abs(p - o) / o) * 100;
  const summary: AccuracySummary[] = [...groups.values()].map((g) => ({
    device: g[0]!.device,
    operator: g[0]!.operator,
    cases: g.length,
    timeMape: g.reduce((s, r) => s + ape(r.predictedSeconds, r.observedSeconds), 0) / g.length,
    energyMape: g.reduce((s, r) => s + ape(r.predictedJoules, r.observedJoules), 0) / g.length,
  }));
  const byCase = new Map<string, AccuracyRow[]>();
  for (const r of rows) {
    const key = `${r.input}\u0000${r.operator}`;
    byCase.set(key, [...(byCase.get(key) ?? []), r]);
  }
  const tally = new Map<OperatorKind, { right: number; cases: number }>();
  for (const g of byCase.values()) {
    if (g.length < 2) continue;
    const argmin = (f: (r: AccuracyRow) => number): string => g.reduce((best, r) => (f(r) < f(best) ? r : best)).device;
    const t = tally.get(g[0]!.operator) ?? { right: 0, cases: 0 };
    t.cases++;
    if (argmin((r) => r.predictedSeconds) === argmin((r) => r.observedSeconds)) t.right++;
    tally.set(g[0]!.operator, t);
  }
  const fastest = [...tally.entries()].map(([operator, t]) => ({ operator, ...t }));
  const right = fastest.reduce((s, f) => s + f.right, 0);
  const cases = fastest.reduce((s, f) => s + f.cases, 0);
  return { rows, summary, fastest, fastestRate: cases > 0 ? right / cases : NaN };
}
