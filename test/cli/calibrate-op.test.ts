// `dype calibrate --op NAME --module FILE` imports a module exporting a user operator's spec,
// times its CPU code on generated inputs, stores the fit in the cache folder, and a model loaded
// afterwards prices the operator by it (basis `calibrated fit`) where it priced it by the
// roofline before; bad modules, missing operators and lone flags are refused with clear errors.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadCostModel } from '../../src/cost/store.js';
import { fittedSeconds } from '../../src/cost/operator-fits.js';
import { buildSystem } from '../../src/devices/system.js';
import { denseFeatures } from '../../src/generators/index.js';
import { undefineOperator } from '../../src/operators/define.js';
import { ModelCostSource } from '../../src/scheduler/costs.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

const saved = process.env['DYPE_CACHE_DIR'];
let dir = '';
let moduleFile = '';
let systemFile = '';
const SYSTEM = { name: 'cpu-only', devices: [{ name: 'cpu', backend: 'cpu' }], links: [] };

beforeAll(() => {
  dir = tempFolder('dype-calibrate-op-');
  process.env['DYPE_CACHE_DIR'] = join(dir, 'cache');
  const dense = join(import.meta.dirname, '..', '..', 'src', 'data', 'dense.ts');
  moduleFile = join(dir, 'ops.mjs');
  writeFileSync(
    moduleFile,
    `import { DenseMatrix } from ${JSON.stringify(dense)};
const twice = (x, b = 0, e = x.rows) => {
  const out = new Float32Array((e - b) * x.cols);
  for (let i = b * x.cols, k = 0; i < e * x.cols; i++, k++) out[k] = 2 * x.data[i];
  return new DenseMatrix(e - b, x.cols, out);
};
export const operators = [{
  name: 'twice', inputs: ['dense'],
  output: ([x]) => ({ rows: x.rows, cols: x.cols }),
  reference: ([x]) => twice(x),
  devices: { cpu: ([x], [b, e]) => twice(x, b, e) },
}];
export default { name: 'picky', inputs: ['dense'],
  output: ([x]) => { if (x.cols !== 3) throw new Error('picky wants 3 columns'); return { rows: x.rows, cols: 3 }; },
  reference: ([x]) => x, devices: { cpu: ([x]) => x } };
`,
  );
  systemFile = join(dir, 'cpu.json');
  writeFileSync(systemFile, JSON.stringify(SYSTEM));
});
afterAll(() => {
  undefineOperator('twice');
  undefineOperator('picky');
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
});

/** The CPU's estimate of `twice` on a 4096 x 32 input, from a model loaded now. */
async function estimate() {
  const system = buildSystem(SYSTEM, 'calibrate-op');
  const model = await loadCostModel(system);
  const x = denseFeatures({ rows: 4096, cols: 32, seed: 1 });
  const bound = bindWorkload(new WorkloadBuilder('w').dense('x', { rows: 4096, cols: 32 }).op('y', 'twice', ['x']).output('y').build(), { x });
  const whole = new ModelCostSource(bound, system, model).whole(bound.ops[0]!, 0);
  const fit = model.operatorFit('twice', 'cpu');
  await system.dispose();
  return { whole, fit, op: bound.ops[0]! };
}

it('fits a user operator from a module, stores it, and the model prices the operator by it', async () => {
  const r = await runCli(['calibrate', '--op', 'twice', '--module', moduleFile, '--quick', '--system', systemFile, '--json']);
  expect(r.code, r.err).toBe(0);
  const report = JSON.parse(r.out) as {
    operator: string;
    path: string;
    fits: { samples: number; launchSeconds: number; secondsPerFlop: number; secondsPerByte: number; timeMape: number }[];
  };
  expect(report.operator).toBe('twice');
  expect(report.path).toMatch(/calibration-.*-operators-v1\.msgpack$/);
  expect(report.fits).toHaveLength(1);
  const f = report.fits[0]!;
  expect(f.samples).toBe(3);
  for (const v of [f.launchSeconds, f.secondsPerFlop, f.secondsPerByte, f.timeMape]) expect(v).toBeGreaterThanOrEqual(0);
  expect(f.secondsPerFlop + f.secondsPerByte).toBeGreaterThan(0);

  const { whole, fit, op } = await estimate();
  expect(fit).toBeDefined();
  expect(whole.basis).toBe('calibrated fit');
  expect(whole.seconds).toBeCloseTo(fittedSeconds(fit!, op.flops, op.bytes), 15);
});

it('refuses a module that lacks the operator (a usage error), an input the operator refuses (a failure), and --op alone', async () => {
  const missing = await runCli(['calibrate', '--op', 'nope', '--module', moduleFile, '--quick', '--system', systemFile]);
  expect(missing.code).toBe(2);
  expect(missing.err).toMatch(/neither defines operator "nope" nor exports its spec .* it exports "twice", "picky"/);
  const picky = await runCli(['calibrate', '--op', 'picky', '--module', moduleFile, '--quick', '--system', systemFile]);
  expect(picky.code).toBe(1);
  expect(picky.err).toMatch(/picky refuses calibration input 0 \(1024x32\).*picky wants 3 columns.*give the operator `calibration` inputs/);
  const lone = await runCli(['calibrate', '--op', 'twice']);
  expect(lone.code).toBe(2);
  expect(lone.err).toMatch(/--op NAME and --module FILE go together/);
  const badFile = await runCli(['calibrate', '--op', 'twice', '--module', join(dir, 'absent.mjs')]);
  expect(badFile.code).toBe(2);
  expect(badFile.err).toMatch(/cannot import .*absent\.mjs/);
});
