// No operator runs where it claims not to. A real device with memory of its own (a CUDA GPU) has
// no dense kernels yet, so the planner does not offer it GEMM or element-wise work, and the piece
// runner refuses to time host code under its name. Before, such pieces ran on the host and were
// labelled `measured` on the GPU at the GPU's power, and that figure fed the drift check.

import { describe, expect, it } from 'vitest';
import type { Device } from '../../src/devices/device.js';
import { UnsupportedError } from '../../src/errors.js';
import { runPiece } from '../../src/executor/piece.js';
import { canRun } from '../../src/scheduler/space.js';
import { referenceValues } from '../../src/workloads/reference.js';
import { bindChain, twoDeviceSystem } from './schedule-fixtures.js';

/** The simulated GPU dressed as real hardware with memory of its own (what the CUDA backend is). */
function realGpu(): Device {
  const sim = twoDeviceSystem().devices[0]!;
  return Object.assign(Object.create(Object.getPrototypeOf(sim) as object) as Device, sim, { simulated: false, backend: 'gpu' });
}

describe('dense operators on a real device without dense kernels', () => {
  const bound = bindChain();
  const relu = bound.ops[1]!;
  const spmm = bound.ops[0]!;

  it('are not offered to it by the mapping space, while its sparse kernels are', () => {
    const gpu = realGpu();
    expect(relu.kind).toBe('relu');
    expect(canRun(gpu, relu, bound)).toBe(false);
    expect(canRun(gpu, spmm, bound)).toBe(true);
    // A simulator prices them by its roofline; the host CPU times them.
    expect(canRun(twoDeviceSystem().devices[0]!, relu, bound)).toBe(true);
  });

  it('are refused by the piece runner rather than timed on the host under its name', async () => {
    const values = referenceValues(bound);
    const x = relu.operands.map((v) => values[v]!);
    await expect(runPiece(bound, relu, realGpu(), x, 0, relu.units)).rejects.toBeInstanceOf(UnsupportedError);
    await expect(runPiece(bound, relu, realGpu(), x, 0, relu.units)).rejects.toThrow(/^runPiece: relu has no kernel on gpu \(gpu\)/);
  });
});
