// What calibration measures: the generated inputs and operator configurations of the quick and
// the full calibration. The full set contains the quick one, input for input and configuration
// for configuration, so a full calibration sees everything a quick one does and more.

import type { Precision } from '../data/dense.js';
import type { GeneratorSpec } from '../generators/index.js';

/** The inputs and configurations of one calibration. */
export interface CalibrationSet {
  readonly inputs: readonly GeneratorSpec[];
  /** SpMM widths and precisions over all rows. */
  readonly spmm: readonly (readonly [number, Precision])[];
  /** Row ranges of an SpMM k = 16 FP32, as fractions of the rows (co-execution splits run these). */
  readonly spmmRanges: readonly (readonly [number, number])[];
  /** Multi-source BFS source counts: within one word and across words, so per-source and per-word costs separate. */
  readonly msbfsSources: readonly number[];
  /** Timed repeats of each configuration on real hardware (simulators run once). */
  readonly repeats: number;
}

/**
 * Every family at a few sizes: power law, uniform, road-like, banded; and graphs that a search
 * does not cover (directed power-law and sparse random graphs, where sources reach half or
 * almost none of the vertices, and a small-world core with a long tail), without which the
 * per-vertex and per-reached-vertex costs, and the per-level and per-edge ones, are collinear.
 */
const QUICK_INPUTS: readonly GeneratorSpec[] = [
  { kind: 'kronecker', scale: 8, edgeFactor: 4, seed: 10 },
  { kind: 'kronecker', scale: 10, edgeFactor: 8, seed: 11 },
  { kind: 'kronecker', scale: 12, edgeFactor: 16, seed: 12 },
  { kind: 'kronecker', scale: 14, edgeFactor: 16, seed: 13 },
  { kind: 'erdos-renyi', n: 4096, m: 16384, directed: true, seed: 15 },
  { kind: 'erdos-renyi', n: 16384, m: 131072, directed: true, seed: 16 },
  { kind: 'erdos-renyi', n: 131072, m: 524288, directed: true, seed: 17 },
  { kind: 'grid', rows: 20, cols: 20, seed: 18 },
  { kind: 'grid', rows: 64, cols: 64, deleteFraction: 0.1, seed: 19 },
  { kind: 'grid', rows: 300, cols: 200, deleteFraction: 0.2, seed: 20 },
  { kind: 'banded', n: 4096, halfBandwidth: 8, seed: 21 },
  { kind: 'banded', n: 32768, halfBandwidth: 2, seed: 22 },
  { kind: 'banded', n: 65536, halfBandwidth: 32, seed: 23 },
  { kind: 'kronecker', scale: 12, edgeFactor: 4, directed: true, seed: 31 },
  { kind: 'erdos-renyi', n: 16384, m: 18000, directed: true, seed: 33 },
  { kind: 'kronecker', scale: 12, edgeFactor: 8, tail: 1500, seed: 35 },
];

/** The full set adds larger inputs, denser graphs, longer roads and more partly reached graphs. */
const FULL_INPUTS: readonly GeneratorSpec[] = [
  ...QUICK_INPUTS,
  { kind: 'kronecker', scale: 16, edgeFactor: 8, seed: 14 },
  { kind: 'kronecker', scale: 13, edgeFactor: 32, seed: 24 },
  { kind: 'erdos-renyi', n: 262144, m: 1048576, directed: true, seed: 25 },
  { kind: 'erdos-renyi', n: 2048, m: 65536, directed: true, seed: 26 },
  { kind: 'grid', rows: 700, cols: 500, deleteFraction: 0.3, seed: 27 },
  { kind: 'grid', rows: 1500, cols: 40, seed: 28 },
  { kind: 'banded', n: 262144, halfBandwidth: 4, seed: 29 },
  { kind: 'banded', n: 16384, halfBandwidth: 100, seed: 30 },
  { kind: 'kronecker', scale: 14, edgeFactor: 8, directed: true, seed: 32 },
  { kind: 'erdos-renyi', n: 65536, m: 70000, directed: true, seed: 34 },
  { kind: 'grid', rows: 200, cols: 200, deleteFraction: 0.45, seed: 36 },
];

export const QUICK_SET: CalibrationSet = {
  inputs: QUICK_INPUTS,
  spmm: [
    [4, 'f32'],
    [32, 'f32'],
    [8, 'f64'],
  ],
  spmmRanges: [[0, 0.5]],
  msbfsSources: [4, 32],
  repeats: 5,
};

export const FULL_SET: CalibrationSet = {
  inputs: FULL_INPUTS,
  spmm: [...QUICK_SET.spmm, [16, 'f32'], [64, 'f32'], [32, 'f64']],
  spmmRanges: [...QUICK_SET.spmmRanges, [0.5, 1]],
  msbfsSources: [...QUICK_SET.msbfsSources, 8, 16, 64, 128],
  repeats: 7,
};
