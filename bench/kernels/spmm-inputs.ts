// The SpMM suite's inputs: the real datasets the headline ratio is taken over, and generated
// graphs of known structure (bench/kernels/spmm.ts).

import type { CsrMatrix } from '../../src/data/csr.js';
import { bandedMatrix, gridGraph, kroneckerGraph } from '../../src/generators/index.js';
import { loadDataset } from '../common/datasets.js';

export interface Input {
  readonly name: string;
  /** One of the six real datasets the headline ratio is taken over. */
  readonly required: boolean;
  readonly sizes: readonly ('full' | 'ci' | 'quick')[];
  /** In double precision; single precision is converted from it. */
  readonly make: () => Promise<CsrMatrix | string>;
}

const ALL = ['full', 'ci', 'quick'] as const;
const dataset = (name: string, sizes: Input['sizes']): Input => ({
  name,
  required: true,
  sizes,
  make: async () => {
    const r = await loadDataset(name, 'f64');
    return r.matrix ?? r.reason;
  },
});
const kron = (scale: number, sizes: Input['sizes']): Input => ({
  name: `kronecker-${scale}`,
  required: false,
  sizes,
  make: async () => kroneckerGraph({ scale, edgeFactor: 16, seed: 1 }),
});

export const INPUTS: readonly Input[] = [
  dataset('soc-Slashdot0902', ['full']),
  dataset('email-Enron', ALL),
  dataset('luxembourg_osm', ALL),
  dataset('mdual', ['full']),
  dataset('delaunay_n16', ['full']),
  dataset('bcsstk16', ALL),
  kron(14, ['ci']),
  kron(16, ['full', 'quick']),
  kron(17, ['full']),
  kron(18, ['full']),
  kron(19, ['full']),
  kron(20, ['full']),
  {
    name: 'grid-256x256-del0.1',
    required: false,
    sizes: ['ci'],
    make: async () => gridGraph({ rows: 256, cols: 256, deleteFraction: 0.1, seed: 1 }),
  },
  {
    name: 'grid-512x512-del0.1',
    required: false,
    sizes: ['full'],
    make: async () => gridGraph({ rows: 512, cols: 512, deleteFraction: 0.1, seed: 1 }),
  },
  {
    name: 'banded-2^15-hb8',
    required: false,
    sizes: ['ci'],
    make: async () => bandedMatrix({ n: 2 ** 15, halfBandwidth: 8, precision: 'f64', seed: 1 }),
  },
  {
    name: 'banded-2^18-hb8',
    required: false,
    sizes: ['full'],
    make: async () => bandedMatrix({ n: 2 ** 18, halfBandwidth: 8, precision: 'f64', seed: 1 }),
  },
];
