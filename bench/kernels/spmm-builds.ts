// Two builds of the native addon's SpMM against each other in one process: each round times one
// call of each (after an untimed call of the same build, the order alternating), and the ratio
// is the median over rounds of old / new, so a slow stretch of the machine falls on both. The
// outputs are compared element by element. For judging a kernel change before it lands; the
// regression gate judges it against Eigen afterwards.
// Run: node --import tsx bench/kernels/spmm-builds.ts --old OLD.node --new NEW.node
//        [--k 8,32,128] [--precision f32,f64] [--only email-Enron,bcsstk16] [--rounds 9] [--batch 1]
// (build the old addon first and copy build/Release/dype_native.node aside; DYPE_THREADS sets
// the threads of both).

import { parseArgs } from 'node:util';
import type { CsrMatrix } from '../../src/data/csr.js';
import { median } from '../../src/stats.js';
import { INPUTS } from './spmm-inputs.js';
import { letOtherLaneSleep, loadTwoBuilds, positiveCount } from './two-builds.js';

const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    k: { type: 'string', default: '8,32,128' },
    precision: { type: 'string', default: 'f32,f64' },
    only: { type: 'string', default: 'email-Enron,luxembourg_osm,bcsstk16,kronecker-14,grid-256x256-del0.1,banded-2^15-hb8' },
    rounds: { type: 'string', default: '9' },
    batch: { type: 'string', default: '1' },
  },
  strict: true,
});
const ks = args.k.split(',').map(Number);
if (!ks.every((k) => Number.isInteger(k) && k >= 1)) throw new Error(`--k must be positive integers separated by commas, got ${args.k}`);
const precisions = args.precision.split(',');
if (!precisions.every((p) => p === 'f32' || p === 'f64')) throw new Error(`--precision must be f32, f64 or f32,f64, got ${args.precision}`);
const rounds = positiveCount('--rounds', args.rounds);
// Calls timed together per build and round: the kernel seconds of `batch` calls back to back,
// which steadies sub-millisecond products whose single calls move 10-20% between rounds.
const batch = positiveCount('--batch', args.batch);

interface SpmmAddon {
  spmm(...a: unknown[]): Promise<{ seconds: number }>;
}
const { oldBuild, newBuild } = loadTwoBuilds<SpmmAddon>(args.old, args.new);

const ratios: number[] = [];
for (const name of args.only.split(',')) {
  const input = INPUTS.find((i) => i.name === name);
  if (input === undefined) throw new Error(`--only: no SpMM input named ${name} (bench/kernels/spmm-inputs.ts)`);
  const made = await input.make();
  if (typeof made === 'string') {
    console.log(`${name}: skipped (${made})`);
    continue;
  }
  const a: CsrMatrix = made;
  for (const precision of precisions) {
    const Dense = precision === 'f32' ? Float32Array : Float64Array;
    const values = a.values === undefined ? null : precision === 'f32' ? Float32Array.from(a.values) : a.values;
    for (const k of ks) {
      const x = new Dense(a.cols * k);
      for (let i = 0; i < x.length; i++) x[i] = Math.random() - 0.5;
      const yOld = new Dense(a.rows * k);
      const yNew = new Dense(a.rows * k);
      const call = async (build: SpmmAddon, y: Float32Array | Float64Array): Promise<number> =>
        (await build.spmm(a.rows, a.cols, a.rowPtr, a.colIdx, values, x, k, y, 0, a.rows, false)).seconds * 1e3;
      const perRound: number[] = [];
      const oldMs: number[] = [];
      const newMs: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        const t = [0, 0];
        for (const which of order) {
          const [build, y] = which === 0 ? [oldBuild, yOld] : [newBuild, yNew];
          await letOtherLaneSleep();
          await call(build, y);
          let ms = 0;
          for (let b = 0; b < batch; b++) ms += await call(build, y);
          t[which] = ms / batch;
        }
        perRound.push(t[0]! / t[1]!);
        oldMs.push(t[0]!);
        newMs.push(t[1]!);
      }
      let diff = 0;
      for (let i = 0; i < yOld.length; i++) diff = Math.max(diff, Math.abs(yOld[i]! - yNew[i]!));
      const ratio = median(perRound);
      ratios.push(ratio);
      console.log(
        `${name} ${precision} k=${k}`.padEnd(34),
        `old/new ${ratio.toFixed(3)}  old ${median(oldMs).toFixed(3)} ms  new ${median(newMs).toFixed(3)} ms  largest difference ${diff.toExponential(1)}`,
      );
    }
  }
}
const sorted = [...ratios].sort((p, q) => p - q);
if (sorted.length > 0)
  console.log(
    `old/new over ${sorted.length} cases: median ${median(sorted).toFixed(3)}, lowest ${sorted[0]!.toFixed(3)}, highest ${sorted.at(-1)!.toFixed(3)}`,
  );
