// gpu-sim and cgra-sim resume a single-source BFS from a depth array and stop it after a number
// of levels (op.resume, op.maxLevels): a search chopped into resumed calls, on one device or
// handed between the two, gives the same depths and per-level counts as one uninterrupted search
// and the TypeScript reference, and each call is charged only for what it ran plus its set-up.

import { describe, expect, it } from 'vitest';
import type { CsrMatrix } from '../../src/data/csr.js';
import { cgraAddon } from '../../src/devices/backends/cgra-native.js';
import { gpuSimAddon } from '../../src/devices/backends/gpu-sim.js';
import type { BfsOutput, Device, DeviceResult } from '../../src/devices/device.js';
import { specValues } from '../../src/devices/spec.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { erdosRenyiGraph, gridGraph, kroneckerGraph } from '../../src/generators/index.js';
import { inEdgesOf } from '../../src/kernels/in-edges.js';
import { bfsReference } from '../../src/kernels/reference.js';
import { firstDifference } from '../support/compare.js';
import { cgraDevice } from './cgra-sim/helpers.js';
import { gpuSim } from './gpu-sim/helpers.js';

/** The vertex with the most out-edges: a source that reaches much of a power-law graph. */
function hub(g: CsrMatrix): number {
  let best = 0;
  for (let v = 1; v < g.rows; v++) if (g.rowStart(v + 1) - g.rowStart(v) > g.rowStart(best + 1) - g.rowStart(best)) best = v;
  return best;
}

const road = gridGraph({ rows: 30, cols: 40, deleteFraction: 0.2, seed: 3 });
const bigRoad = gridGraph({ rows: 100, cols: 100, deleteFraction: 0.2, seed: 3 });
const kron = kroneckerGraph({ scale: 10, edgeFactor: 8, seed: 1 });
const kronDirected = kroneckerGraph({ scale: 10, edgeFactor: 8, seed: 2, directed: true });
// Sparse and directed: many vertices are unreachable from any source.
const sparseDirected = erdosRenyiGraph({ n: 800, m: 1200, directed: true, seed: 4 });

const GRAPHS: readonly (readonly [string, CsrMatrix, number])[] = [
  ['road-like grid', road, 0],
  ['Kronecker', kron, hub(kron)],
  ['directed Kronecker', kronDirected, hub(kronDirected)],
  ['sparse directed (unreachable vertices)', sparseDirected, hub(sparseDirected)],
];

const DEVICES: readonly (readonly [string, () => Device])[] = [
  ['gpu-sim', () => gpuSim()],
  ['cgra-sim', () => cgraDevice()],
];

interface Chopped {
  readonly calls: DeviceResult<'bfs'>[];
  readonly depth: Int32Array;
  readonly frontier: number[];
}

/**
 * Run a search from `source` in calls of at most `maxLevels` levels, each resuming the last one's
 * output, on the devices in turn; stops when a call reports the search complete.
 */
async function chopped(devices: readonly Device[], graph: CsrMatrix, source: number, maxLevels: number): Promise<Chopped> {
  const inEdges = inEdgesOf('test', graph, undefined);
  const calls: DeviceResult<'bfs'>[] = [];
  let r = await devices[0]!.run({ kind: 'bfs', source, maxLevels }, { graph, inEdges });
  calls.push(r);
  let level = r.output.frontier.length - 1;
  const frontier = Array.from(r.output.frontier);
  while (!r.output.complete) {
    expect(calls.length, 'a chopped search that never completes').toBeLessThan(graph.rows + 2);
    const device = devices[calls.length % devices.length]!;
    r = await device.run({ kind: 'bfs', source, maxLevels, resume: { depth: r.output.depth, level } }, { graph, inEdges });
    calls.push(r);
    // The resumed call starts from the frontier the last one ended with.
    expect(r.output.frontier[0]).toBe(frontier[frontier.length - 1]);
    frontier.push(...Array.from(r.output.frontier).slice(1));
    level += r.output.frontier.length - 1;
  }
  return { calls, depth: r.output.depth, frontier };
}

