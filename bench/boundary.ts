// The fixed cost of crossing from JavaScript into native code (sync and async) and into
// WebAssembly, with no work on the other side: the floor under every small kernel call.
// Run: node --expose-gc --import tsx bench/boundary.ts [--quick]

import { parseArgs } from 'node:util';
import { DenseMatrix } from '../src/data/dense.js';
import { CsrMatrix } from '../src/data/csr.js';
import { spmm } from '../src/kernels/spmm.js';
import { nativeAddon } from '../src/native/addon.js';
import { wasmModule } from '../src/webassembly/module.js';
import { type BenchSettings, measure } from './common/measure.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport } from './common/report.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const quick = args.quick;

const SETTINGS: BenchSettings = quick
  ? { time: 200, warmupTime: 50, iterations: 20, warmupIterations: 5 }
  : { time: 1000, warmupTime: 250, iterations: 64, warmupIterations: 16 };

/**
 * Calls per tinybench iteration: one sync call (tens of ns) is below what a timer read can
 * resolve, so each sample times a batch and is divided by its size.
 */
const SYNC_BATCH = 1000;
const ASYNC_BATCH = 20;

interface Probe {
  readonly name: string;
  readonly what: string;
  readonly batch: number;
  readonly async: boolean;
  /** One call, for the cold (first call in the process) figure. */
  readonly once: () => unknown;
  /** `batch` calls, for the warm figure. */
  readonly many: () => unknown;
}

async function main(): Promise<void> {
  const machine = machineInfo();
  // Loading the addon and compiling the module are one-off costs, kept out of the first-call figures.
  const addon = nativeAddon();
  const wasm = wasmModule();
  // rowLengthStats with rows = 0 reads one row pointer and writes its six fields: the cheapest export that does anything.
  const block = wasm.alloc(8 + 6 * 8);
  let sink = 0;
  const jsEmpty = (i: number): number => i + 1;
  const tiny = new CsrMatrix({ rows: 1, cols: 1, rowPtr: Int32Array.of(0, 1), colIdx: Int32Array.of(0) });
  const x = DenseMatrix.zeros(1, 1);
  const out = DenseMatrix.zeros(1, 1);

  const probes: Probe[] = [
    {
      name: 'js-call',
      what: 'empty JavaScript function (floor of the loop itself)',
      batch: SYNC_BATCH,
      async: false,
      once: () => (sink += jsEmpty(sink)),
      many: () => {
        for (let i = 0; i < SYNC_BATCH; i++) sink = jsEmpty(sink);
      },
    },
    {
      name: 'wasm-call',
      what: 'WebAssembly export rowLengthStats(ptr, rows = 0, out)',
      batch: SYNC_BATCH,
      async: false,
      once: () => wasm.rowLengthStats(block, 0, block + 8),
      many: () => {
        for (let i = 0; i < SYNC_BATCH; i++) sink += wasm.rowLengthStats(block, 0, block + 8);
      },
    },
    {
      name: 'native-sync',
      what: 'native addon noopSync()',
      batch: SYNC_BATCH,
      async: false,
      once: () => addon.noopSync(),
      many: () => {
        for (let i = 0; i < SYNC_BATCH; i++) addon.noopSync();
      },
    },
    {
      name: 'native-async',
      what: 'native addon await noopAsync() (AsyncWorker + Promise round trip)',
      batch: ASYNC_BATCH,
      async: true,
      once: () => addon.noopAsync(),
      many: async () => {
        for (let i = 0; i < ASYNC_BATCH; i++) await addon.noopAsync();
      },
    },
    {
      name: 'spmm-1x1',
      what: 'public API: await spmm(1x1 matrix, 1x1, { out }) (validation + kernel; below INLINE_WORK it runs on the calling thread, no thread hop)',
      batch: ASYNC_BATCH,
      async: true,
      once: () => spmm(tiny, x, { out }),
      many: async () => {
        for (let i = 0; i < ASYNC_BATCH; i++) await spmm(tiny, x, { out });
      },
    },
  ];

  const cold = new Map<string, number>();
  performance.now(); // the timer's own first call is slow
  for (const p of probes) {
    const t = performance.now();
    const r = p.once();
    if (p.async) await r;
    cold.set(p.name, (performance.now() - t) * 1e6);
  }
  progress(`boundary: timing ${probes.length} probes`);
  // One round each, in the order above: they share no data, so order matters little here.
  const timed = await measure(
    probes.map((p) => ({ name: p.name, fn: p.many, async: p.async })),
    SETTINGS,
    1,
  );
  wasm.free(block);
  if (sink === -1) progress('unreachable: keeps the sink alive');

  const rows = probes.map((p, i) => {
    const t = timed[i]!;
    const perCall = (x: number): number => (x * 1e6) / p.batch;
    return {
      probe: p.name,
      what: p.what,
      batch: p.batch,
      medianNs: perCall(t.median),
      p25Ns: perCall(t.p25),
      p75Ns: perCall(t.p75),
      coldNs: cold.get(p.name)!,
    };
  });
  const ns = (x: number): string => (x >= 1e6 ? `${fixed(x / 1e6, 2)} ms` : x >= 10_000 ? `${fixed(x / 1000, 1)} µs` : `${fixed(x, x >= 100 ? 0 : 1)} ns`);
  const report: SuiteReport = {
    suite: 'boundary',
    title: `Boundary crossings${quick ? ' (quick mode)' : ''}`,
    date: new Date().toISOString(),
    machine,
    settings: { quick, bench: SETTINGS, syncBatch: SYNC_BATCH, asyncBatch: ASYNC_BATCH, threads: addon.threads() },
    notes: [
      `Warm: each tinybench sample times a batch (${SYNC_BATCH} sync or ${ASYNC_BATCH} sequential async calls) and is divided by the batch; the loop's own cost is in every row (see js-call).`,
      'Cold: the first call in the process, after the addon was loaded and the WebAssembly module compiled (one timer read, so coarse).',
    ],
    tables: [
      {
        title: 'Cost of one empty call (median per call; p25-p75)',
        columns: ['probe', 'what', 'warm per call', 'p25-p75', 'cold (first call)'],
        rows: rows.map((r) => [r.probe, r.what, ns(r.medianNs), `${ns(r.p25Ns)} - ${ns(r.p75Ns)}`, ns(r.coldNs)]),
      },
    ],
    data: rows,
  };
  emitReport(report, args.json, args.quiet);
}

await main();
