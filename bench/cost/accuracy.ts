// Cost-model accuracy on inputs it was not fitted to: calibrate on generated inputs (or use the
// stored calibration with --use-cache), then predict and run every device on the shared real
// datasets and on held-out generated inputs. Reports time and energy MAPE per device and
// operator, and how often the predicted fastest device is the true fastest.
// Run: node --expose-gc --import tsx bench/cost/accuracy.ts [--quick] [--calibration quick|full] [--use-cache] [--only a,b]
// --quick takes fewer inputs and a quick calibration; --calibration picks the calibration alone,
// so a quick and a full one can be judged on the same inputs.

import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type AccuracyCase, measureAccuracy } from '../../src/cost/accuracy.js';
import { calibrate } from '../../src/cost/calibrate.js';
import { CostModel } from '../../src/cost/model.js';
import { readStoredCalibration } from '../../src/cost/store.js';
import { detectSystem } from '../../src/devices/system.js';
import { generate, type GeneratorSpec } from '../../src/generators/index.js';
import { datasetsDir, loadDataset } from '../common/datasets.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from '../common/report.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    calibration: { type: 'string' },
    'use-cache': { type: 'boolean', default: false },
    only: { type: 'string' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const quick = args.quick;
if (args.calibration !== undefined && args.calibration !== 'quick' && args.calibration !== 'full') {
  throw new Error(`--calibration must be quick or full, got ${JSON.stringify(args.calibration)}`);
}
const quickCalibration = args.calibration === undefined ? quick : args.calibration === 'quick';
const only = args.only?.split(',').map((s) => s.trim());

/** Generated inputs with seeds and sizes the calibration never saw. */
const HELD_OUT: readonly GeneratorSpec[] = [
  { kind: 'kronecker', scale: 15, edgeFactor: 12, seed: 901 },
  { kind: 'erdos-renyi', n: 131072, m: 786432, directed: true, seed: 902 },
  { kind: 'grid', rows: 450, cols: 450, deleteFraction: 0.15, seed: 903 },
  { kind: 'banded', n: 131072, halfBandwidth: 16, seed: 904 },
];

async function cases(): Promise<AccuracyCase[]> {
  const out: AccuracyCase[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(datasetsDir())
      .filter((f) => f.endsWith('.mtx'))
      .map((f) => f.slice(0, -4))
      .sort();
  } catch {
    progress(`accuracy: ${datasetsDir()} not found; held-out generated inputs only`);
  }
  if (quick) names = names.filter((n) => ['cora', 'email-Enron', 'luxembourg_osm', 'bcsstk16', 'delaunay_n16', 'wiki-Vote'].includes(n));
  for (const name of names) {
    if (only && !only.includes(name)) continue;
    const r = await loadDataset(name, 'f32');
    if (r.matrix) out.push({ name, matrix: r.matrix });
  }
  for (const spec of quick ? HELD_OUT.slice(0, 2) : HELD_OUT) {
    const name = `${spec.kind}-held-out`;
    if (!only || only.includes(name)) out.push({ name, matrix: generate(spec) });
  }
  return out;
}

async function main(): Promise<void> {
  const system = await detectSystem();
  let model: CostModel;
  let how: string;
  if (args['use-cache']) {
    const stored = await readStoredCalibration();
    if (stored.state !== 'valid') throw new Error(`--use-cache: the stored calibration is ${stored.state}; run dype calibrate`);
    model = new CostModel(system, stored.payload);
    how = `stored calibration of ${stored.payload.createdAt}${stored.payload.quick ? ' (quick)' : ''}`;
  } else {
    progress(`accuracy: calibrating on generated inputs (${quickCalibration ? 'quick' : 'full'})`);
    let last = -1;
    const payload = await calibrate(system, {
      quick: quickCalibration,
      onProgress: (d, t) => {
        const tenth = Math.floor((10 * d) / t);
        if (tenth !== last) progress(`calibrate ${d}/${t}`);
        last = tenth;
      },
    });
    model = new CostModel(system, payload);
    how = `fresh ${quickCalibration ? 'quick ' : ''}calibration on generated inputs (${payload.seconds.toFixed(0)} s)`;
  }
  const list = await cases();
  progress(`accuracy: ${list.length} inputs x ${system.devices.length} devices`);
  const report = await measureAccuracy(model, list, { repeats: quick ? 5 : 7 });
  const suite: SuiteReport = {
    suite: 'accuracy',
    title: 'Cost model accuracy on inputs it was not fitted to',
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { quick, calibration: how, inputs: list.map((c) => c.name), k: 16 },
    notes: [
      'Fitted on generated inputs only (Kronecker, Erdős–Rényi, grid, banded); evaluated on the shared real datasets and on generated inputs with unseen seeds and sizes.',
      'cpu observations are measured on this machine (median of repeats); cgra-sim and gpu-sim observations are simulated.',
      'BFS: mean over the sources the graph features sample; multi-source BFS: 32 sources spread over the ids; SpMM k = 16 FP32; SpMV FP32.',
      "Real hardware is observed as calibration observes it (src/cost/measure.ts): the median of repeats, each after a pause longer than the thread pool spins, as a plan's pieces find it.",
      'Goals (issue 4): time MAPE <= 15%, energy MAPE <= 20%, right fastest device in >= 90% of cases.',
    ],
    tables: [
      {
        title: 'MAPE per device and operator',
        columns: ['device', 'operator', 'cases', 'time MAPE', 'energy MAPE'],
        rows: report.summary.map((s) => [s.device, s.operator, String(s.cases), `${fixed(s.timeMape, 1)}%`, `${fixed(s.energyMape, 1)}%`]),
      },
      {
        title: 'Predicted fastest device is the true fastest',
        columns: ['operator', 'right', 'cases', 'rate'],
        rows: [
          ...report.fastest.map((f) => [f.operator, String(f.right), String(f.cases), `${fixed((100 * f.right) / f.cases, 0)}%`]),
          [
            'all',
            String(report.fastest.reduce((s, f) => s + f.right, 0)),
            String(report.fastest.reduce((s, f) => s + f.cases, 0)),
            `${fixed(100 * report.fastestRate, 0)}%`,
          ],
        ],
      },
      {
        title: 'Every prediction (time)',
        columns: ['input', 'operator', 'device', 'predicted', 'observed', 'error', 'observed is'],
        rows: report.rows.map((r) => [
          r.input,
          r.operator,
          r.device,
          `${(r.predictedSeconds * 1e6).toPrecision(3)} us`,
          `${(r.observedSeconds * 1e6).toPrecision(3)} us`,
          `${fixed((100 * (r.predictedSeconds - r.observedSeconds)) / r.observedSeconds, 0)}%`,
          r.source,
        ]),
      },
    ],
    data: report,
  };
  emitReport(suite, args.json, args.quiet);
  await system.dispose();
}

await main();