for (const [deviceName, makeDevice] of DEVICES) {
  describe(`${deviceName}: resumed single-source BFS`, () => {
    const device = makeDevice();

    it('advertises resume', () => {
      expect(device.capabilities.bfsResume).toBe(true);
    });

    for (const [graphName, graph, source] of GRAPHS) {
      it(`${graphName}: searches chopped into 1, 2 and 3 levels a call equal the uninterrupted one`, async () => {
        const ref = bfsReference(graph, source);
        if (graphName.includes('unreachable')) expect(ref.includes(-1)).toBe(true);
        const whole = await device.run({ kind: 'bfs', source }, { graph });
        expect(whole.output.complete).toBe(true);
        expect(firstDifference(whole.output.depth, ref)).toBe(-1);
        const depthCount = Math.max(...ref) + 1;
        for (const maxLevels of [1, 2, 3]) {
          const c = await chopped([device], graph, source, maxLevels);
          expect(firstDifference(c.depth, ref), `maxLevels ${maxLevels}`).toBe(-1);
          expect(c.frontier).toEqual(Array.from(whole.output.frontier));
          // Every call but the last ran its full quota and says the search goes on.
          for (const [i, call] of c.calls.entries()) {
            const last = i === c.calls.length - 1;
            expect(call.output.complete).toBe(last);
            if (!last) expect(call.output.frontier.length - 1).toBe(maxLevels);
            expect(call.seconds).toBeGreaterThan(0);
            expect(call.joules).toBeGreaterThan(0);
          }
          // The levels that find something, plus at most the one that finds nothing, in calls of maxLevels.
          expect(c.calls.length).toBeGreaterThanOrEqual(Math.ceil((depthCount - 1) / maxLevels));
          expect(c.calls.length).toBeLessThanOrEqual(Math.ceil(depthCount / maxLevels) + 1);
          // gpu-sim rebuilds Beamer's counts from the depths: a resumed call on a power-law graph goes bottom-up.
          if (deviceName === 'gpu-sim' && graphName === 'Kronecker') {
            expect(c.calls.slice(1).some((r) => r.counters['bottomUpLevels']! > 0)).toBe(true);
          }
        }
      });
    }

    it('a resumed call reports the depths it was given for vertices already found, and new ones only past the level', async () => {
      const ref = bfsReference(road, 0);
      const level = 7;
      const start = ref.map((d) => (d > level ? -1 : d));
      const r = await device.run({ kind: 'bfs', source: 0, resume: { depth: start, level }, maxLevels: 2 }, { graph: road });
      const out = r.output as BfsOutput;
      expect(out.frontier[0]).toBe(start.filter((d) => d === level).length);
      expect(Array.from(out.frontier).slice(1)).toEqual([level + 1, level + 2].map((l) => ref.filter((d) => d === l).length));
      expect(out.complete).toBe(false);
      expect(Array.from(out.depth)).toEqual(Array.from(ref.map((d) => (d > level + 2 ? -1 : d))));
      // The caller's array is read, not written.
      expect(Array.from(start)).toEqual(Array.from(ref.map((d) => (d > level ? -1 : d))));
      // A frontier with nothing left to expand completes at once.
      const done = await device.run({ kind: 'bfs', source: 0, resume: { depth: ref, level: Math.max(...ref) }, maxLevels: 1 }, { graph: road });
      expect(done.output.complete).toBe(true);
      expect(Array.from(done.output.depth)).toEqual(Array.from(ref));
      expect(done.seconds).toBeGreaterThan(0);
    });

    it('on a road-like graph the chopped searches cost within 0.5x to 4x of the uninterrupted one', async () => {
      // Large enough that cgra-sim streams the graph (a resident one is reloaded by every call; see below).
      const whole = await device.run({ kind: 'bfs', source: 0 }, { graph: bigRoad });
      for (const maxLevels of [1, 2, 3]) {
        const c = await chopped([device], bigRoad, 0, maxLevels);
        const seconds = c.calls.reduce((s, r) => s + r.seconds, 0);
        const joules = c.calls.reduce((s, r) => s + r.joules, 0);
        expect(seconds / whole.seconds, `maxLevels ${maxLevels}`).toBeGreaterThan(0.5);
        expect(seconds / whole.seconds, `maxLevels ${maxLevels}`).toBeLessThan(4);
        // Energy has no upper bound here: every call's set-up pass reads the whole depth array.
        expect(joules / whole.joules, `maxLevels ${maxLevels}`).toBeGreaterThan(0.5);
      }
    });

    it('refuses bad resume input with InvalidArgumentError naming the run', async () => {
      const g = road;
      const ref = bfsReference(g, 0);
      const level = 4;
      const good = ref.map((d) => (d > level ? -1 : d));
      const tooDeep = good.slice();
      tooDeep[5] = level + 1;
      const belowMinusOne = good.slice();
      belowMinusOne[9] = -2;
      const cases: [string, unknown][] = [
        ['a depth above the level', { depth: tooDeep, level }],
        ['a depth below -1', { depth: belowMinusOne, level }],
        ['a depth array of the wrong length', { depth: good.subarray(1), level }],
        ['a level not below n', { depth: good, level: g.rows }],
        ['a negative level', { depth: good, level: -1 }],
      ];
      for (const [what, resume] of cases) {
        const run = device.run({ kind: 'bfs', source: 0, resume } as never, { graph: g });
        await expect(run, what).rejects.toThrow(InvalidArgumentError);
        await expect(device.run({ kind: 'bfs', source: 0, resume } as never, { graph: g }), what).rejects.toThrow(/^\w+\.run: /);
      }
      for (const maxLevels of [0, -1, 1.5]) {
        await expect(device.run({ kind: 'bfs', source: 0, maxLevels }, { graph: g })).rejects.toThrow(InvalidArgumentError);
      }
    });
  });
}

