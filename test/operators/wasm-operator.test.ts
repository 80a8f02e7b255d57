// A user operator whose code is a WebAssembly module, compiled here from AssemblyScript against
// the ABI of src/operators/wasm-library.ts: it runs in a workload (whole and split between the CPU
// and the simulated GPU) and in a session with its reference's output, also when the kernel grows
// (and so detaches) the module's memory mid-call; a kernel's error code is an OperatorError at its
// piece, and so is a trap; a module without the ABI's exports, or bytes that are no module, are refused at definition.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { ExecutionError, InvalidArgumentError, OperatorError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { denseFeatures } from '../../src/generators/index.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { wasmImplementation } from '../../src/operators/wasm-library.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { allOn, expectSameValue, withGenome } from '../executor/executor-fixtures.js';
import { machine, quietSession, smallGraph } from '../session/session-fixtures.js';
import { rowScale, rowScaleSpec } from './user-fixtures.js';

// Descriptor fields (i32 each): kind, precision, rows, cols, data, rowPtr, colIdx, values; output: rows, cols, precision, data.
const SOURCE = `
export function alloc(n: i32): usize { return heap.alloc(<usize>n); }
export function free(p: usize): void { heap.free(p); }
function field(d: usize, k: i32): usize { return <usize>load<i32>(d + <usize>(4 * k)); }
function scaleRows(ops: usize, b: i32, e: i32, out: usize): void {
  const a = ops;
  const x = ops + 32;
  const rowPtr = field(a, 5);
  const values = field(a, 7);
  const aPrec = load<i32>(a + 4);
  const cols = load<i32>(x + 12);
  const xPrec = load<i32>(x + 4);
  const xData = field(x, 4);
  const outData = field(out, 3);
  for (let i = b; i < e; i++) {
    let sum: f64 = 0;
    for (let p = load<i32>(rowPtr + <usize>(4 * i)); p < load<i32>(rowPtr + <usize>(4 * (i + 1))); p++) {
      sum += values == 0 ? 1.0 : aPrec == 4 ? <f64>load<f32>(values + <usize>(4 * p)) : load<f64>(values + <usize>(8 * p));
    }
    for (let j = 0; j < cols; j++) {
      const xv: f64 = xPrec == 4 ? <f64>load<f32>(xData + <usize>(4 * (i * cols + j))) : load<f64>(xData + <usize>(8 * (i * cols + j)));
      const o = <usize>((i - b) * cols + j);
      if (xPrec == 4) store<f32>(outData + 4 * o, <f32>(sum * xv));
      else store<f64>(outData + 8 * o, sum * xv);
    }
  }
}
export function row_scale(ops: usize, count: i32, b: i32, e: i32, out: usize, err: usize, errSize: i32): i32 {
  if (count != 2 || load<i32>(ops) != 1 || load<i32>(ops + 32) != 0) {
    store<u8>(err, 119); store<u8>(err + 1, 63); store<u8>(err + 2, 0);
    return 1;
  }
  scaleRows(ops, b, e, out);
  return 0;
}
export function grows_then_scales(ops: usize, count: i32, b: i32, e: i32, out: usize, err: usize, errSize: i32): i32 {
  const big = heap.alloc(32 << 20);
  store<u8>(big, 1);
  heap.free(big);
  scaleRows(ops, b, e, out);
  return 0;
}
export function always_fails(ops: usize, count: i32, b: i32, e: i32, out: usize, err: usize, errSize: i32): i32 {
  const text = "out of scratchpad";
  for (let k = 0; k < text.length; k++) store<u8>(err + <usize>k, <u8>text.charCodeAt(k));
  store<u8>(err + <usize>text.length, 0);
  return 5;
}
export function traps(ops: usize, count: i32, b: i32, e: i32, out: usize, err: usize, errSize: i32): i32 {
  unreachable();
  return 0;
}
`;

