// The dense operators on a CUDA GPU beside the same calls on this machine's CPU, at GNN sizes:
// the kernels' own time (CUDA events), the whole call's wall time (copies in and out included),
// the CPU's time, and the kernels' rate against the card's bandwidth or arithmetic. Needs a GPU.
// Run: node --import tsx bench/gpu/dense-ops.ts [--rows 262144] [--repeats 7]

import { parseArgs } from 'node:util';
import { DenseMatrix, type Precision } from '../../src/data/dense.js';
import { cudaBlas, cudaProbe } from '../../src/devices/backends/gpu.js';
import { generate } from '../../src/generators/index.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import {
  type DenseTarget,
  nativeAdd,
  nativeAffine,
  nativeGemm,
  nativeReducePartial,
  nativeRelu,
  nativeSddmm,
  type NativeDenseResult,
} from '../../src/kernels/dense.js';
import { median } from '../../src/stats.js';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '262144' }, repeats: { type: 'string', default: '7' } }, strict: true });
const rows = Number(args.rows);
const repeats = Number(args.repeats);
const probe = cudaProbe();
if (!probe.available) {
  console.log(`dense-ops: no CUDA device (${probe.reason})`);
  process.exit(0);
}
console.log(`${probe.name}; GEMM: ${cudaBlas().available ? cudaBlas().library : cudaBlas().reason}`);

function randomDense(r: number, c: number, precision: Precision, seed: number): DenseMatrix {
  const data = precision === 'f32' ? new Float32Array(r * c) : new Float64Array(r * c);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s / 2 ** 32 - 0.5;
  }
  return new DenseMatrix(r, c, data);
}

type Call = (on: DenseTarget) => Promise<NativeDenseResult<unknown>>;

async function time(call: Call): Promise<{ kernel: number; wall: number; cpu: number; h2d: number; d2h: number }> {
  await call('gpu');
  await call('cpu');
  const kernel: number[] = [];
  const wall: number[] = [];
  const cpu: number[] = [];
  const h2d: number[] = [];
  const d2h: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const g = await call('gpu');
    kernel.push(g.run!.kernelSeconds);
    wall.push(g.seconds);
    h2d.push(g.run!.h2dBytes / Math.max(g.run!.h2dSeconds, 1e-9) / 1e9);
    d2h.push(g.run!.d2hBytes / Math.max(g.run!.d2hSeconds, 1e-9) / 1e9);
    cpu.push((await call('cpu')).seconds);
  }
  return { kernel: median(kernel), wall: median(wall), cpu: median(cpu), h2d: median(h2d), d2h: median(d2h) };
}

const graph = generate({ kind: 'kronecker', scale: 17, seed: 1 }) as CsrMatrix;
const rowsOut: string[][] = [];
for (const precision of ['f32', 'f64'] as const) {
  const e = precision === 'f32' ? 4 : 8;
  const x = randomDense(rows, 64, precision, 1);
  const w = randomDense(64, 64, precision, 2);
  const y = randomDense(rows, 64, precision, 3);
  const u = randomDense(graph.rows, 16, precision, 4);
  const cases: [string, Call, number, 'GB/s' | 'GFLOP/s'][] = [
    [`gemm ${rows}x64x64`, (on) => nativeGemm(x, w, undefined, on), 2 * rows * 64 * 64, 'GFLOP/s'],
    [`relu ${rows}x64`, (on) => nativeRelu(x, undefined, on), 2 * rows * 64 * e, 'GB/s'],
    [`affine ${rows}x64`, (on) => nativeAffine(x, 0.5, 1, undefined, on), 2 * rows * 64 * e, 'GB/s'],
    [`add ${rows}x64`, (on) => nativeAdd(x, y, undefined, on), 3 * rows * 64 * e, 'GB/s'],
    [`reduce sum ${rows}x64`, (on) => nativeReducePartial(x, 'sum', undefined, on), rows * 64 * e, 'GB/s'],
    [`sddmm kron17 k=16`, (on) => nativeSddmm(graph, u, u, undefined, on), 2 * graph.nnz * 16, 'GFLOP/s'],
  ];
  for (const [name, call, work, unit] of cases) {
    const t = await time(call);
    const ms = (s: number): string => (s * 1e3).toFixed(3);
    rowsOut.push([
      `${name} ${precision}`,
      ms(t.kernel),
      ms(t.wall),
      ms(t.cpu),
      `${(work / t.kernel / 1e9).toFixed(0)} ${unit}`,
      (t.cpu / t.wall).toFixed(2),
      `${t.h2d.toFixed(1)} / ${t.d2h.toFixed(1)}`,
    ]);
  }
}
console.log('| operator | GPU kernels ms | GPU call ms (copies) | CPU ms | GPU kernels rate | CPU ms / GPU call ms | copies in / out GB/s |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rowsOut) console.log(`| ${r.join(' | ')} |`);
console.log(`(medians of ${repeats}; CPU: this machine's cores through dype's native kernels)`);
