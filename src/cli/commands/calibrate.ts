// `dype calibrate`: measure every device of the system on generated inputs, fit the cost model's
// coefficients, and store them in the cache folder; `--show` prints what is stored.

import { calibrationDir } from '../../cost/cache.js';
import { calibrate } from '../../cost/calibrate.js';
import type { CalibrationPayload } from '../../cost/calibration.js';
import { readStoredCalibration, saveCalibration } from '../../cost/store.js';
import { detectSystem, loadSystem } from '../../devices/system.js';
import { parseFlags } from '../parse.js';
import { progressReporter } from '../progress.js';
import { formatTable } from '../table.js';
import { UsageError } from '../usage-error.js';
import { formatRate, formatSeconds } from '../../units.js';
import { type OperatorCostFit, saveOperatorFits } from '../../cost/operator-fits.js';
import { calibrateHostOperators, calibrateOperator } from '../../operators/calibrate-op.js';
import { defineFromModule } from '../../operators/from-module.js';

export const CALIBRATE_HELP = `Usage: dype calibrate [--quick] [--system FILE] [--json]
       dype calibrate --op NAME --module FILE [--quick] [--system FILE] [--json]
       dype calibrate --show [--json]

Run every device of the system (detected, or --system FILE) on generated inputs that span sizes,
skew, locality and diameter; fit each device's time and energy coefficients for SpMM, SpMV, BFS
and multi-source BFS; then time the operators the host computes (GEMM, element-wise maps,
reductions, SDDMM) on the real CPU and fit their time (launch + flops + bytes, per precision);
store both for this machine in the cache folder, where the cost model finds them. Real devices are timed as the median of repeats; simulators run once (they are
deterministic). Progress goes to stderr.

With --op, fit one user-defined operator instead: FILE (a JavaScript module) is imported and
must define NAME (calling defineOperator, or exporting its spec as \`operators\` or default);
its CPU code is timed on its calibration inputs (generated power-law graphs and features when
the spec gives none) and its time fitted as launch + a * flops + b * bytes over its own cost
terms. Plans without probes then price it by that fit on the CPU instead of the roofline.

Options:
  --quick         fewer, smaller inputs and repeats (about 20 s on 2 cores)
  --op NAME       calibrate the user-defined operator NAME (with --module)
  --module FILE   the module that defines it
  --system FILE   calibrate the devices of this system file instead of the detected ones
  --show          print the stored calibration instead of running one
  --json          print one JSON object
  -h, --help      show this help

Cache folder: $DYPE_CACHE_DIR, else $XDG_CACHE_HOME/dype, else ~/.cache/dype. A missing, stale
or corrupted file is never used: the cost model falls back to spec defaults (marked
uncalibrated) until this command rebuilds it.

Examples:
  dype calibrate --quick
  dype calibrate --quick --system examples/systems/two-gpus.json
  dype calibrate --show`;