it('a search handed back and forth between gpu-sim and cgra-sim equals the reference', async () => {
  const devices = [gpuSim(), cgraDevice()];
  for (const [graphName, graph, source] of GRAPHS) {
    const ref = bfsReference(graph, source);
    for (const maxLevels of [1, 2]) {
      const c = await chopped(devices, graph, source, maxLevels);
      expect(firstDifference(c.depth, ref), `${graphName}, maxLevels ${maxLevels}`).toBe(-1);
      const counts = new Array<number>(Math.max(...ref) + 1).fill(0);
      for (const d of ref) if (d >= 0) counts[d]!++;
      expect(c.frontier, graphName).toEqual(counts);
    }
  }
});

it('gpu-sim charges a resumed call one dense set-up pass and one host round trip per level it ran', async () => {
  const gpu = gpuSim();
  const ref = bfsReference(road, 0);
  const level = 10;
  const start = ref.map((d) => (d > level ? -1 : d));
  const one = await gpu.run({ kind: 'bfs', source: 0, resume: { depth: start, level }, maxLevels: 1 }, { graph: road });
  const three = await gpu.run({ kind: 'bfs', source: 0, resume: { depth: start, level }, maxLevels: 3 }, { graph: road });
  expect(one.counters['levels']).toBe(1);
  expect(three.counters['levels']).toBe(3);
  // The set-up pass plus one level's kernel.
  expect(one.counters['kernels']).toBe(2);
  const sync = specValues(gpu.spec)['levelSyncUs']! * 1e-6;
  expect(one.seconds).toBeGreaterThan(sync);
  // A resumed call does not pay for the levels before it: far less than the whole search.
  const whole = await gpu.run({ kind: 'bfs', source: 0 }, { graph: road });
  expect(one.seconds).toBeLessThan(whole.seconds / 5);
  expect(three.seconds).toBeGreaterThan(one.seconds);
});

