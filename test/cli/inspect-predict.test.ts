// `dype inspect --predict` prints the cost model's predictions for every device, labelled as
// predictions and with the model's state (uncalibrated here: an empty cache folder).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSystem } from '../../src/devices/system.js';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

const saved = process.env['DYPE_CACHE_DIR'];
beforeAll(() => {
  process.env['DYPE_CACHE_DIR'] = tempFolder('dype-inspect-');
});
afterAll(() => {
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
});

describe('dype inspect --predict', () => {
  it('predicts SpMM, SpMV and BFS on every detected device', async () => {
    const r = await runCli(['inspect', '--generate', 'grid:rows=40,cols=40', '--predict', '--k', '8']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Predicted cost \(cost model, not measured; SpMM k=8 FP32/);
    const rows = r.out.split('\n').filter((l) => /\s(spmm|spmv|bfs)\s/.test(l) && /uncalibrated$/.test(l));
    expect(rows.length).toBe(3 * (await detectSystem()).devices.length);
  });

  it('gives predictions in --json', async () => {
    const r = await runCli(['inspect', '--generate', 'grid:rows=20,cols=20', '--predict', '--json']);
    const o = JSON.parse(r.out) as { predictions: { device: string; seconds: number; state: string }[] };
    expect(o.predictions.length).toBe(3 * (await detectSystem()).devices.length);
    expect(o.predictions.every((p) => p.seconds > 0 && p.state === 'uncalibrated')).toBe(true);
  });

  it('checks --k', async () => {
    const r = await runCli(['inspect', '--generate', 'grid:rows=20,cols=20', '--predict', '--k', '0']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--k must be an integer in \[1, 4096\]/);
  });
});
