// Load time and peak memory of loadMatrixMarket on soc-Slashdot0902.mtx (10 MB, 948k entries).
// Each trial runs in a fresh child process, so "cold" includes JIT warm-up and memory is not
// muddied by earlier trials. Run: node --expose-gc --import tsx bench/load/slashdot.ts [trials]

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../../src/stats.js';

const SELF = fileURLToPath(import.meta.url);
const FILE = resolve(SELF, '../../../../shared/datasets/soc-Slashdot0902.mtx');
const WARM_LOADS = 5;

interface TimingResult {
  readonly cold: number;
  readonly warm: number[];
  readonly finalBytes: number;
  /** process.resourceUsage().maxRSS after the first load minus the RSS just before it (bytes). */
  readonly rssRise: number;
  /** Whether that first load raised the process's RSS high-water mark at all. */
  readonly rssPeakRaised: boolean;
}

interface MemoryResult {
  readonly finalBytes: number;
  /** Highest process.memoryUsage().arrayBuffers seen while loading, above the level before it. */
  readonly arrayBufferPeak: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('run with --expose-gc: node --expose-gc --import tsx bench/load/slashdot.ts');
  process.exit(2);
}

async function load(): Promise<number> {
  const { loadMatrixMarket } = await import('../../src/io/index.js');
  const a = await loadMatrixMarket(FILE, { format: 'coordinate' });
  return a.rowPtr.byteLength + a.colIdx.byteLength + (a.values?.byteLength ?? 0);
}

async function timingChild(): Promise<TimingResult> {
  await import('../../src/io/index.js');
  gc!();
  const rssBefore = process.memoryUsage.rss();
  const maxBefore = process.resourceUsage().maxRSS * 1024;
  let t = performance.now();
  const finalBytes = await load();
  const cold = performance.now() - t;
  const maxAfter = process.resourceUsage().maxRSS * 1024;
  const warm: number[] = [];
  for (let i = 0; i < WARM_LOADS; i++) {
    gc!();
    t = performance.now();
    await load();
    warm.push(performance.now() - t);
  }
  return { cold, warm, finalBytes, rssRise: maxAfter - rssBefore, rssPeakRaised: maxAfter > maxBefore };
}

/**
 * Sampling on a timer cannot see inside a synchronous loop, so sample at the moments memory can
 * grow: every typed-array construction (the loader's and cooToCsr's), through proxies on the
 * global constructors. A `.slice()` copy bypasses them but is seen at the next construction.
 */
async function memoryChild(): Promise<MemoryResult> {
  await import('../../src/io/index.js');
  gc!();
  const base = process.memoryUsage().arrayBuffers;
  let peak = base;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  };
  const g = globalThis as Record<string, unknown>;
  for (const name of ['Int8Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array']) {
    const ctor = g[name] as abstract new (...args: unknown[]) => object;
    g[name] = new Proxy(ctor, {
      construct(target, args, newTarget) {
        const made = Reflect.construct(target, args, newTarget) as object;
        sample();
        return made;
      },
    });
  }
  const finalBytes = await load();
  sample();
  return { finalBytes, arrayBufferPeak: peak - base };
}

function runChild<T>(mode: string): T {
  const r = spawnSync(process.execPath, [...process.execArgv, SELF, '--child', mode], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child (${mode}) failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as T;
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    const result = process.argv[childAt + 1] === 'memory' ? await memoryChild() : await timingChild();
    console.log(JSON.stringify(result));
    return;
  }
  if (!existsSync(FILE)) {
    console.log(`skipped: ${FILE} not found (the shared datasets folder sits beside the checkout)`);
    return;
  }
  const trials = Number(process.argv[2] ?? 5);
  const mib = (b: number): string => `${(b / 2 ** 20).toFixed(1)} MiB`;
  const size = statSync(FILE).size;
  console.log(`loadMatrixMarket ${FILE} (${mib(size)}), ${trials} fresh processes x (1 cold + ${WARM_LOADS} warm loads)`);
  const runs: TimingResult[] = [];
  for (let i = 0; i < trials; i++) runs.push(runChild<TimingResult>('timing'));
  const mem = runChild<MemoryResult>('memory');
  const cold = runs.map((r) => r.cold);
  const warm = runs.flatMap((r) => r.warm);
  const final = mem.finalBytes;
  console.log(`  cold (first load in a process): median ${median(cold).toFixed(0)} ms, min ${Math.min(...cold).toFixed(0)} ms`);
  console.log(
    `  warm: median ${median(warm).toFixed(0)} ms, min ${Math.min(...warm).toFixed(0)} ms (${(size / 2 ** 20 / (median(warm) / 1000)).toFixed(0)} MiB/s)`,
  );
  console.log(`  final arrays (rowPtr + colIdx + values): ${mib(final)}`);
  console.log(`  peak ArrayBuffer memory during the load: ${mib(mem.arrayBufferPeak)} = ${(mem.arrayBufferPeak / final).toFixed(2)}x the final arrays`);
  const raised = runs.filter((r) => r.rssPeakRaised).map((r) => r.rssRise);
  console.log(
    raised.length > 0
      ? `  peak RSS rise over the first load (maxRSS - RSS before): median ${mib(median(raised))} = ${(median(raised) / final).toFixed(2)}x the final arrays (includes V8 heap and JIT code)`
      : '  peak RSS: the load never exceeded the start-up high-water mark',
  );
}

await main();