it('cgra-sim: a resumed call on a scratchpad-resident graph loads the graph and the depths and writes the depths back', async () => {
  const cgra = cgraDevice();
  const ref = bfsReference(road, 0);
  const level = 10;
  const start = ref.map((d) => (d > level ? -1 : d));
  const r = await cgra.run({ kind: 'bfs', source: 0, resume: { depth: start, level }, maxLevels: 1 }, { graph: road });
  expect(r.counters['resident']).toBe(1);
  expect(r.counters['passes']).toBe(1);
  const v = specValues(cgra.spec);
  const graphBytes = (road.rows + 1) * 4 + road.nnz * 4;
  const configBytes = v['peRows']! * v['peCols']! * r.counters['ii']! * v['configBytesPerSlot']!;
  expect(r.counters['dramBytes']).toBe(configBytes + graphBytes + 2 * road.rows * 4);
  // The scan pass and the level's pass each pay the pass overhead.
  expect(r.counters['passOverheadCycles']).toBe(2 * v['passOverheadCycles']!);
});

describe('native exports called directly with a bad resume', () => {
  const g = road;
  const ie = inEdgesOf('test', g, undefined);
  const ref = bfsReference(g, 0);
  const gpuParams = specValues(gpuSim().spec);
  const cgraParams = specValues(cgraDevice().spec);

  /** A synchronous throw or a rejection, as the error it carries. */
  async function failure(call: () => Promise<unknown>): Promise<Error> {
    try {
      await call();
    } catch (error) {
      return error as Error;
    }
    throw new Error('the call succeeded');
  }

  const calls = {
    gpuSimBfs: (depth: Int32Array, start: unknown, max: unknown, inline: boolean) =>
      gpuSimAddon().gpuSimBfs(g.rows, g.rowPtr, g.colIdx, ie.rowPtr, ie.colIdx, 0, depth, gpuParams, inline, start as number, max as number),
    cgraBfs: (depth: Int32Array, start: unknown, max: unknown, inline: boolean) =>
      cgraAddon().cgraBfs(g.rows, g.rowPtr, g.colIdx, 0, depth, cgraParams, inline, start as number, max as number),
  };

  for (const [name, call] of Object.entries(calls)) {
    it(`${name} refuses depths outside [-1, startLevel], bad levels and limits with a coded error`, async () => {
      for (const inline of [true, false]) {
        const depth = ref.map((d) => (d > 3 ? -1 : d));
        depth[5] = 9;
        let e = await failure(() => call(depth, 3, 0, inline));
        expect(e.message).toBe(`${name}: depth[5] = 9 is outside [-1, 3]`);
        expect((e as { code?: string }).code).toBe('ERR_INVALID_ARGUMENT');
        depth[5] = -7;
        e = await failure(() => call(depth, 3, 0, inline));
        expect(e.message).toBe(`${name}: depth[5] = -7 is outside [-1, 3]`);
        depth[5] = 2 ** 31 - 1;
        e = await failure(() => call(depth, 3, 1, inline));
        expect(e.message).toMatch(new RegExp(`^${name}: depth\\[5\\] = 2147483647`));
        const clean = ref.map((d) => (d > 3 ? -1 : d));
        for (const [start, max] of [
          [g.rows, 0],
          [-2, 0],
          [1.5, 0],
          ['1', 0],
          [3, -1],
          [3, 0.5],
          [3, NaN],
        ] as const) {
          e = await failure(() => call(clean.slice(), start, max, inline));
          expect(e.message, `startLevel ${start}, maxLevels ${max}`).toMatch(new RegExp(`^${name}: (startLevel|maxLevels)`));
          expect((e as { code?: string }).code).toBe('ERR_INVALID_ARGUMENT');
        }
        // A fresh search (startLevel -1) ignores whatever the depth array held.
        const junk = new Int32Array(g.rows).fill(-99);
        const r = await call(junk, -1, 0, inline);
        expect(r.frontier[0]).toBe(1);
        expect(firstDifference(junk, ref)).toBe(-1);
        // Omitted trailing arguments mean a fresh, unlimited search.
        const plain = new Int32Array(g.rows).fill(5);
        await call(plain, undefined, undefined, inline);
        expect(firstDifference(plain, ref)).toBe(-1);
      }
    });
  }
});