const FLAGS = {
  quick: { type: 'boolean' },
  op: { type: 'string' },
  module: { type: 'string' },
  system: { type: 'string' },
  show: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function fitTable(payload: CalibrationPayload): string {
  const rows: string[][] = [];
  for (const d of payload.devices) {
    for (const [op, fit] of Object.entries(d.operators)) {
      rows.push([d.key, op, String(fit.samples), pct(fit.timeMape), `+-${pct(fit.timeSpread)}`, pct(fit.energyMape)]);
    }
  }
  const table = formatTable(['device (backend/profile/params)', 'operator', 'samples', 'time fit error', 'p90', 'energy fit error'], rows);
  // How far each real device's speed moved between moments: what the planner weighs splits against.
  const drifts = payload.devices.flatMap((d) =>
    d.speedDrift ? [`${d.key}: +-${pct(d.speedDrift.drift)} (${d.speedDrift.readings} readings of one kernel over the calibration)`] : [],
  );
  return drifts.length > 0 ? `${table}\n\nSpeed between moments, as the drift rule weighs it:\n${drifts.map((l) => `  ${l}`).join('\n')}` : table;
}

export async function calibrateCommand(argv: readonly string[], out: (s: string) => void): Promise<void> {
  const { values } = parseFlags('calibrate', argv, FLAGS);
  if (values['help']) {
    out(CALIBRATE_HELP);
    return;
  }
  if (values['show']) {
    const r = await readStoredCalibration();
    if (values['json']) {
      out(JSON.stringify({ command: 'calibrate', ...(r.state === 'valid' ? { state: r.state, path: r.path, calibration: r.payload } : r) }, null, 2));
      return;
    }
    if (r.state !== 'valid') {
      out(`No usable calibration: ${r.path} is ${r.state}${'reason' in r ? ` (${r.reason})` : ''}. Run \`dype calibrate\`.`);
      return;
    }
    out(`Calibration ${r.path}, made ${r.payload.createdAt}${r.payload.quick ? ' (quick)' : ''} in ${r.payload.seconds.toFixed(1)} s\n`);
    out(fitTable(r.payload));
    return;
  }
  if (values['op'] !== undefined || values['module'] !== undefined) {
    await calibrateUserOperator(values, out);
    return;
  }
  const system = typeof values['system'] === 'string' ? await loadSystem(values['system']) : await detectSystem();
  try {
    const progress = progressReporter('calibrate');
    const payload = await calibrate(system, { quick: values['quick'] === true, onProgress: (d, t, l) => progress.update(d, t, l) });
    progress.done();
    const path = await saveCalibration(payload);
    // The operators the host computes (GEMM, element-wise, reductions, SDDMM), on the real CPU.
    const dense = await calibrateHostOperators(system, { quick: values['quick'] === true, onProgress: (d, t, l) => progress.update(d, t, l) });
    progress.done();
    const densePath = dense.length ? await saveOperatorFits(dense) : undefined;
    if (values['json']) {
      out(
        JSON.stringify(
          { command: 'calibrate', state: 'valid', path, calibration: payload, ...(densePath ? { operatorsPath: densePath, operators: dense } : {}) },
          null,
          2,
        ),
      );
      return;
    }
    out(`Calibrated ${system.devices.map((d) => d.name).join(', ')} in ${payload.seconds.toFixed(1)} s${payload.quick ? ' (quick)' : ''}; stored in ${path}\n`);
    out(fitTable(payload));
    if (densePath)
      out(
        `\nOperators the host computes, fitted on ${[...new Set(dense.map((f) => f.device))].join(', ')}; stored in ${densePath}\n\n${operatorFitTable(dense)}`,
      );
    out(
      `\nFit errors are on the calibration inputs themselves; \`npm run accuracy\` measures the model on real datasets it was not fitted to. Cache folder: ${calibrationDir()}`,
    );
  } finally {
    await system.dispose();
  }
}

/** Fitted host operators: launch, rates (FLOP/s as `dype kernels` and the docs write it), error. */
export function operatorFitTable(fits: readonly OperatorCostFit[]): string {
  const rate = (perUnit: number, unit: string): string => (perUnit > 0 ? formatRate(1 / perUnit, unit) : '-');
  const table = formatTable(
    ['operator', 'device', 'precision', 'samples', 'launch', 'flops', 'bytes', 'time fit error'],
    fits.map((f) => [
      f.kind,
      f.device,
      f.precision,
      String(f.samples),
      formatSeconds(f.launchSeconds),
      rate(f.secondsPerFlop, 'FLOP/s'),
      rate(f.secondsPerByte, 'B/s'),
      pct(f.timeMape),
    ]),
  );
  return `${table}\n\nTime = launch + flops / flop rate + bytes / byte rate over the operator's cost terms (a rate of - costs nothing).`;
}

/** `--op NAME --module FILE`: import the module, fit the operator on the CPU, store the fit. */
async function calibrateUserOperator(values: Record<string, unknown>, out: (s: string) => void): Promise<void> {
  const name = values['op'];
  const module = values['module'];
  if (typeof name !== 'string' || typeof module !== 'string') throw new UsageError('calibrate: --op NAME and --module FILE go together');
  await defineFromModule(name, module);
  const system = typeof values['system'] === 'string' ? await loadSystem(values['system']) : await detectSystem();
  try {
    const progress = progressReporter('calibrate');
    const fits = await calibrateOperator(name, system, { quick: values['quick'] === true, onProgress: (d, t, l) => progress.update(d, t, l) });
    progress.done();
    const path = await saveOperatorFits(fits);
    if (values['json']) {
      out(JSON.stringify({ command: 'calibrate', operator: name, path, fits }, null, 2));
      return;
    }
    out(`Calibrated ${name} on ${fits.map((f) => f.device).join(', ')}; stored in ${path}\n`);
    out(operatorFitTable(fits));
  } finally {
    await system.dispose();
  }
}
