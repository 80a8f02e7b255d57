// Dense operators on the card. A CUDA GPU is offered GEMM (where cuBLAS was found), the
// element-wise steps, reductions and SDDMM only where it has kernels of its own for them; with a
// device, GCN, GraphSAGE and PageRank run with every operator on it, labelled measured, and give
// the reference's outputs. (Each kernel against the reference: the dense conformance suite.)

import { describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../../src/data/dense.js';
import { cudaBlas, cudaProbe, gpuBackend } from '../../../src/devices/backends/gpu.js';
import { loadProfile } from '../../../src/devices/spec.js';
import { UnsupportedError } from '../../../src/errors.js';
import { runPlan } from '../../../src/executor/run.js';
import { nativeGemm, nativeRelu } from '../../../src/kernels/dense.js';
import { allOn, expectReferenceOutputs, Planner, withGenome } from '../../executor/executor-fixtures.js';
import { denseOf } from '../conformance/dense-harness.js';
import { cpuAndCard } from './gpu-fixtures.js';

const probe = cudaProbe();
const DENSE_KINDS = ['sddmm', 'relu', 'affine', 'add', 'reduce'];

describe.skipIf(probe.available)('dense operators without a CUDA device', () => {
  it('the card is offered none, and the entry points refuse with the reason', async () => {
    const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
    expect(device.capabilities.denseKernels).toEqual([]);
    expect(cudaBlas()).toMatchObject({ available: false, reason: expect.stringMatching(/^cuBLAS was not looked for: no CUDA device/) });
    const x = denseOf(5, 3, 'f32', 1);
    const err = await nativeRelu(x, undefined, 'gpu').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnsupportedError);
    expect((err as Error).message).toMatch(/^gpuRelu: /);
    await expect(nativeGemm(x, denseOf(3, 2, 'f32', 2), undefined, 'gpu')).rejects.toThrow(/^gpuGemm: /);
  });

  it('bad arguments are refused before the device is asked for', async () => {
    await expect(nativeRelu(new DenseMatrix(2, 2, new Float32Array(4)), [1, 5], 'gpu')).rejects.toThrow(/^gpuRelu: rows \[1, 5\)/);
  });
});

describe.skipIf(!probe.available)('dense operators on a CUDA device', () => {
  it('offers the kernels it has: GEMM only with cuBLAS', () => {
    const device = gpuBackend.create('gpu0', loadProfile('test', 'gpu', 'cuda', gpuBackend.params));
    const want = cudaBlas().available ? [...DENSE_KINDS, 'gemm'] : DENSE_KINDS;
    expect([...(device.capabilities.denseKernels ?? [])].sort()).toEqual([...want].sort());
  });

  it('reports the kernels time and the copies of a dense call', async () => {
    const x = denseOf(4096, 64, 'f32', 3);
    const r = await nativeRelu(x, undefined, 'gpu');
    expect(r.run).toBeDefined();
    expect(r.run!.kernelSeconds).toBeGreaterThan(0);
    expect(r.run!.h2dBytes).toBe(x.data.byteLength);
    expect(r.run!.d2hBytes).toBe(x.data.byteLength);
    expect(r.seconds).toBeGreaterThanOrEqual(r.run!.kernelSeconds);
  });

  it.each(['gcn', 'sage', 'pagerank'])('%s runs every operator on the card with the reference outputs', async (name) => {
    const planner = new Planner(cpuAndCard());
    const first = await planner.plan(name);
    const plan = withGenome(first, allOn(first, 'gpu'));
    // No re-planning: the spec-derived model's drift would move operators off the card.
    const result = await runPlan(plan, { replan: false });
    expectReferenceOutputs(plan, result);
    expect(result.pieces.length).toBeGreaterThan(0);
    for (const p of result.pieces) expect([p.op, p.device, p.source]).toEqual([p.op, 'gpu', 'measured']);
    // A system of real devices only: the makespan is read off the host's clock.
    expect(result.makespanSource).toBe('measured');
  });
});
