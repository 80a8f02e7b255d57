// The devices suite: how fast each simulated backend simulates (simulated nonzeros or edges per
// second of host wall time, against the native CPU kernel on the same input), and a per-dataset
// table of what each device reports for SpMM and BFS: time, energy and cycles, labelled
// measured or simulated. Simulated figures are deterministic, so they double as a regression
// record for the models.
// Run: node --expose-gc --import tsx bench/devices/simulators.ts [--quick] [--k 16] [--only a,b]

import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CsrMatrix } from '../../src/data/csr.js';
import { BACKENDS } from '../../src/devices/backends/index.js';
import type { Device, DeviceResult, OperatorKind } from '../../src/devices/device.js';
import { loadProfile } from '../../src/devices/spec.js';
import { denseFeatures, kroneckerGraph } from '../../src/generators/index.js';
import { datasetsDir, loadDataset } from '../common/datasets.js';
import { collectGarbage, median } from '../common/measure.js';
import { emitReport, fixed, machineInfo, progress, type SuiteReport, type Table } from '../common/report.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    k: { type: 'string' },
    only: { type: 'string' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const quick = args.quick;
const K = Number(args.k ?? 16);
if (!Number.isInteger(K) || K < 1) throw new Error(`--k must be a positive integer, got ${args.k}`);
const only = args.only?.split(',').map((s) => s.trim());
const REPEAT = quick ? 3 : 7;

// Every backend that can run here (the CUDA backend only where a GPU answers).
const devices: Device[] = [];
for (const b of BACKENDS.values()) {
  if ((await b.probe()).available) devices.push(b.create(b.name, loadProfile('bench', b.name, b.defaultProfile, b.params)));
}
const simulated = devices.filter((d) => d.simulated);
const cpu = devices.find((d) => d.backend === 'cpu')!;

/** Host wall time of `run` (median over REPEAT after one warm-up) and the last result. */
async function timeRun<K extends OperatorKind>(run: () => Promise<DeviceResult<K>>): Promise<{ wallMs: number; result: DeviceResult<K> }> {
  let result = await run();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    collectGarbage();
    const t = performance.now();
    result = await run();
    times.push(performance.now() - t);
  }
  return { wallMs: median(times), result };
}

/** A well-connected source: the vertex of largest degree among the first 1024. */
function hubSource(g: CsrMatrix): number {
  let best = 0;
  for (let v = 0; v < Math.min(g.rows, 1024); v++) if (g.rowLength(v) > g.rowLength(best)) best = v;
  return best;
}

const fmtSec = (s: number): string => (s >= 1 ? `${s.toPrecision(3)} s` : s >= 1e-3 ? `${(s * 1e3).toPrecision(3)} ms` : `${(s * 1e6).toPrecision(3)} us`);
const fmtJ = (j: number): string => (j >= 1 ? `${j.toPrecision(3)} J` : j >= 1e-3 ? `${(j * 1e3).toPrecision(3)} mJ` : `${(j * 1e6).toPrecision(3)} uJ`);
const label = (r: DeviceResult<OperatorKind>): string => (r.source === 'measured' ? 'measured' : 'simulated');

async function speed(): Promise<{ table: Table; data: object[] }> {
  const rows: string[][] = [];
  const data: object[] = [];
  for (const scale of quick ? [16] : [16, 18]) {
    const g = kroneckerGraph({ scale, edgeFactor: 16, seed: 1 });
    const x = denseFeatures({ rows: g.cols, cols: K, precision: 'f32', seed: 1 });
    const source = hubSource(g);
    progress(`speed: kronecker-${scale} (${g.nnz} nonzeros)`);
    const cpuSpmm = await timeRun(() => cpu.run({ kind: 'spmm' }, { a: g, x }));
    const cpuBfs = await timeRun(() => cpu.run({ kind: 'bfs', source }, { graph: g }));
    for (const d of simulated) {
      const s = await timeRun(() => d.run({ kind: 'spmm' }, { a: g, x }));
      const b = await timeRun(() => d.run({ kind: 'bfs', source }, { graph: g }));
      const edges = b.result.counters['edgesExamined'] ?? g.nnz;
      const spmmRate = g.nnz / (s.wallMs / 1e3);
      const bfsRate = edges / (b.wallMs / 1e3);
      rows.push([
        `kronecker-${scale}`,
        d.backend,
        `${(spmmRate / 1e6).toFixed(1)} M nnz/s`,
        fixed(s.wallMs / cpuSpmm.wallMs, 1),
        `${(bfsRate / 1e6).toFixed(1)} M edges/s`,
        fixed(b.wallMs / cpuBfs.wallMs, 1),
      ]);
      data.push({
        input: `kronecker-${scale}`,
        nnz: g.nnz,
        backend: d.backend,
        spmmWallMs: s.wallMs,
        cpuSpmmMs: cpuSpmm.wallMs,
        spmmNnzPerSecond: spmmRate,
        bfsWallMs: b.wallMs,
        cpuBfsMs: cpuBfs.wallMs,
        bfsEdgesPerSecond: bfsRate,
        bfsEdges: edges,
      });
    }
  }
  return {
    table: {
      title: `Simulation speed (host wall time, medians of ${REPEAT}; SpMM k=${K} FP32 and BFS from the hub vertex)`,
      columns: ['input', 'simulator', 'SpMM simulated', 'x CPU kernel time', 'BFS simulated', 'x CPU kernel time'],
      rows,
    },
    data,
  };
}

