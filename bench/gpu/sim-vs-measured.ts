// How far gpu-sim's predictions are from the CUDA kernels measured on a real card: replays every
// input of a GPU benchmark record (bench/gpu/records/*.json, written by bench/gpu/run.ts on the
// card) through gpu-sim with a profile of the same card, and prints predicted / measured per input
// and operator. No GPU needed: the inputs are regenerated from their seeds or reloaded from the
// shared datasets, and BFS starts from the sources the harness picked.
//
//   node --import tsx bench/gpu/sim-vs-measured.ts RECORD.json [RECORD2.json ...] [--profile h200-sxm]
//        [--set key=value,...] [--max-nnz N] [--json]
//
// With several records, later ones replace earlier ones' SpMM figures for the same input and case
// (the kernels they measured are newer). `--set` overrides profile parameters, to try a
// recalibration before writing it into the profile.

import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CsrMatrix } from '../../src/data/csr.js';
import { symmetrize } from '../../src/data/convert.js';
import { DenseMatrix } from '../../src/data/dense.js';
import { gpuSimBackend } from '../../src/devices/backends/gpu-sim.js';
import type { DeviceSpec } from '../../src/devices/device.js';
import { loadProfile } from '../../src/devices/spec.js';
import { generate, type GeneratorSpec } from '../../src/generators/index.js';
import { loadMatrixMarket } from '../../src/io/index.js';
import { packageRoot } from '../../src/native/addon.js';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    profile: { type: 'string', default: 'h200-sxm' },
    set: { type: 'string' },
    'max-nnz': { type: 'string' },
    json: { type: 'boolean' },
  },
});

type Rec = Record<string, unknown> & { input: string; kind: string };

/** The generated inputs of bench/gpu/run.ts, by name (same seeds). */
const GENERATED: Record<string, GeneratorSpec> = {
  kron16: { kind: 'kronecker', scale: 16, edgeFactor: 16, seed: 1 },
  kron18: { kind: 'kronecker', scale: 18, edgeFactor: 16, seed: 1 },
  kron20: { kind: 'kronecker', scale: 20, edgeFactor: 16, seed: 1 },
  kron22: { kind: 'kronecker', scale: 22, edgeFactor: 16, seed: 1 },
  grid1k: { kind: 'grid', rows: 1024, cols: 1024, deleteFraction: 0.15, seed: 1 },
  grid2k: { kind: 'grid', rows: 2048, cols: 2048, deleteFraction: 0.15, seed: 1 },
  banded1m: { kind: 'banded', n: 1 << 20, halfBandwidth: 16, seed: 1 },
};
const datasets = process.env['DYPE_DATASETS'] ?? join(packageRoot, '..', 'shared', 'datasets');

async function load(name: string): Promise<CsrMatrix> {
  const spec = GENERATED[name];
  if (spec) return generate(spec);
  return (await loadMatrixMarket(join(datasets, `${name}.mtx`), { format: 'coordinate' })) as CsrMatrix;
}

/** harness.cu's hash_unit: the same sources and values as the measured run. */
function hashUnit(i: bigint): number {
  const M = (1n << 64n) - 1n;
  i &= M;
  i ^= i >> 33n;
  i = (i * 0xff51afd7ed558ccdn) & M;
  i ^= i >> 33n;
  i = (i * 0xc4ceb9fe1a85ec53n) & M;
  i ^= i >> 33n;
  return (Number(i >> 11n) / 2 ** 53) * 2 - 1;
}

function pickSources(a: CsrMatrix, count: number): number[] {
  const out: number[] = [];
  for (let i = 0n; out.length < count && i < 1_000_000n; i++) {
    const v = Math.floor((hashUnit(i * 7919n + 17n) * 0.5 + 0.5) * a.rows) % a.rows;
    if (a.rowStart(v + 1) > a.rowStart(v)) out.push(v);
  }
  return out;
}

function withValues(a: CsrMatrix, precision: 'f32' | 'f64'): CsrMatrix {
  const values = precision === 'f32' ? new Float32Array(a.nnz) : new Float64Array(a.nnz);
  for (let j = 0; j < a.nnz; j++) values[j] = hashUnit(BigInt(j));
  return new CsrMatrix({ rows: a.rows, cols: a.cols, rowPtr: a.rowPtr, colIdx: a.colIdx, values });
}