let dir = '';
let bytes: Uint8Array;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dype-wasm-op-'));
  writeFileSync(join(dir, 'kernels.ts'), SOURCE);
  const asc = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'asc');
  execFileSync(asc, [join(dir, 'kernels.ts'), '--outFile', join(dir, 'kernels.wasm'), '-O', '--runtime', 'incremental'], { stdio: 'pipe' });
  bytes = readFileSync(join(dir, 'kernels.wasm'));
  const scale = wasmImplementation(bytes, 'row_scale');
  defineOperator(rowScaleSpec({ name: 'wasm-row-scale', devices: { cpu: scale, 'gpu-sim': wasmImplementation(new WebAssembly.Module(bytes), 'row_scale') } }));
  defineOperator(rowScaleSpec({ name: 'wasm-grows', devices: { cpu: wasmImplementation(bytes, 'grows_then_scales') } }));
  defineOperator(rowScaleSpec({ name: 'wasm-fails', devices: { cpu: wasmImplementation(bytes, 'always_fails') } }));
  defineOperator(rowScaleSpec({ name: 'wasm-traps', devices: { cpu: wasmImplementation(bytes, 'traps') } }));
}, 60_000);
afterAll(() => {
  for (const name of ['wasm-row-scale', 'wasm-grows', 'wasm-fails', 'wasm-traps']) undefineOperator(name);
  rmSync(dir, { recursive: true, force: true });
});

const using = (kind: string, cols = 6) =>
  new WorkloadBuilder(`w-${kind}`)
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols, generate: 'random' })
    .op('y', kind, ['A', 'X'])
    .output('y')
    .build();

it('runs in a workload, whole on the CPU and split with the simulated GPU, equal to its reference', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const plan = await schedule(using('wasm-row-scale'), graph, { system, model, probe: false });
  const x = plan.problem.bound.values.find((v) => v.name === 'X')!.data as DenseMatrix;
  const whole = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, learn: false });
  expectSameValue(whole.outputs['y'], rowScale(graph, x), 'wasm row-scale (cpu)');
  const split = plan.problem.choices[0]!.findIndex((c) => c.parts.length === 2);
  expect(split).toBeGreaterThanOrEqual(0);
  const parts = await runPlan(withGenome(plan, Int32Array.of(split)), { replan: false, learn: false });
  expectSameValue(parts.outputs['y'], rowScale(graph, x), 'wasm row-scale (split)');
  await system.dispose();
});

it('runs from a session, also when the kernel grows the module memory mid-call', async () => {
  const { system, model } = machine();
  const graph = smallGraph(2);
  const x = denseFeatures({ rows: graph.rows, cols: 3, seed: 9, precision: 'f64' });
  const s = quietSession(system, model);
  expectSameValue(await s.call('wasm-row-scale', [graph, x]).value(), rowScale(graph, x), 'wasm row-scale (session)');
  expectSameValue(await s.call('wasm-grows', [graph, x]).value(), rowScale(graph, x), 'wasm grows (session)');
  await s.close();
  await system.dispose();
});

it("turns a kernel's error code into an OperatorError at its piece", async () => {
  const { system, model } = machine();
  const plan = await schedule(using('wasm-fails'), smallGraph(), { system, model, probe: false });
  const err = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, learn: false }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExecutionError);
  const cause = (err as ExecutionError).cause as OperatorError;
  expect(cause).toBeInstanceOf(OperatorError);
  expect(cause.message).toBe('wasm-fails.devices.cpu: threw: wasmImplementation(always_fails) returned 5: out of scratchpad');
  await system.dispose();
});

it('turns a trap in the kernel into an OperatorError at its piece, and the process goes on', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const plan = await schedule(using('wasm-traps'), graph, { system, model, probe: false });
  const err = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, learn: false }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExecutionError);
  expect((err as ExecutionError).cause).toBeInstanceOf(OperatorError);
  expect(((err as ExecutionError).cause as Error).message).toMatch(/^wasm-traps\.devices\.cpu: threw: unreachable/);
  const s = quietSession(system, model);
  const x = denseFeatures({ rows: graph.rows, cols: 2, seed: 4 });
  expectSameValue(await s.call('wasm-row-scale', [graph, x]).value(), rowScale(graph, x), 'wasm row-scale after a trap');
  await s.close();
  await system.dispose();
});

it('refuses bytes that are no module, a module without the ABI, and a missing kernel at definition', () => {
  expect(() => wasmImplementation(new Uint8Array([1, 2, 3]), 'row_scale')).toThrow(InvalidArgumentError);
  expect(() => wasmImplementation(new Uint8Array([1, 2, 3]), 'row_scale')).toThrow(/^wasmImplementation: source is not a WebAssembly module/);
  expect(() => wasmImplementation(bytes, 'no_such_kernel')).toThrow(/^wasmImplementation: the module has no function export "no_such_kernel"/);
  expect(() => wasmImplementation(bytes, '')).toThrow(/^wasmImplementation: kernel must be the name of an export/);
  // The smallest module: no exports at all.
  const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  expect(() => wasmImplementation(empty, 'row_scale')).toThrow(/^wasmImplementation: the module must export its memory as "memory"/);
});
