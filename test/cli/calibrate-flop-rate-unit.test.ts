// `dype calibrate` writes the fitted operators' rates in FLOP/s, as `dype kernels`, explore and
// the docs do: its table read "199 Gflop/s" beside kernels' "19.5 GFLOP/s".

import { expect, it } from 'vitest';
import { operatorFitTable } from '../../src/cli/commands/calibrate.js';

it('writes the flop rate as GFLOP/s', () => {
  const table = operatorFitTable([
    {
      kind: 'gemm',
      device: 'cpu/server-core/0',
      precision: 'f32',
      launchSeconds: 0,
      secondsPerFlop: 1 / 199e9,
      secondsPerByte: 0,
      samples: 3,
      timeMape: 0.046,
      quick: true,
      createdAt: '2026-12-02T00:00:00Z',
    },
  ]);
  expect(table).toMatch(/^gemm\s+cpu\/server-core\/0\s+f32\s+3\s+0 s\s+199 GFLOP\/s\s+-\s+4\.6%$/m);
  expect(table).not.toMatch(/flop\/s/);
});
