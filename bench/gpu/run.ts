// The GPU benchmark (needs nvcc and a CUDA device): dype's CUDA SpMM (both strategies and the
// data-aware choice), BFS and multi-source BFS against cuSPARSE's cusparseSpMM in the same
// process, on generated inputs (Kronecker up to scale 22, road-like grids, a banded FEM-like
// matrix) and the shared datasets. Builds bench/gpu/harness.cu with nvcc, writes each input as a
// binary CSR, runs the harness on it and collects its JSON.
//
//   node --import tsx bench/gpu/run.ts [--quick] [--out FILE] [--datasets DIR] [--work DIR]
//
// Results: one JSON file (default bench/results/gpu.json) with the device, every record, and a
// Markdown summary printed on stdout.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CsrMatrix } from '../../src/data/csr.js';
import { symmetrize } from '../../src/data/convert.js';
import { generate, type GeneratorSpec } from '../../src/generators/index.js';
import { loadMatrixMarket } from '../../src/io/index.js';
import { packageRoot } from '../../src/native/addon.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    out: { type: 'string' },
    datasets: { type: 'string' },
    work: { type: 'string' },
    only: { type: 'string' },
    cases: { type: 'string' },
    'no-bfs': { type: 'boolean' },
  },
});
/** Inputs by name (comma-separated), SpMM cases as k:precision pairs, e.g. `32:f32,1:f64`. */
const only = args.only?.split(',');
const cases = args.cases?.split(',').map((c) => c.split(':') as [string, string]);
const quick = args.quick === true;
const out = args.out ?? join(packageRoot, 'bench', 'results', 'gpu.json');
const work = args.work ?? '/tmp/dype-gpu-bench';
const datasetDir = args.datasets ?? join(packageRoot, '..', 'shared', 'datasets');
mkdirSync(work, { recursive: true });
mkdirSync(dirname(out), { recursive: true });

function log(s: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);
}

// ---- build the harness ------------------------------------------------------------------------

function nvcc(): string {
  for (const home of [process.env['CUDA_HOME'], '/usr/local/cuda'].filter(Boolean) as string[]) {
    if (existsSync(join(home, 'bin', 'nvcc'))) return join(home, 'bin', 'nvcc');
  }
  return 'nvcc';
}

