// What keeping freed memory in the process (native/src/memory_retention.cc) saves: repeated
// `runPlan`s of one SpMM on the CPU, whose 4 MiB output is a fresh array every run, in child
// processes with glibc's own behaviour (DYPE_KEEP_FREED_MEMORY=0) and with the addon's, alternated
// in pairs, so both sides meet the machine's same hours. Per side: wall time of a run, the
// process's system time a run (mapping fresh pages), and the kernel's own time (which should not
// move: the pages are provisioned before its clock either way).
// Run: node --import tsx bench/kernels/freed-memory.ts [--dataset wing] [--k 16] [--runs 200] [--pairs 3]

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { quantile } from '../../src/stats.js';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'wing' },
    k: { type: 'string', default: '16' },
    runs: { type: 'string', default: '200' },
    pairs: { type: 'string', default: '3' },
    child: { type: 'boolean', default: false },
  },
  strict: true,
});

interface Side {
  readonly wallMs: number;
  readonly sysMs: number;
  readonly kernelUs: number;
  readonly kept: boolean;
}

async function measure(): Promise<Side> {
  const lib = await import('../../src/index.js');
  const { loadDataset } = await import('../common/datasets.js');
  const { nativeAddon } = await import('../../src/native/addon.js');
  const loaded = await loadDataset(args.dataset, 'f32');
  if (!loaded.matrix) throw new Error(`${args.dataset}: ${loaded.reason}`);
  const plan = await lib.schedule('spmm', loaded.matrix, { exclude: ['gpu', 'cgra'], params: { k: Number(args.k) }, probe: false });
  for (let r = 0; r < 10; r++) await lib.runPlan(plan, { replan: false });
  const kernel: number[] = [];
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  const runs = Number(args.runs);
  for (let r = 0; r < runs; r++) kernel.push((await lib.runPlan(plan, { replan: false })).pieces[0]!.observedSeconds * 1e6);
  const wall = performance.now() - t0;
  const u = process.cpuUsage(u0);
  return { wallMs: wall / runs, sysMs: u.system / 1e3 / runs, kernelUs: quantile(kernel, 0.5), kept: nativeAddon().memoryRetention().applied };
}

if (args.child) {
  console.log(JSON.stringify(await measure()));
} else {
  const self = fileURLToPath(import.meta.url);
  const run = (keep: boolean): Side => {
    const env = { ...process.env, DYPE_KEEP_FREED_MEMORY: keep ? '1' : '0' };
    const argv = ['--import', 'tsx', self, '--child', '--dataset', args.dataset, '--k', args.k, '--runs', args.runs];
    return JSON.parse(execFileSync(process.execPath, argv, { env, encoding: 'utf8' }).trim().split('\n').pop()!) as Side;
  };
  console.log(`runPlan of one SpMM on ${args.dataset}, k = ${args.k}, all on the CPU, ${args.runs} runs a side, ${args.pairs} alternated pairs`);
  console.log('pair  side               wall ms/run  system ms/run  kernel us (median)');
  const ratios: number[] = [];
  for (let p = 0; p < Number(args.pairs); p++) {
    const sides = p % 2 ? [run(true), run(false)] : [run(false), run(true)];
    for (const s of sides) {
      const name = s.kept ? 'freed memory kept' : "glibc's default";
      console.log(
        `${String(p + 1).padEnd(4)}  ${name.padEnd(17)}  ${s.wallMs.toFixed(2).padStart(11)}  ${s.sysMs.toFixed(2).padStart(13)}  ${s.kernelUs.toFixed(0).padStart(18)}`,
      );
    }
    const [kept, plain] = sides[0]!.kept ? [sides[0]!, sides[1]!] : [sides[1]!, sides[0]!];
    ratios.push(plain.wallMs / kept.wallMs);
  }
  console.log(`wall time a run, default over kept: ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${quantile(ratios, 0.5).toFixed(2)})`);
}
