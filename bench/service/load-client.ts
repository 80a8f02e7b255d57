// One tenant of the service load bench (bench/service/load.ts), as its own process: it connects
// with its token, sends its trace of jobs (Poisson arrivals, a seeded mix of GCN, GraphSAGE, BFS,
// multi-source BFS and SpMM), each declared at its arrival on the service clock and sent when the
// dilated wall clock reaches it, and prints one JSON line: every job's place on the machine's
// timeline and the device seconds it used. It uploads its data and says `ready` first; the bench
// then sends every client the same start time, so no tenant's trace starts late.
// Run by load.ts: node --import tsx bench/service/load-client.ts '<config JSON>'

import type { CsrMatrix } from '../../src/data/csr.js';
import { Rng } from '../../src/generators/rng.js';
import { connect, type ServedRunResult } from '../../src/service/client.js';
import type { MachineWork } from '../../src/service/machine-timeline.js';
import { loadInputs, type LoadJob } from './load-jobs.js';

export interface ClientConfig {
  readonly address: string;
  readonly token: string;
  readonly tenant: string;
  readonly seed: number;
  readonly jobs: number;
  /** Mean seconds between this tenant's arrivals, service clock. */
  readonly meanGap: number;
  /** Wall seconds per service second: a job is sent when the wall clock reaches its arrival. */
  readonly dilation: number;
  readonly mix: readonly LoadJob[];
  /** Load that rises and falls: the arrival rate is `high` times the mean in odd periods of `period` service seconds, `low` times in even ones. */
  readonly burst?: { readonly period: number; readonly high: number; readonly low: number };
}

export interface JobRecord {
  readonly tenant: string;
  readonly job: string;
  readonly arrival: number;
  readonly start: number;
  readonly finish: number;
  readonly turnaround: number;
  readonly devices: Record<string, number>;
  readonly mapping: string;
  /** Its pieces (or operators) on the machine's clock. */
  readonly work: readonly MachineWork[];
}

const config = JSON.parse(process.argv[2]!) as ClientConfig;
const inputs: Map<string, CsrMatrix> = await loadInputs(config.mix);
const client = await connect(config.address, { token: config.token, timeout: 60 });
for (const m of inputs.values()) await client.upload(m);
const rng = new Rng(config.seed);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

// The trace: exponential gaps (Poisson arrivals); every tenant asks for the same jobs (the mix
// repeated), in its own shuffled order, so equal shares are the fair outcome.
const jobs = Array.from({ length: config.jobs }, (_, i) => config.mix[i % config.mix.length]!);
for (let i = jobs.length - 1; i > 0; i--) {
  const j = Math.floor(rng.nextFloat() * (i + 1));
  [jobs[i], jobs[j]] = [jobs[j]!, jobs[i]!];
}
const trace: { arrival: number; job: LoadJob }[] = [];
let t = 0;
for (const job of jobs) {
  const b = config.burst;
  const factor = b ? (Math.floor(t / b.period) % 2 === 0 ? b.high : b.low) : 1;
  t += (-Math.log(1 - rng.nextFloat()) * config.meanGap) / factor;
  trace.push({ arrival: t, job });
}

// Ready; wait for the common start (epoch milliseconds) on stdin.
process.stdout.write('ready\n');
const epoch = await new Promise<number>((resolve) => process.stdin.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))));
const t0 = performance.now() + (epoch - Date.now());
const pending: Promise<JobRecord>[] = [];
for (const { arrival, job } of trace) {
  await sleep(t0 + arrival * config.dilation * 1000 - performance.now());
  const run = client.run(job.workload, inputs.get(job.input)!, {
    probe: false,
    ...(job.params ? { params: job.params } : {}),
    arrival,
    run: { replan: false, learn: false },
  });
  pending.push(
    run.then((r: ServedRunResult) => {
      const devices: Record<string, number> = {};
      for (const p of r.pieces) devices[p.device] = (devices[p.device] ?? 0) + p.observedSeconds;
      const m = r.machine!;
      return {
        tenant: config.tenant,
        job: `${job.workload}/${job.input}`,
        arrival,
        start: m.start,
        finish: m.finish,
        turnaround: m.turnaround,
        devices,
        mapping: r.mapping,
        work: m.work ?? [],
      };
    }),
  );
}
const records = await Promise.all(pending);
await client.close();
process.stdout.write(`${JSON.stringify(records)}\n`);
