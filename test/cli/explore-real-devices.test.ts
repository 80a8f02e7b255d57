// `dype explore` says how far a real device's figures may be from an execution: the spread of
// its probes on this input, how far the machine's speed moved during calibration (or that it was
// not measured), and across the speed readings earlier plans left. Issue 20: a CPU baseline is
// judged against what the plan states.

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

it('states the probe spread and, uncalibrated, that the speed drift is not measured until plans leave readings', async () => {
  const args = ['explore', 'spmm', '--generate', 'kronecker:scale=10,seed=3'];
  type Spread = { device: string; probeSpread?: number; speedDrift?: number; speedHistory?: { readings: number; drift: number } };
  const first = await runCli([...args, '--json']);
  expect(first.code).toBe(0);
  const cpu = (JSON.parse(first.out) as { realDevices: Spread[] }).realDevices.find((d) => d.device === 'cpu');
  expect(cpu?.probeSpread).toBeGreaterThanOrEqual(0);
  expect(cpu?.speedDrift).toBeUndefined();
  // One plan's three readings of the sentinel are too few to state a drift.
  expect(cpu?.speedHistory).toBeUndefined();
  const text = await runCli([...args, '--no-plot']);
  expect(text.out).toMatch(
    /^cpu's figures: probed on this input \(\+-\d+% between the probe's runs\); \+-\d+% across 6 readings over \d+ minutes? of plans, so an execution may land \+-\d+% from them\.$/m,
  );
});

it('with a calibrated drift and a history, says an execution may land as far off as the largest', () => {
  expect(spreadLines([{ device: 'cpu', probeSpread: 0.04, speedDrift: 0.47, speedHistory: undefined }])).toEqual([
    "cpu's figures: probed on this input (+-4% between the probe's runs); its speed moved +-47% during calibration, so an execution may land +-47% from them.",
  ]);
  expect(spreadLines([{ device: 'cpu', probeSpread: 0.04, speedDrift: 0.11, speedHistory: { drift: 0.6, readings: 40, spanSeconds: 3 * 3600 } }])).toEqual([
    "cpu's figures: probed on this input (+-4% between the probe's runs); its speed moved +-11% during calibration and +-60% across 40 readings over 3 hours of plans, so an execution may land +-60% from them.",
  ]);
  expect(spreadLines([{ device: 'cpu', probeSpread: undefined, speedDrift: undefined, speedHistory: undefined }])[0]).toMatch(/^cpu's figures: not probed; /);
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
