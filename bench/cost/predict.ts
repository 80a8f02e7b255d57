// Cost-model speed: one prediction (the WebAssembly call alone, and through CostModel.predict),
// an empty JS -> WebAssembly call as the baseline, and the whole answer for a fresh input:
// matrix features plus every device's SpMM and SpMV predictions, and the BFS features on top.
// Run: node --expose-gc --import tsx bench/cost/predict.ts [--quick]

import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { CostModel } from '../../src/cost/model.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { detectSystem } from '../../src/devices/system.js';
import { denseFeatures, kroneckerGraph } from '../../src/generators/index.js';
import { wasmModule } from '../../src/webassembly/module.js';
import { loadDataset } from '../common/datasets.js';
import { median } from '../common/measure.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from '../common/report.js';

const { values: args } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, json: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  strict: true,
});

/** A fresh CsrMatrix object over the same arrays: the model caches per object, so this is a cold input. */
function freshCopy(a: CsrMatrix): CsrMatrix {
  return new CsrMatrix({ rows: a.rows, cols: a.cols, rowPtr: a.rowPtr, colIdx: a.colIdx, ...(a.values ? { values: a.values } : {}), symmetric: a.symmetric });
}

async function main(): Promise<void> {
  const system = await detectSystem();
  const model = new CostModel(system);
  const a = kroneckerGraph({ scale: 16, edgeFactor: 16, seed: 1 });
  const x = denseFeatures({ rows: a.cols, cols: 16, seed: 1 });
  model.predict('cpu', { kind: 'spmm' }, { a, x }); // features computed and resident
  const wasm = wasmModule() as unknown as { dot(a: number, b: number, n: number): number };
  const time = args.quick ? 200 : 1000;
  const bench = new Bench({ time, warmupTime: 50 });
  bench.add('empty JS -> WebAssembly call (dot of 0 values)', () => wasm.dot(0, 0, 0));
  bench.add('CostModel.predict spmm on gpu (warm input)', () => model.predict('gpu', { kind: 'spmm' }, { a, x }));
  bench.add('CostModel.predict bfs on cgra (warm input)', () => model.predict('cgra', { kind: 'bfs', source: 0 }, { graph: a }));
  bench.add('CostModel.predictShape spmv on cpu', () => model.predictShape('cpu', { kind: 'spmv', a, k: 1, precision: 'f64' }));
  await bench.run();
  const perCall = bench.tasks.map((t) => {
    const r = t.result;
    if (r.state !== 'completed') throw new Error(`${t.name}: ${r.state}`);
    return [t.name, `${fixed(r.latency.p50 * 1e6, 0)} ns`, `${Math.round(r.throughput.mean).toLocaleString('en-US')} /s`];
  });

  // Cold answers: a fresh object per trial, so features are computed again.
  const inputs: { name: string; a: CsrMatrix }[] = [{ name: 'kronecker-16 (1.8M entries)', a }];
  const slash = await loadDataset('soc-Slashdot0902', 'f32');
  if (slash.matrix) inputs.push({ name: 'soc-Slashdot0902 (948k entries)', a: slash.matrix });
  const coldRows: string[][] = [];
  for (const input of inputs) {
    progress(`cold answers on ${input.name}`);
    const matrixTimes: number[] = [];
    const graphTimes: number[] = [];
    for (let i = 0; i < (args.quick ? 5 : 15); i++) {
      const m = new CostModel(system);
      const b = freshCopy(input.a);
      const xx = denseFeatures({ rows: b.cols, cols: 16, seed: 2 });
      const v = denseFeatures({ rows: b.cols, cols: 1, seed: 3 });
      let t = performance.now();
      m.predictAll({ kind: 'spmm' }, { a: b, x: xx });
      m.predictAll({ kind: 'spmv' }, { a: b, x: v });
      matrixTimes.push(performance.now() - t);
      t = performance.now();
      m.predictAll({ kind: 'bfs', source: 0 }, { graph: b });
      graphTimes.push(performance.now() - t);
    }
    coldRows.push([input.name, `${fixed(median(matrixTimes), 2)} ms`, `${fixed(median(graphTimes), 2)} ms`]);
  }
  const report: SuiteReport = {
    suite: 'predict',
    title: 'Cost model: prediction latency and cold answers',
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { quick: args.quick },
    notes: [
      'Goals (issue 4): one prediction <= 1 us; features plus all predictions for a 1M-entry graph <= 5 ms.',
      'Cold answer: a new matrix object (features not cached), its matrix features written once into WebAssembly memory, and SpMM k=16 plus SpMV predictions for every device; the BFS column adds the graph features (sampled searches) and BFS predictions.',
    ],
    tables: [
      { title: 'One call (median latency)', columns: ['call', 'median', 'throughput'], rows: perCall },
      {
        title: 'Cold answer for a new input (median)',
        columns: ['input', 'features + SpMM/SpMV predictions, all devices', '+ BFS features and predictions'],
        rows: coldRows,
      },
    ],
    data: { perCall, coldRows },
  };
  emitReport(report, args.json, args.quiet);
  await system.dispose();
}

await main();
