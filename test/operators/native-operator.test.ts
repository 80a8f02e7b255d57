// A user operator whose CPU code is a native shared library, built here from C against
// native/include/dype_operator.h: it runs in a workload and a session with its reference's output;
// a missing symbol or library is a NativeError at definition; a kernel's error code is an
// OperatorError at its piece.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DenseMatrix } from '../../src/data/dense.js';
import { ExecutionError, NativeError, OperatorError } from '../../src/errors.js';
import { runPlan } from '../../src/executor/run.js';
import { denseFeatures } from '../../src/generators/index.js';
import { defineOperator, undefineOperator } from '../../src/operators/define.js';
import { nativeImplementation } from '../../src/operators/native-library.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { WorkloadBuilder } from '../../src/workloads/builder.js';
import { allOn, expectSameValue, withGenome } from '../executor/executor-fixtures.js';
import { machine, quietSession, smallGraph } from '../session/session-fixtures.js';
import { rowScale, rowScaleSpec } from './user-fixtures.js';

const SOURCE = `
#include <stdio.h>
#include "dype_operator.h"
int32_t row_scale(const dype_operand* ops, int32_t count, int64_t begin, int64_t end, dype_output* out, char* error, size_t error_size) {
  if (count != 2 || ops[0].kind != DYPE_CSR || ops[1].kind != DYPE_DENSE) { snprintf(error, error_size, "wants (csr, dense)"); return 1; }
  const dype_operand* a = &ops[0];
  const dype_operand* x = &ops[1];
  for (int64_t i = begin; i < end; i++) {
    double sum = 0;
    for (int64_t p = a->row_ptr[i]; p < a->row_ptr[i + 1]; p++)
      sum += a->values == NULL ? 1.0 : a->precision == DYPE_F32 ? ((const float*)a->values)[p] : ((const double*)a->values)[p];
    for (int64_t j = 0; j < x->cols; j++) {
      double xv = x->precision == DYPE_F32 ? ((const float*)x->data)[i * x->cols + j] : ((const double*)x->data)[i * x->cols + j];
      if (out->precision == DYPE_F32) ((float*)out->data)[(i - begin) * out->cols + j] = (float)(sum * xv);
      else ((double*)out->data)[(i - begin) * out->cols + j] = sum * xv;
    }
  }
  return 0;
}
int32_t always_fails(const dype_operand* ops, int32_t count, int64_t begin, int64_t end, dype_output* out, char* error, size_t error_size) {
  snprintf(error, error_size, "no device memory for rows [%lld, %lld)", (long long)begin, (long long)end);
  return 7;
}
`;

let dir = '';
let library = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dype-native-op-'));
  writeFileSync(join(dir, 'row_scale.c'), SOURCE);
  library = join(dir, 'librowscale.so');
  execFileSync('cc', ['-shared', '-fPIC', '-O2', '-I', join(import.meta.dirname, '..', '..', 'native', 'include'), '-o', library, join(dir, 'row_scale.c')]);
  defineOperator(rowScaleSpec({ name: 'native-row-scale', devices: { cpu: nativeImplementation(library, 'row_scale') } }));
  defineOperator(rowScaleSpec({ name: 'native-fails', devices: { cpu: nativeImplementation(library, 'always_fails') } }));
});
afterAll(() => {
  undefineOperator('native-row-scale');
  undefineOperator('native-fails');
  rmSync(dir, { recursive: true, force: true });
});

const using = (kind: string) =>
  new WorkloadBuilder(`w-${kind}`)
    .sparse('A', { square: true })
    .dense('X', { rows: 'A.rows', cols: 6, generate: 'random' })
    .op('y', kind, ['A', 'X'])
    .output('y')
    .build();

it('runs in a workload, whole on the CPU and split, equal to its reference', async () => {
  const { system, model } = machine();
  const graph = smallGraph();
  const plan = await schedule(using('native-row-scale'), graph, { system, model, probe: false });
  const x = plan.problem.bound.values.find((v) => v.name === 'X')!.data as DenseMatrix;
  const result = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, learn: false });
  expectSameValue(result.outputs['y'], rowScale(graph, x), 'native row-scale');
  await system.dispose();
});

it('runs from a session', async () => {
  const { system, model } = machine();
  const graph = smallGraph(2);
  const x = denseFeatures({ rows: graph.rows, cols: 3, seed: 9 });
  const s = quietSession(system, model);
  expectSameValue(await s.call('native-row-scale', [graph, x]).value(), rowScale(graph, x), 'native row-scale (session)');
  await s.close();
  await system.dispose();
});

it('refuses a missing symbol or library at definition', () => {
  expect(() => nativeImplementation(library, 'no_such_kernel')).toThrow(NativeError);
  expect(() => nativeImplementation(library, 'no_such_kernel')).toThrow(/^nativeImplementation: .*librowscale\.so has no symbol "no_such_kernel"/);
  expect(() => nativeImplementation(join(dir, 'missing.so'), 'row_scale')).toThrow(/^nativeImplementation: userLibraryOpen: cannot load .*missing\.so/);
  expect(() => nativeImplementation(library, 'not a symbol')).toThrow(/^nativeImplementation: symbol must be a C identifier/);
});

it("turns a kernel's error code into an OperatorError at its piece", async () => {
  const { system, model } = machine();
  const plan = await schedule(using('native-fails'), smallGraph(), { system, model, probe: false });
  const err = await runPlan(withGenome(plan, allOn(plan, 'cpu')), { replan: false, learn: false }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExecutionError);
  const cause = (err as ExecutionError).cause as OperatorError;
  expect(cause).toBeInstanceOf(OperatorError);
  expect(cause.message).toBe('native-fails.devices.cpu: threw: returned 7: no device memory for rows [0, 256)');
  await system.dispose();
});

it('checks operands and the output buffer again at the native boundary', async () => {
  const { nativeAddon } = await import('../../src/native/addon.js');
  const call = (nativeAddon() as unknown as { userKernelCall: (...a: unknown[]) => void }).userKernelCall;
  const kernel = 0;
  const dense = { kind: 0, rows: 2, cols: 2, data: new Float32Array(3) };
  expect(() => call(kernel, [dense], 0, 2, 2, 2, new Float32Array(4))).toThrow(/userKernelCall: operands\[0\]\.data has length 3, expected rows \* cols/);
  const csr = { kind: 1, rows: 2, cols: 2, rowPtr: new Int32Array([0, 1, 2]), colIdx: new Int32Array([0, 5]), values: null };
  expect(() => call(kernel, [csr], 0, 2, 2, 2, new Float32Array(4))).toThrow(/operands\[0\]\.colIdx\[1\] = 5 is outside \[0, cols\)/);
  const ok = { kind: 0, rows: 2, cols: 2, data: new Float32Array(4) };
  expect(() => call(kernel, [ok], 0, 2, 2, 2, new Float32Array(3))).toThrow(/userKernelCall: out must have \(rowEnd - rowBegin\) \* outCols entries/);
  expect(() => call(kernel, [ok], 1, 3, 2, 2, new Float32Array(4))).toThrow(/userKernelCall: rowEnd must be an integer in \[1, 2\]/);
});
