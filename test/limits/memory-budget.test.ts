// The memory budget: a request whose arrays would need more than it (a generated graph, a dense
// operand, a loaded file's declared size, a multi-source search's depths) is refused with a
// LimitError naming the function and the sizes, before anything is allocated.

import { afterEach, describe, expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { LimitError, InvalidArgumentError } from '../../src/errors.js';
import { denseFeatures, erdosRenyiGraph, gridGraph, kroneckerGraph, bandedMatrix } from '../../src/generators/index.js';
import { parseMatrixMarket } from '../../src/io/matrix-market.js';
import { parseMetis } from '../../src/io/metis.js';
import { parseEdgeList } from '../../src/io/snap.js';
import { msbfs } from '../../src/kernels/msbfs.js';
import { memoryBudget, setMemoryBudget } from '../../src/limits.js';

afterEach(() => {
  setMemoryBudget(undefined);
  delete process.env['DYPE_MEMORY_BUDGET'];
});

function refused(body: () => unknown, message: RegExp): void {
  let error: unknown;
  try {
    body();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(LimitError);
  expect((error as LimitError).code).toBe('ERR_LIMIT');
  expect((error as Error).message).toMatch(message);
}

describe('the budget itself', () => {
  it('defaults to half the machine memory, reads DYPE_MEMORY_BUDGET with a suffix, and refuses a malformed one', () => {
    expect(memoryBudget()).toBeGreaterThan(2 ** 28);
    process.env['DYPE_MEMORY_BUDGET'] = '64M';
    expect(memoryBudget()).toBe(64 * 2 ** 20);
    process.env['DYPE_MEMORY_BUDGET'] = 'lots';
    expect(() => memoryBudget()).toThrow(InvalidArgumentError);
    expect(() => memoryBudget()).toThrow(/^memoryBudget: DYPE_MEMORY_BUDGET must be a positive size/);
    expect(() => setMemoryBudget(-1)).toThrow(/^setMemoryBudget: bytes must be a positive safe integer/);
    expect(setMemoryBudget(1000)).toBeUndefined();
    expect(memoryBudget()).toBe(1000); // the setting wins over the environment
  });
});

describe('requests over the budget are refused before allocating', () => {
  it('generators', () => {
    setMemoryBudget(2 ** 20);
    refused(
      () => kroneckerGraph({ scale: 16, seed: 1 }),
      /^kroneckerGraph: scale 16 with edgeFactor 16 \(undirected\) \(65536 vertices, 2097152 entries\) needs [\d.]+ MiB \(\d+ bytes\), more than the memory budget of 1\.0 MiB/,
    );
    refused(() => erdosRenyiGraph({ n: 100_000, m: 200_000 }), /^erdosRenyiGraph: .* more than the memory budget/);
    refused(() => gridGraph({ rows: 1000, cols: 1000 }), /^gridGraph: a 1000x1000 grid/);
    refused(() => bandedMatrix({ n: 100_000, halfBandwidth: 4 }), /^bandedMatrix: /);
    refused(() => denseFeatures({ rows: 100_000, cols: 64 }), /^denseFeatures: a 100000x64 dense matrix needs 48\.8 MiB/);
    refused(() => DenseMatrix.zeros(1 << 20, 1), /^DenseMatrix\.zeros: /);
    // Below the budget nothing changes.
    expect(kroneckerGraph({ scale: 6, seed: 1 }).rows).toBe(64);
  });

  it('an absurd request is refused at the default budget, not attempted', () => {
    refused(() => kroneckerGraph({ scale: 29, edgeFactor: 1, seed: 1 }), /^kroneckerGraph: .* more than the memory budget/);
    refused(() => denseFeatures({ rows: 2 ** 31 - 1, cols: 1 }), /^denseFeatures: a 2147483647x1 dense matrix needs 16\.0 GiB|more than the memory budget/);
  });

  it('loaders: a header declaring more than the budget, in an input that could hold it', () => {
    setMemoryBudget(2 ** 20);
    // Priced on what the input can hold (a lying header in a short input is reported as truncated instead).
    const lines = (n: number, line: string) => line.repeat(n);
    refused(
      () => parseMatrixMarket(`%%MatrixMarket matrix coordinate real general\n1000 1000 100000\n${lines(100_000, '1 1 1\n')}`),
      /^parseMatrixMarket: <buffer>: a 1000x1000 matrix of 100000 entries needs/,
    );
    refused(
      () => parseMatrixMarket(`%%MatrixMarket matrix array real general\n1000 1000\n${lines(1_000_000, '1\n')}`),
      /^parseMatrixMarket: <buffer>: a 1000x1000 dense matrix needs 7\.6 MiB/,
    );
    refused(
      () => parseMetis(`100000 100000\n${lines(100_000, '1 2 3 4\n')}`),
      /^parseMetis: <buffer>: a graph of 100000 vertices and 200000 adjacency entries needs/,
    );
    const edges = Array.from({ length: 70_000 }, (_, i) => `${i} ${i + 1}`).join('\n');
    refused(() => parseEdgeList(edges), /^parseEdgeList: <buffer>:\d+: an edge list of \d+ edges needs/);
  });

  it('msbfs depths', async () => {
    const g = kroneckerGraph({ scale: 8, seed: 1 });
    setMemoryBudget(4096);
    const e = await msbfs(g, [0, 1, 2, 3, 4]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LimitError);
    expect((e as Error).message).toMatch(/^msbfs: 5 sources x 256 vertices of depths needs 5\.0 KiB/);
  });
});
