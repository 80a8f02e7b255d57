// On a real device a probe runs an operator whole when it is predicted to be quick, not a sample
// of it: a sample of a streaming pass stays in cache where the whole does not, and GCN's ReLU and
// second GEMM on email-Enron were priced at a third and a half of what they took whole.
// Simulated devices and long operators keep the sample.

import { cpuCgraSystem } from './schedule-fixtures.js';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generators/index.js';
import { measuredRanges, probeRanges, WHOLE_PROBE_SECONDS } from '../../src/scheduler/probe-ranges.js';
import { bindWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';

describe('measuredRanges', () => {
  const system = cpuCgraSystem();
  const [cpu, cgra] = system.devices as [(typeof system.devices)[0], (typeof system.devices)[0]];
  const bound = bindWorkload(workload('gcn'), generate({ kind: 'grid', rows: 40, cols: 40, deleteFraction: 0, seed: 2 }));
  const relu = bound.ops.find((o) => o.kind === 'relu')!;
  // A budget far below the operator's size, so that probeRanges samples it.
  const maxEntries = 64;

  it('runs the whole of a quick operator on a real device', () => {
    expect(probeRanges(relu, bound, 0, relu.units, maxEntries).length).toBeGreaterThan(1);
    expect(measuredRanges(relu, bound, cpu, WHOLE_PROBE_SECONDS / 2, 0, relu.units, maxEntries)).toEqual([[0, relu.units]]);
  });

  it('samples a long operator, and anything on a simulator', () => {
    const sample = probeRanges(relu, bound, 0, relu.units, maxEntries);
    expect(measuredRanges(relu, bound, cpu, 2 * WHOLE_PROBE_SECONDS, 0, relu.units, maxEntries)).toEqual(sample);
    expect(measuredRanges(relu, bound, cgra, 1e-6, 0, relu.units, maxEntries)).toEqual(sample);
  });
});