async function perDataset(): Promise<{ tables: Table[]; data: object[] }> {
  const dir = datasetsDir();
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => f.endsWith('.mtx'))
      .map((f) => f.slice(0, -4))
      .sort();
  } catch {
    progress(`datasets: ${dir} not found, per-dataset tables skipped`);
    return { tables: [], data: [] };
  }
  if (quick) names = names.filter((n) => ['cora', 'email-Enron', 'luxembourg_osm', 'bcsstk16', 'delaunay_n16'].includes(n));
  if (only) names = names.filter((n) => only.includes(n));
  const spmmRows: string[][] = [];
  const bfsRows: string[][] = [];
  const data: object[] = [];
  for (const name of names) {
    const loaded = await loadDataset(name, 'f32');
    if (!loaded.matrix) continue;
    const a = loaded.matrix;
    progress(`datasets: ${name} (${a.rows} x ${a.cols}, ${a.nnz} nonzeros)`);
    const x = denseFeatures({ rows: a.cols, cols: K, precision: 'f32', seed: 1 });
    for (const d of devices) {
      const r = d.simulated ? await d.run({ kind: 'spmm' }, { a, x }) : (await timeRun(() => d.run({ kind: 'spmm' }, { a, x }))).result;
      const cycles = r.counters['cycles'];
      spmmRows.push([
        name,
        d.name,
        label(r),
        fmtSec(r.seconds),
        fmtJ(r.joules),
        r.energySource,
        cycles === undefined ? '' : cycles.toLocaleString('en-US'),
        `${((2 * a.nnz * K) / r.seconds / 1e9).toPrecision(3)}`,
      ]);
      data.push({
        dataset: name,
        operator: 'spmm',
        k: K,
        device: d.name,
        seconds: r.seconds,
        joules: r.joules,
        source: r.source,
        energySource: r.energySource,
        counters: r.counters,
      });
    }
    if (a.rows !== a.cols) continue;
    const source = hubSource(a);
    for (const d of devices) {
      const r = d.simulated ? await d.run({ kind: 'bfs', source }, { graph: a }) : (await timeRun(() => d.run({ kind: 'bfs', source }, { graph: a }))).result;
      const cycles = r.counters['cycles'];
      bfsRows.push([
        name,
        d.name,
        label(r),
        fmtSec(r.seconds),
        fmtJ(r.joules),
        r.energySource,
        cycles === undefined ? '' : cycles.toLocaleString('en-US'),
        String(r.output.frontier.length),
      ]);
      data.push({
        dataset: name,
        operator: 'bfs',
        source,
        device: d.name,
        seconds: r.seconds,
        joules: r.joules,
        source_: r.source,
        energySource: r.energySource,
        counters: r.counters,
      });
    }
  }
  return {
    tables: [
      {
        title: `SpMM k=${K} FP32 per dataset and device (cpu measured, median of ${REPEAT}; simulators deterministic)`,
        columns: ['dataset', 'device', 'time', 'seconds', 'energy', 'energy is', 'cycles', 'GFLOP/s'],
        rows: spmmRows,
      },
      {
        title: 'BFS from the hub vertex per dataset and device',
        columns: ['dataset', 'device', 'time', 'seconds', 'energy', 'energy is', 'cycles', 'levels'],
        rows: bfsRows,
      },
    ],
    data,
  };
}

async function main(): Promise<void> {
  const s = await speed();
  const p = await perDataset();
  const report: SuiteReport = {
    suite: 'devices',
    title: 'Devices: simulator speed and per-dataset simulated cost',
    date: new Date().toISOString(),
    machine: machineInfo(),
    settings: { quick, k: K, repeat: REPEAT, profiles: Object.fromEntries(devices.map((d) => [d.name, d.spec.name])) },
    notes: [
      'Simulated rows (cgra-sim, gpu-sim) are model outputs, not measurements: time and energy come from the simulator, deterministic for a given input and profile.',
      'cpu rows are measured on this machine (native kernel wall time); its energy is modelled from the power profile unless RAPL is readable.',
      "Simulation speed divides the input's nonzeros (SpMM) or the edges the simulated BFS examined by the host wall time of one simulated run.",
    ],
    tables: [s.table, ...p.tables],
    data: { speed: s.data, datasets: p.data },
  };
  emitReport(report, args.json, args.quiet);
  await Promise.all(devices.map((d) => d.dispose()));
}

await main();
