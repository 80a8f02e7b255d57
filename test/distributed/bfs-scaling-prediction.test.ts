// The predicted scaling of a distributed BFS: one node is the measured rate times the entries its
// search scans, with nothing to exchange; a path does not scale (every level's frontier is one
// vertex on one node, so the slowest node's compute is the whole search's, and each level adds its
// exchange); a power-law graph's levels split their work, so two nodes compute in less than one's
// time; and bad options are refused by name.

import { describe, expect, it } from 'vitest';
import { bfsWork, predictBfsScaling } from '../../src/distributed/bfs-scaling.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { generate } from '../../src/generators/index.js';
import { pathGraph } from '../support/path-graph.js';

const net = { latencySeconds: 1e-6, bytesPerSecond: 1e9, source: 'a test network' };
const rate = 1e-9;

describe('predictBfsScaling', () => {
  it('prices one node as its rate times the entries its search scans, with no exchange', () => {
    const a = pathGraph(100);
    // A search from one end scans each vertex's edges once, top-down: every entry.
    expect(bfsWork(a, 0)).toBe(a.nnz);
    const [p] = predictBfsScaling(a, { nodes: [1], sources: [0], method: 'rows', secondsPerEntry: rate, interconnect: net }).points;
    expect(p!.exchangeSeconds).toBe(0);
    expect(p!.seconds).toBeCloseTo(a.nnz * rate, 15);
    expect(p!.levels).toBe(100);
    expect(p!.speedup).toBeCloseTo(1, 12);
    expect(p!.efficiency).toBeCloseTo(1, 12);
  });

  it('does not scale a path: the slowest node computes the whole search, and every level exchanges', () => {
    const a = pathGraph(100);
    const { points, source } = predictBfsScaling(a, { nodes: [1, 4], sources: [0], method: 'rows', secondsPerEntry: rate, interconnect: net });
    const [one, four] = points;
    expect(four!.computeSeconds).toBeCloseTo(one!.computeSeconds, 15);
    // Each of the 100 top-down levels exchanges at least its counts: one latency per peer at least.
    expect(four!.exchangeSeconds).toBeGreaterThan(100 * net.latencySeconds);
    expect(four!.speedup).toBeLessThan(1);
    // Three block boundaries, each crossed both ways by a 4-byte vertex (a frontier vertex sends
    // its remote neighbour without knowing it is visited), and a level's counts only between
    // neighbouring blocks: six 4-byte counts.
    expect(four!.bytes).toBe(3 * 2 * 4 + 100 * 6 * 4);
    expect(source).toMatch(/^predicted: .*a test network; row-block partitions$/);
  });

  it("splits a power-law graph's levels: two nodes compute in less than one node's time", () => {
    const a = generate({ kind: 'kronecker', scale: 10, seed: 3 });
    const { points } = predictBfsScaling(a, { nodes: [1, 2], sources: [0, 5], method: 'rows', secondsPerEntry: rate, interconnect: net });
    expect(points[1]!.computeSeconds).toBeLessThan(0.8 * points[0]!.computeSeconds);
    expect(points[1]!.computeSeconds).toBeGreaterThanOrEqual(0.5 * points[0]!.computeSeconds);
    expect(points[1]!.exchangeSeconds).toBeGreaterThan(0);
  });

  it('refuses bad node counts, sources, rates and networks, naming the value', () => {
    const a = pathGraph(10);
    const ok = { nodes: [1, 2], sources: [0], method: 'rows' as const, secondsPerEntry: rate, interconnect: net };
    expect(() => predictBfsScaling(a, { ...ok, nodes: [0] })).toThrow(InvalidArgumentError);
    expect(() => predictBfsScaling(a, { ...ok, nodes: [11] })).toThrow(/predictBfsScaling: nodes must list integers in \[1, min\(2\^16, 10 rows\)\], got/);
    expect(() => predictBfsScaling(a, { ...ok, sources: [] })).toThrow(/sources must list at least one vertex/);
    expect(() => predictBfsScaling(a, { ...ok, sources: [10] })).toThrow(InvalidArgumentError);
    expect(() => predictBfsScaling(a, { ...ok, secondsPerEntry: Number.NaN })).toThrow(/secondsPerEntry must be a positive finite number, got NaN/);
    expect(() => predictBfsScaling(a, { ...ok, interconnect: { ...net, bytesPerSecond: 0 } })).toThrow(/interconnect must have/);
  });
});
