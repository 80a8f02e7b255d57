// `dype explore` says how far a real device's figures may be from an execution: the spread of
// its probes on this input, and how far the machine's speed moved during calibration (or that it
// was not measured). Issue 20: a CPU baseline is judged against what the plan states.

import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spreadLines, timeWeightedSpread } from '../../src/cli/commands/explore-spread.js';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

const saved = process.env['DYPE_CACHE_DIR'];
beforeAll(() => {
  process.env['DYPE_CACHE_DIR'] = join(tempFolder('dype-explore-spread-'), 'cache'); // uncalibrated
});
afterAll(() => {
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
});

it('states the probe spread and, uncalibrated, that the speed drift is not measured', async () => {
  const args = ['explore', 'spmm', '--generate', 'kronecker:scale=10,seed=3'];
  const json = await runCli([...args, '--json']);
  expect(json.code).toBe(0);
  const { realDevices } = JSON.parse(json.out) as { realDevices: { device: string; probeSpread?: number; speedDrift?: number }[] };
  const cpu = realDevices.find((d) => d.device === 'cpu');
  expect(cpu?.probeSpread).toBeGreaterThanOrEqual(0);
  expect(cpu?.speedDrift).toBeUndefined();
  const text = await runCli([...args, '--no-plot']);
  expect(text.out).toMatch(
    /^cpu's figures: probed on this input \(\+-\d+% between the probe's runs\); how far its speed moves on this machine is not measured/m,
  );
});

it('with a calibrated drift, says an execution may land that far off', () => {
  expect(spreadLines([{ device: 'cpu', probeSpread: 0.04, speedDrift: 0.47 }])).toEqual([
    "cpu's figures: probed on this input (+-4% between the probe's runs); its speed moved +-47% during calibration, so an execution may land that far from them.",
  ]);
  expect(spreadLines([{ device: 'cpu', probeSpread: undefined, speedDrift: undefined }])[0]).toMatch(/^cpu's figures: not probed; /);
});

it("weighs each operator's probe spread by its seconds: a short noisy operator does not make a long baseline that uncertain", () => {
  // A 13 us ReLU whose probe caught one slow run beside 290 us of operators probed within 5%.
  const parts = [
    { seconds: 250e-6, spread: 0.05 },
    { seconds: 40e-6, spread: 0.05 },
    { seconds: 13e-6, spread: 19.38 },
  ];
  const s = timeWeightedSpread(parts)!;
  expect(s).toBeCloseTo((290e-6 * 0.05 + 13e-6 * 19.38) / 303e-6, 12);
  expect(s).toBeLessThan(1);
  expect(timeWeightedSpread([])).toBeUndefined();
  expect(timeWeightedSpread([{ seconds: 0, spread: 0.3 }])).toBe(0);
});
