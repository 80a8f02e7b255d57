// Conformance: every backend refuses the same bad requests with the same typed errors, naming
// the device and the offending value, before any kernel or simulator runs.

import { describe, expect, it } from 'vitest';
import { CsrMatrix } from '../../../src/data/csr.js';
import { DenseMatrix } from '../../../src/data/dense.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import type { Operator } from '../../../src/devices/device.js';
import { conformanceDevices, family, features } from './harness.js';

const devices = await conformanceDevices();
const g = family('grid (road-like)');
const rect = new CsrMatrix({ rows: 2, cols: 3, rowPtr: Int32Array.of(0, 1, 2), colIdx: Int32Array.of(0, 2) });

describe.each(devices.map((d) => [d.backend, d] as const))('%s: bad requests', (_, device) => {
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    ['unknown operator', () => device.run({ kind: 'spgemm' } as unknown as Operator, { a: g, x: features(g, 2, 'f32') }), /op.kind must be one of/],
    ['x with the wrong rows', () => device.run({ kind: 'spmm' }, { a: g, x: DenseMatrix.zeros(3, 2) }), /x has 3 rows/],
    ['spmv with two columns', () => device.run({ kind: 'spmv' }, { a: g, x: features(g, 2, 'f64') }), /one column/],
    ['range past the end', () => device.run({ kind: 'spmm' }, { a: g, x: features(g, 2, 'f32') }, [0, g.rows + 1]), /is not a range/],
    ['reversed range', () => device.run({ kind: 'spmm' }, { a: g, x: features(g, 2, 'f32') }, [5, 2]), /is not a range/],
    ['source out of range', () => device.run({ kind: 'bfs', source: g.rows }, { graph: g }), /op.source must be in/],
    ['negative source', () => device.run({ kind: 'bfs', source: -1 }, { graph: g }), /op.source/],
    ['NaN source', () => device.run({ kind: 'bfs', source: NaN }, { graph: g }), /op.source must be an integer/],
    ['bfs with a range', () => device.run({ kind: 'bfs', source: 0 }, { graph: g }, [0, 1]), /cannot be split/],
    ['non-square graph', () => device.run({ kind: 'bfs', source: 0 }, { graph: rect }), /square/],
    ['msbfs source outside', () => device.run({ kind: 'msbfs', sources: Int32Array.of(0, g.rows) }, { graph: g }), /sources\[1\]/],
    ['misspelled input', () => device.run({ kind: 'bfs', source: 0 }, { grpah: g } as never), /did you mean "graph"/],
    ['misspelled option', () => device.run({ kind: 'bfs', source: 0 }, { graph: g }, undefined, { signl: null } as never), /did you mean "signal"/],
    [
      'malformed keepOutputs',
      () => device.run({ kind: 'bfs', source: 0 }, { graph: g }, undefined, { keepOutputs: 5 } as never),
      /keepOutputs must be \{ defer: boolean, kept: \[\] \}, got 5/,
    ],
  ];
  for (const [what, call, message] of cases) {
    it(what, async () => {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message.startsWith(`${device.name}.run`)).toBe(true);
    });
  }

  it('an aborted signal refuses to start', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(device.run({ kind: 'bfs', source: 0 }, { graph: g }, undefined, { signal: ac.signal })).rejects.toThrow(/abort/i);
  });
});
