// The predicted scaling curve: one node is the measured rate times the work, with nothing to
// exchange; on a path graph cut into row blocks each inner node talks to its two neighbours and
// sends one row of X to each, so its exchange is two latencies plus its bytes at the bandwidth;
// and bad options are refused by name.

import { describe, expect, it } from 'vitest';
import { predictScaling } from '../../src/distributed/scaling.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { pathGraph } from '../support/path-graph.js';

const net = { latencySeconds: 1e-6, bytesPerSecond: 1e9, source: 'a test network' };
const rate = 1e-9;

describe('predictScaling', () => {
  it('prices one node as its measured rate times the work, with no exchange', () => {
    const a = pathGraph(1000);
    const [p] = predictScaling(a, { nodes: [1], k: 8, method: 'rows', secondsPerEntryColumn: rate, interconnect: net }).points;
    expect(p!.exchangeSeconds).toBe(0);
    expect(p!.seconds).toBeCloseTo(a.nnz * 8 * rate, 15);
    expect([p!.speedup, p!.efficiency]).toEqual([1, 1]);
  });

  it('prices an inner row block of a path as two messages of one row each way', () => {
    const a = pathGraph(1000);
    const k = 16;
    const { points, source } = predictScaling(a, { nodes: [4], k, method: 'rows', secondsPerEntryColumn: rate, interconnect: net });
    const p = points[0]!;
    // An inner block sends its first row left and its last row right, and receives one from each.
    expect(p.exchangeSeconds).toBeCloseTo(2 * net.latencySeconds + (2 * k * 4) / net.bytesPerSecond, 15);
    expect(p.maxHaloRows).toBe(2);
    expect(p.haloRowsTotal).toBe(6);
    expect(p.kernelSeconds).toBeCloseTo(p.imbalance * (a.nnz / 4) * k * rate, 15);
    expect(p.imbalance).toBeLessThan(1.01);
    expect(p.seconds).toBeCloseTo(p.kernelSeconds + p.exchangeSeconds, 12);
    expect(p.speedup).toBeGreaterThan(1);
    expect(source).toMatch(/^predicted: .*a test network; row-block partitions$/);
  });

  it('refuses bad node counts, rates and networks, naming the value', () => {
    const a = pathGraph(10);
    const ok = { nodes: [1, 2], k: 4, method: 'rows' as const, secondsPerEntryColumn: rate, interconnect: net };
    expect(() => predictScaling(a, { ...ok, nodes: [0] })).toThrow(InvalidArgumentError);
    expect(() => predictScaling(a, { ...ok, nodes: [11] })).toThrow(/predictScaling: nodes must list integers in \[1, min\(2\^16, 10 rows\)\], got/);
    expect(() => predictScaling(a, { ...ok, secondsPerEntryColumn: Number.NaN })).toThrow(/secondsPerEntryColumn must be a positive finite number, got NaN/);
    expect(() => predictScaling(a, { ...ok, interconnect: { ...net, bytesPerSecond: 0 } })).toThrow(/interconnect must have/);
    expect(() => predictScaling(a, { ...ok, k: 1.5 })).toThrow(/k must be a positive integer, got 1.5/);
  });
});