function buildHarness(): { path: string; cusparse: boolean; note: string } {
  const path = join(work, 'harness');
  const base = [
    '-std=c++17',
    '-O3',
    '-gencode',
    'arch=compute_80,code=sm_80',
    '-gencode',
    'arch=compute_90,code=sm_90',
    `-I${join(packageRoot, 'native', 'src')}`,
    join(packageRoot, 'bench', 'gpu', 'harness.cu'),
    join(packageRoot, 'native', 'src', 'cuda', 'kernels.cu'),
    '-o',
    path,
  ];
  const tries: [string[], string][] = [[['-lcusparse'], 'cuSPARSE from the toolkit']];
  // The pip-installed cuSPARSE (nvidia-cusparse) where the toolkit lacks it.
  const found = spawnSync('bash', ['-c', 'find /usr/local /usr/include /opt -name cusparse.h 2>/dev/null | head -5'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  for (const header of found) {
    const inc = dirname(header);
    const lib = join(dirname(inc), 'lib');
    tries.push([[`-I${inc}`, `-L${lib}`, `-Xlinker`, `-rpath=${lib}`, '-lcusparse'], `cuSPARSE from ${dirname(inc)}`]);
  }
  for (const [extra, note] of tries) {
    const r = spawnSync(nvcc(), [...base, ...extra], { encoding: 'utf8' });
    if (r.status === 0) return { path, cusparse: true, note };
    log(`harness build with ${note} failed: ${(r.stderr || '').split('\n').slice(0, 3).join(' | ')}`);
  }
  const r = spawnSync(nvcc(), [...base, '-DDYPE_NO_CUSPARSE'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`harness build failed: ${r.stderr}`);
  return { path, cusparse: false, note: 'no cuSPARSE found: our kernels only' };
}

// ---- inputs -----------------------------------------------------------------------------------

interface Input {
  readonly name: string;
  readonly family: string;
  readonly matrix: () => CsrMatrix | Promise<CsrMatrix>;
}

const generated: [string, string, GeneratorSpec][] = [
  ['kron16', 'kronecker', { kind: 'kronecker', scale: 16, edgeFactor: 16, seed: 1 }],
  ['kron18', 'kronecker', { kind: 'kronecker', scale: 18, edgeFactor: 16, seed: 1 }],
  ['kron20', 'kronecker', { kind: 'kronecker', scale: 20, edgeFactor: 16, seed: 1 }],
  ['kron22', 'kronecker', { kind: 'kronecker', scale: 22, edgeFactor: 16, seed: 1 }],
  ['grid1k', 'road-like grid', { kind: 'grid', rows: 1024, cols: 1024, deleteFraction: 0.15, seed: 1 }],
  ['grid2k', 'road-like grid', { kind: 'grid', rows: 2048, cols: 2048, deleteFraction: 0.15, seed: 1 }],
  ['banded1m', 'banded', { kind: 'banded', n: 1 << 20, halfBandwidth: 16, seed: 1 }],
];

function inputs(): Input[] {
  const list: Input[] = generated
    .filter(([name]) => !quick || ['kron16', 'kron18', 'grid1k', 'banded1m'].includes(name))
    .map(([name, family, spec]) => ({ name, family, matrix: () => generate(spec) }));
  if (existsSync(datasetDir)) {
    for (const f of readdirSync(datasetDir)
      .filter((f) => f.endsWith('.mtx'))
      .sort()) {
      list.push({
        name: basename(f, '.mtx'),
        family: 'dataset',
        matrix: async () => (await loadMatrixMarket(join(datasetDir, f), { format: 'coordinate' })) as CsrMatrix,
      });
    }
  }
  return only ? list.filter((i) => only.includes(i.name)) : list;
}

function writeCsr(path: string, a: CsrMatrix): void {
  const header = Buffer.alloc(32);
  header.write('DYPECSR1', 0, 'latin1');
  header.writeBigInt64LE(BigInt(a.rows), 8);
  header.writeBigInt64LE(BigInt(a.cols), 16);
  header.writeBigInt64LE(BigInt(a.nnz), 24);
  const rp = new BigInt64Array(a.rows + 1);
  for (let r = 0; r <= a.rows; r++) rp[r] = BigInt(a.rowStart(r));
  writeFileSync(path, Buffer.concat([header, Buffer.from(rp.buffer), Buffer.from(a.colIdx.buffer, a.colIdx.byteOffset, a.colIdx.byteLength)]));
}

function harness(bin: string, argv: string[]): Record<string, unknown> | undefined {
  const r = spawnSync(bin, argv, { encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 24 });
  if (r.status !== 0) {
    log(`harness ${argv.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || '').trim().slice(0, 400)}`);
    return undefined;
  }
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

// ---- run ----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const built = buildHarness();
  log(`harness built (${built.note})`);
  const info = harness(built.path, ['info']);
  log(`device: ${JSON.stringify(info)}`);
  const records: Record<string, unknown>[] = [];
  for (const input of inputs()) {
    const t0 = performance.now();
    let a: CsrMatrix;
    try {
      a = await input.matrix();
    } catch (e) {
      log(`${input.name}: cannot load (${(e as Error).message})`);
      continue;
    }
    const file = join(work, `${input.name}.csr`);
    writeCsr(file, a);
    const big = a.nnz > 50e6;
    const reps = big ? '5' : '10';
    const spmmCases: [string, string][] =
      cases ??
      (quick
        ? [
            ['32', 'f32'],
            ['1', 'f32'],
          ]
        : [
            ['32', 'f32'],
            ['128', 'f32'],
            ['8', 'f32'],
            ['32', 'f64'],
            ['1', 'f32'],
          ]);
    for (const [k, prec] of spmmCases) {
      if (big && k === '128') continue;
      const r = harness(built.path, ['spmm', file, k, prec, reps]);
      if (r) records.push({ input: input.name, family: input.family, ...r });
    }
    // BFS where the diameter is that of a graph: a banded matrix's is n / bandwidth (65,536
    // levels here), which measures synchronisation, not traversal.
    if (a.rows === a.cols && input.family !== 'banded' && !args['no-bfs']) {
      const g = symmetrize(a);
      const gfile = join(work, `${input.name}.sym.csr`);
      writeCsr(gfile, g);
      const b = harness(built.path, ['bfs', gfile, '4', big ? '3' : '5']);
      if (b) records.push({ input: input.name, family: input.family, ...b });
      const m = harness(built.path, ['msbfs', gfile, quick ? '64' : '128', '3']);
      if (m) records.push({ input: input.name, family: input.family, ...m });
    }
    log(`${input.name}: ${a.rows} rows, ${a.nnz} nnz, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const r of records.filter((r) => r['input'] === input.name)) log(`  ${JSON.stringify(r)}`);
    // Written after every input, so a run cut short keeps what it measured.
    writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), quick, harness: built.note, device: info, partial: true, records }, null, 1)}\n`);
  }
  if (!only) records.push(...(await endToEnd()));
  const result = { date: new Date().toISOString(), quick, harness: built.note, device: info, records };
  writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
  log(`wrote ${out}`);
  process.stdout.write(summary(records));
}

/**
 * The same kernels through the `gpu` backend as the scheduler calls them: copies in, kernels,
 * copies out, with what each cost (host-to-device over PCIe dominates for one SpMM).
 */
async function endToEnd(): Promise<Record<string, unknown>[]> {
  const { gpuBackend } = await import('../../src/devices/backends/gpu.js');
  const { loadProfile } = await import('../../src/devices/spec.js');
  const { denseFeatures } = await import('../../src/generators/index.js');
  const status = await gpuBackend.probe();
  if (!status.available) return [];
  const device = gpuBackend.create('gpu', loadProfile('bench', 'gpu', 'cuda', gpuBackend.params));
  const out: Record<string, unknown>[] = [];
  for (const scale of quick ? [18] : [18, 20]) {
    const a = generate({ kind: 'kronecker', scale, edgeFactor: 16, seed: 1 });
    const x = denseFeatures({ rows: a.cols, cols: 32, precision: 'f32', seed: 1 });
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await device.run({ kind: 'spmm' }, { a, x }));
    const r = runs.sort((p, q) => p.seconds - q.seconds)[2]!;
    out.push({
      kind: 'e2e',
      input: `kron${scale}`,
      operator: 'spmm k=32 f32',
      kernelMs: r.seconds * 1e3,
      ...Object.fromEntries(Object.entries(r.counters).map(([k, v]) => [k, v])),
      joules: r.joules,
      energySource: r.energySource,
    });
    const b = await device.run({ kind: 'bfs', source: 1 }, { graph: a });
    out.push({ kind: 'e2e', input: `kron${scale}`, operator: 'bfs', kernelMs: b.seconds * 1e3, ...b.counters, joules: b.joules, energySource: b.energySource });
    // The matrix and X resident on the device (as the executor keeps a run's sparse operands):
    // the same SpMM then copies only the row pointers in.
    const p = await device.prefetch!([a.colIdx, x.data, ...(a.values ? [a.values] : [])]);
    const warm = [];
    for (let i = 0; i < 5; i++) warm.push(await device.run({ kind: 'spmm' }, { a, x }));
    const w = warm.sort((p, q) => p.seconds - q.seconds)[2]!;
    out.push({
      kind: 'e2e',
      input: `kron${scale}`,
      operator: 'spmm k=32 f32, resident',
      prefetchMs: p.seconds * 1e3,
      prefetchBytes: p.bytes,
      kernelMs: w.seconds * 1e3,
      ...w.counters,
      joules: w.joules,
      energySource: w.energySource,
    });
    await device.dispose();
  }
  // A road network, whose BFS is thousands of thin levels.
  const road = generate({ kind: 'grid', rows: 2048, cols: 2048, deleteFraction: 0.2, seed: 1 });
  const rb = await device.run({ kind: 'bfs', source: 0 }, { graph: road });
  out.push({
    kind: 'e2e',
    input: 'grid2048 (20% deleted)',
    operator: 'bfs',
    kernelMs: rb.seconds * 1e3,
    ...rb.counters,
    joules: rb.joules,
    energySource: rb.energySource,
  });
  return out;
}

function summary(records: Record<string, unknown>[]): string {
  const lines = [
    '| input | k | prec | auto | rows ms | nnz ms (chunk) | nnz ms, searched chunks (before) | scalar loads ms | cuSPARSE ms | ours/cuSPARSE speed | GFLOP/s | GB/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of records.filter((r) => r['kind'] === 'spmm')) {
    const cus = r['cusparseMs'] as number;
    const ours = r['autoMs'] as number;
    lines.push(
      `| ${r['input']} | ${r['k']} | ${r['precision']} | ${r['autoStrategy']} | ${(r['rowMs'] as number).toFixed(3)} | ${(r['nnzMs'] as number).toFixed(3)} (${r['chunk']}) | ${typeof r['searchMs'] === 'number' ? r['searchMs'].toFixed(3) : '-'} | ${typeof r['scalarMs'] === 'number' ? r['scalarMs'].toFixed(3) : '-'} | ${cus > 0 ? cus.toFixed(3) : '-'} | ${cus > 0 ? (cus / ours).toFixed(2) : '-'} | ${(r['gflops'] as number).toFixed(0)} | ${(r['effectiveGBs'] as number).toFixed(0)} |`,
    );
  }
  lines.push('', '| input | BFS ms (auto) | top-down only ms | host read per level ms | GTEPS | levels | mismatches |', '|---|---|---|---|---|---|---|');
  for (const r of records.filter((r) => r['kind'] === 'bfs')) {
    lines.push(
      `| ${r['input']} | ${(r['autoMs'] as number).toFixed(3)} | ${(r['topDownMs'] as number).toFixed(3)} | ${typeof r['unbatchedMs'] === 'number' ? r['unbatchedMs'].toFixed(3) : '-'} | ${(r['gteps'] as number).toFixed(2)} | ${r['levels']} | ${r['mismatches']} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

await main();