function profile(): DeviceSpec {
  const base = loadProfile('sim-vs-measured', 'gpu-sim', args.profile!, gpuSimBackend.params);
  if (!args.set) return base;
  const params = { ...base.params };
  for (const kv of args.set.split(',')) {
    const [k, v] = kv.split('=');
    params[k!] = { ...params[k!]!, value: Number(v), source: 'override' };
  }
  return { ...base, params };
}

async function main(): Promise<void> {
  const records = new Map<string, Rec>();
  for (const file of positionals) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { records: Rec[] };
    for (const r of data.records) {
      if (r.kind === 'spmm') records.set(`${r.input}|spmm|${r['k']}|${r['precision']}`, r);
      else if (r.kind === 'bfs') records.set(`${r.input}|bfs`, r);
    }
  }
  const maxNnz = Number(args['max-nnz'] ?? Infinity);
  const device = gpuSimBackend.create('sim', profile());
  const rows: { input: string; op: string; measuredMs: number; predictedMs: number; ratio: number }[] = [];
  const byInput = new Map<string, Rec[]>();
  for (const r of records.values()) byInput.set(r.input, [...(byInput.get(r.input) ?? []), r]);
  for (const [input, recs] of byInput) {
    if (Number(recs[0]!['nnz']) > maxNnz) continue;
    const a = await load(input);
    for (const r of recs) {
      if (r.kind === 'spmm') {
        const k = Number(r['k']);
        const precision = r['precision'] as 'f32' | 'f64';
        const m = withValues(a, precision);
        const size = m.cols * k;
        const x = new DenseMatrix(m.cols, k, precision === 'f32' ? new Float32Array(size) : new Float64Array(size));
        const res = await device.run({ kind: k === 1 ? 'spmv' : 'spmm' }, { a: m, x });
        const measured = Number(r['autoMs']);
        rows.push({ input, op: `spmm k=${k} ${precision}`, measuredMs: measured, predictedMs: res.seconds * 1e3, ratio: (res.seconds * 1e3) / measured });
      } else {
        const g = symmetrize(a);
        const sources = pickSources(g, Number(r['sources']));
        const times: number[] = [];
        for (const source of sources) times.push((await device.run({ kind: 'bfs', source }, { graph: g })).seconds * 1e3);
        times.sort((p, q) => p - q);
        const predicted = times[Math.floor(times.length / 2)]!;
        const measured = Number(r['autoMs']);
        rows.push({ input, op: 'bfs', measuredMs: measured, predictedMs: predicted, ratio: predicted / measured });
      }
    }
  }
  const logErr = (rs: typeof rows) => {
    const e = rs.map((r) => Math.abs(Math.log(r.ratio))).sort((p, q) => p - q);
    return e.length ? Math.exp(e[Math.floor(e.length / 2)]!) : NaN;
  };
  const within2 = (rs: typeof rows) => rs.filter((r) => r.ratio >= 0.5 && r.ratio <= 2).length;
  const groups: [string, typeof rows][] = [
    ['spmm', rows.filter((r) => r.op.startsWith('spmm'))],
    ['bfs', rows.filter((r) => r.op === 'bfs')],
    ['all', rows],
  ];
  const summary = Object.fromEntries(groups.map(([n, rs]) => [n, { cases: rs.length, medianFactor: logErr(rs), within2x: within2(rs) }]));
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ profile: args.profile, set: args.set ?? null, summary, rows }, null, 1)}\n`);
    return;
  }
  process.stdout.write(`gpu-sim profile ${args.profile}${args.set ? ` with ${args.set}` : ''} against ${positionals.map((p) => basename(p)).join(', ')}\n\n`);
  process.stdout.write('| input | operator | measured ms | gpu-sim ms (modelled) | predicted / measured |\n|---|---|---|---|---|\n');
  for (const r of rows) process.stdout.write(`| ${r.input} | ${r.op} | ${r.measuredMs.toFixed(3)} | ${r.predictedMs.toFixed(3)} | ${r.ratio.toFixed(2)} |\n`);
  process.stdout.write('\n| operator | cases | median error factor | within 2x |\n|---|---|---|---|\n');
  for (const [n, s] of Object.entries(summary)) process.stdout.write(`| ${n} | ${s.cases} | ${s.medianFactor.toFixed(2)}x | ${s.within2x} |\n`);
}

await main();
