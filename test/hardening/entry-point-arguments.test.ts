// Arguments of the wrong kind to the public functions and classes that had no check of their own
// (found by calling each export of src/index.ts with null, numbers and empty objects): each now
// throws or rejects with a typed error naming itself, where before most leaked a TypeError
// ("Cannot read properties of null") from inside, and pagerankDefinition and streamOf accepted
// garbage silently.

import { describe, expect, it } from 'vitest';
import * as dype from '../../src/index.js';
import { type DypeError, InvalidArgumentError } from '../../src/errors.js';

type Call = () => unknown;

const CASES: [string, RegExp, Call][] = [
  ['Oracle.build', /^Oracle.build: problem must be a planning problem/, () => dype.Oracle.build(null as never)],
  ['deviceKey', /^deviceKey: device must be a device of a System/, () => dype.deviceKey(null as never)],
  ['loadCostModel', /^loadCostModel: system must be a System/, () => dype.loadCostModel({} as never)],
  ['CostModel', /^CostModel: system must be a System/, () => new dype.CostModel(null as never)],
  ['calibrate', /^calibrate: system must be a System/, () => dype.calibrate(null as never)],
  ['measureAccuracy', /^measureAccuracy: model must be a CostModel/, () => dype.measureAccuracy(null as never, [])],
  ['pipelinedMakespan', /^pipelinedMakespan: results must be an array of runPlan results/, () => dype.pipelinedMakespan([1] as never)],
  ['streamOf', /^streamOf: workload must be a Workload/, () => dype.streamOf({} as never)],
  ['pagerankDefinition', /^pagerankDefinition: iterations must be in \[1, 1000\], got -1/, () => dype.pagerankDefinition(-1)],
  ['pagerankDefinition', /^pagerankDefinition: damping must be a finite number, got "x"/, () => dype.pagerankDefinition(4, 'x' as never)],
  ['referenceValues', /^referenceValues: bound must come from bindWorkload/, () => dype.referenceValues(null as never)],
  ['bindWorkload', /^bindWorkload: workload must be a Workload/, () => dype.bindWorkload(null as never, null as never)],
  ['chromeTrace', /^chromeTrace: result must be a runPlan result/, () => dype.chromeTrace(null as never)],
  ['TraceRecorder', /^TraceRecorder: title must be a string/, () => new dype.TraceRecorder(5 as never)],
  ['DriftMonitor', /^DriftMonitor: options must be an object/, () => new dype.DriftMonitor(null as never)],
  ['DeviceLoss', /^DeviceLoss\.withdraw: device must be a device name/, () => new dype.DeviceLoss().withdraw(3 as never)],
  ['Placement', /^Placement: system must be a System/, () => new dype.Placement(null as never)],
  ['System', /^System: devices and links must be arrays/, () => new dype.System('s', null as never, null as never)],
  ['WorkloadBuilder', /^WorkloadBuilder: name must be a string/, () => new dype.WorkloadBuilder(5 as never)],
  ['spmmReference', /^spmmReference: expected a CsrMatrix, got null/, () => dype.spmmReference(null as never, new Float64Array(0), 1)],
  ['bfsReference', /^bfsReference: source must be in \[0, 3\], got 9/, () => dype.bfsReference(dype.gridGraph({ rows: 2, cols: 2 }), 9)],
  ['msbfsReference', /^msbfsReference: sources must be an Int32Array/, () => dype.msbfsReference(dype.gridGraph({ rows: 2, cols: 2 }), [0] as never)],
];

describe('public functions refuse arguments of the wrong kind by name', () => {
  it.each(CASES)('%s: %s', async (_name, message, call) => {
    let error: unknown;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as DypeError).code).toBe('ERR_INVALID_ARGUMENT');
    expect((error as Error).message).toMatch(message);
  });
});
