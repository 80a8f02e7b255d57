// Two builds of the native addon's column-reduction partial (reducePartial: the sum of a matrix's
// rows, FP64 accumulated) against each other in one process: each round times one call of each
// build, the order alternating, and the ratio is the median over rounds of old / new. Both
// builds' sums are compared. For judging a kernel change before it lands; the dense suite's
// element-wise part judges it against the triad afterwards.
// Run: node --import tsx bench/dense/reduce-builds.ts --old OLD.node --new NEW.node
//        [--cols 64,13] [--elements 16777216] [--rounds 41]
// (build the old addon first and copy build/Release/dype_native.node aside; DYPE_THREADS sets
// the threads of both).

import { parseArgs } from 'node:util';
import { median } from '../../src/stats.js';
import { loadTwoBuilds, positiveCount } from '../kernels/two-builds.js';

const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    cols: { type: 'string', default: '64,16,13,3' },
    elements: { type: 'string', default: String(2 ** 24) },
    rounds: { type: 'string', default: '41' },
  },
  strict: true,
});
const elements = positiveCount('--elements', args.elements);
const rounds = positiveCount('--rounds', args.rounds);

interface ReduceAddon {
  reducePartial(rows: number, cols: number, x: Float32Array | Float64Array, op: number, acc: Float64Array, begin: number, end: number): Promise<unknown>;
}
const { oldBuild, newBuild } = loadTwoBuilds<ReduceAddon>(args.old, args.new);

async function timed(build: ReduceAddon, rows: number, cols: number, x: Float32Array | Float64Array, acc: Float64Array): Promise<number> {
  const t = performance.now();
  await build.reducePartial(rows, cols, x, 0, acc, 0, rows);
  return performance.now() - t;
}

for (const cols of args.cols.split(',').map((c) => positiveCount('--cols', c))) {
  const rows = Math.floor(elements / cols);
  for (const precision of ['f32', 'f64'] as const) {
    const x = precision === 'f32' ? new Float32Array(rows * cols) : new Float64Array(rows * cols);
    for (let i = 0; i < x.length; i++) x[i] = ((i * 2654435761) % 1000) / 1000;
    const accOld = new Float64Array(cols);
    const accNew = new Float64Array(cols);
    const ratios: number[] = [];
    const oldMs: number[] = [];
    const newMs: number[] = [];
    for (let r = 0; r < rounds + 4; r++) {
      const pair = [0, 0];
      for (const which of r % 2 === 0 ? [0, 1] : [1, 0])
        pair[which] = await timed(which === 0 ? oldBuild : newBuild, rows, cols, x, which === 0 ? accOld : accNew);
      if (r < 4) continue; // warm-up rounds
      ratios.push(pair[0]! / pair[1]!);
      oldMs.push(pair[0]!);
      newMs.push(pair[1]!);
    }
    let worst = 0;
    for (let j = 0; j < cols; j++) worst = Math.max(worst, Math.abs(accOld[j]! - accNew[j]!) / Math.max(Math.abs(accOld[j]!), 1e-300));
    if (worst > 1e-12) throw new Error(`reduce-builds: ${rows}x${cols} ${precision}: the builds' sums differ by ${worst.toExponential(2)} (relative)`);
    const gbs = (ms: number): string => (x.byteLength / 1e6 / ms).toFixed(1);
    console.log(
      `${rows}x${cols} ${precision}`.padEnd(18),
      `old/new ${median(ratios).toFixed(3)}  old ${median(oldMs).toFixed(2)} ms (${gbs(median(oldMs))} GB/s)  new ${median(newMs).toFixed(2)} ms (${gbs(median(newMs))} GB/s)`,
    );
  }
}
