// A BFS stopped and resumed on a real GPU (skipped where there is none), beyond the conformance
// suite's small steps: long thin graphs whose thin levels run in batches that a level limit must
// cut short; a search handed between the CPU and the card; and a resumed depth out of range,
// refused by the addon itself (the device layer checks it first, so this is the native check).

import { describe, expect, it } from 'vitest';
import { cpuBackend } from '../../../src/devices/backends/cpu.js';
import { cudaAddon, cudaProbe, gpuBackend } from '../../../src/devices/backends/gpu.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { generate } from '../../../src/generators/index.js';
import { callNative } from '../../../src/kernels/native-call.js';
import { checkSteppedBfs } from '../conformance/harness.js';
import { path } from './gpu-fixtures.js';

const probe = cudaProbe();

describe.skipIf(!probe.available)('BFS resumed on a CUDA device', () => {
  const gpu = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
  const cpu = cpuBackend.create('cpu0', loadProfile('test', 'cpu', cpuBackend.defaultProfile, cpuBackend.params));
  const grid = generate({ kind: 'grid', rows: 1500, cols: 6, seed: 3 });
  const line = path(3000);

  it('long thin graphs in steps that cut the batched levels (37 and 100 levels a call)', async () => {
    for (const step of [37, 100]) {
      await checkSteppedBfs([gpu], grid, 0, step);
      await checkSteppedBfs([gpu], line, 1500, step);
    }
  });

  it('handed between the CPU and the card, each way first', async () => {
    await checkSteppedBfs([cpu, gpu], grid, 7, 29);
    await checkSteppedBfs([gpu, cpu], line, 0, 250);
  });

  it('a resumed depth outside [-1, level] is refused, named by vertex', async () => {
    const g = line;
    const depth = new Int32Array(g.rows).fill(-1);
    depth[0] = 0;
    depth[1] = 1;
    depth[9] = 4; // deeper than the level resumed
    const err = await callNative('test', () => cudaAddon().gpuBfs(g.rows, g.rowPtr, g.colIdx, g.rowPtr, g.colIdx, 0, depth, 0, 15, 18, 1, 0)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message).toMatch(/gpuBfs: depth\[9\] = 4 is outside \[-1, 1\]/);
    expect(depth[9]).toBe(4); // nothing was written
  });
});
