// Issue 22's load bench: eight tenants, each a client process with Poisson arrivals of mixed jobs
// (GCN, GraphSAGE, BFS, multi-source BFS, SpMM on the shared datasets), replayed against three
// servers in the same run with the same traces: (a) exclusive first come first served (each job
// holds the whole machine), (b) a static partition (tenant i may use device i mod D only), and
// (c) the shared scheduler (one timeline per device, every job planned against the backlog).
//
// Times are on the service's composed clock (real CPU pieces as measured, simulated devices as
// simulated: modelled where simulators take part), since the simulators take far longer on the
// host than the devices they model would. Arrivals are declared on that clock; each client sends a
// job when the wall clock, dilated so the host keeps up, reaches its arrival. The offered load is
// set against the exclusive machine's capacity (mean makespan of the mix, each job alone).
// Run: npm run bench -- --suite service, or node --expose-gc --import tsx bench/service/load.ts [--quick] [--load 2] [--jobs 25] [--json FILE]

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCostModel } from '../../src/cost/store.js';
import { detectSystem } from '../../src/devices/system.js';
import { runPlan } from '../../src/executor/run.js';
import { schedule } from '../../src/scheduler/schedule.js';
import type { MachineWork, Sharing } from '../../src/service/machine-timeline.js';
import { startServer } from '../../src/service/server.js';
import { median, quantile } from '../../src/stats.js';
import { emitReport, fixed, machineInfo, type SuiteReport } from '../common/report.js';
import type { ClientConfig, JobRecord } from './load-client.js';
import { JOB_MIX, loadInputs } from './load-jobs.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    load: { type: 'string', default: '2' },
    jobs: { type: 'string' },
    tenants: { type: 'string', default: '8' },
    json: { type: 'string' },
    // Jobs open at once under operator turns (the server's slots).
    window: { type: 'string', default: '64' },
    // Only the rows of load that rises and falls (the elasticity comparison).
    'bursty-only': { type: 'boolean', default: false },
    // Only the saturated rows (the fairness comparison).
    'saturated-only': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
  strict: true,
});
const TENANTS = Number(args.tenants);
// A multiple of the mix's five jobs, so every tenant asks for the same work.
const JOBS = Number(args.jobs ?? (args.quick ? 10 : 25));
const LOAD = Number(args.load);
const WINDOW = Number(args.window);

const system = await detectSystem();
const model = await loadCostModel(system);
const devices = system.devices.map((d) => d.name);
const notes: string[] = [];
const inputs = await loadInputs(JOB_MIX, notes);

// Each job of the mix alone: its composed makespan (the exclusive machine's service time) and the
// host's wall time to plan and run it (what the dilation must leave room for).
const alone: number[] = [];
const wall: number[] = [];
for (const job of JOB_MIX) {
  const options = { system, model, probe: false, ...(job.params ? { params: job.params } : {}) } as const;
  // Medians of five after two warm-ups: one run's CPU pieces move with the machine's speed, and
  // the whole run's offered load (the arrival rate) is set from these.
  const makespans: number[] = [];
  const walls: number[] = [];
  for (let k = 0; k < 7; k++) {
    const t = performance.now();
    const plan = await schedule(job.workload, inputs.get(job.input)!, options);
    const r = await runPlan(plan, { replan: false, learn: false });
    if (k < 2) continue;
    makespans.push(r.composedMakespan);
    walls.push((performance.now() - t) / 1000);
  }
  alone.push(median(makespans));
  wall.push(median(walls));
}
const meanAlone = alone.reduce((s, x) => s + x, 0) / alone.length;
const meanWall = wall.reduce((s, x) => s + x, 0) / wall.length;
const rate = LOAD / meanAlone; // jobs per service second, all tenants together
const dilation = 1.5 * meanWall * rate; // wall seconds per service second: the host at about 2/3 busy

interface Outcome {
  readonly name: string;
  readonly records: JobRecord[];
  readonly wallSeconds: number;
}

/** Weights of the saturated run: 1 and 2 in turn, so weighted shares are tested, not only equal ones. */
const weightOf = (i: number, weighted: boolean): number => (weighted ? 1 + (i % 2) : 1);

interface Variant {
  readonly partition?: boolean;
  /** Every job arrives at 0, weights 1 and 2 in turn. */
  readonly saturated?: boolean;
  /** Load that rises and falls (alternating periods of 1.8x and 0.2x the mean rate). */
  readonly bursty?: boolean;
  /** Plan as if the machine were idle (the ablation of backlog-aware planning). */
  readonly blind?: boolean;
  /** Jobs take turns operator by operator (the interleaver), re-planning the rest at each turn when elastic. */
  readonly operator?: { readonly elastic: boolean };
  /** Tenant 0 at priority 5 (the others 0): preemption at operator boundaries is tested. */
  readonly priority?: boolean;
}

async function replay(name: string, sharing: Sharing, v: Variant = {}): Promise<Outcome> {
  const { partition = false, saturated = false } = v;
  const dir = mkdtempSync(join(tmpdir(), 'dype-bench-load-'));
  const tenants = Array.from({ length: TENANTS }, (_, i) => ({
    name: `t${i}`,
    token: `load-bench-token-of-tenant-${i}`,
    maxQueued: 100000,
    weight: weightOf(i, saturated),
    ...(v.priority && i === 0 ? { priority: 5 } : {}),
    ...(partition ? { devices: [devices[i % devices.length]!] } : {}),
  }));
  writeFileSync(join(dir, 'policy.json'), JSON.stringify({ tenants }));
  const server = await startServer({
    socket: join(dir, 'd.sock'),
    policy: join(dir, 'policy.json'),
    system,
    model,
    sharing,
    clock: 'declared',
    backlogPlanning: !v.blind,
    ...(v.operator ? { granularity: 'operator' as const, elastic: v.operator.elastic, slots: WINDOW } : {}),
    log: () => {},
  });
  const t0 = performance.now();
  try {
    const runs = tenants.map((t, i) => {
      const config: ClientConfig = {
        address: server.addresses[0]!,
        token: t.token,
        tenant: t.name,
        seed: 1000 + i,
        jobs: JOBS,
        // Saturated: everything arrives at once, so every tenant has work until the first is done.
        meanGap: saturated ? 0 : TENANTS / rate,
        dilation,
        mix: JOB_MIX,
        ...(v.bursty ? { burst: { period: 40 * meanAlone, high: 1.8, low: 0.2 } } : {}),
      };
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'load-client.ts'), JSON.stringify(config)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      let ready!: () => void;
      const isReady = new Promise<void>((r) => (ready = r));
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.startsWith('ready\n')) ready();
      });
      const done = new Promise<JobRecord[]>((resolve, reject) =>
        child.once('close', (code) =>
          code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length)) as JobRecord[]) : reject(new Error(`${name}: client ${t.name} exited ${code}`)),
        ),
      );
      return { child, isReady, done };
    });
    // Every client connected and uploaded: all start together, a moment from now.
    await Promise.all(runs.map((r) => r.isReady));
    const epoch = Date.now() + 100;
    for (const r of runs) r.child.stdin!.end(`${epoch}\n`);
    const records = (await Promise.all(runs.map((r) => r.done))).flat();
    return { name, records, wallSeconds: (performance.now() - t0) / 1000 };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Jain's index of x: 1 when all equal, 1/n when one takes all. */
const jain = (x: number[]): number => x.reduce((s, v) => s + v, 0) ** 2 / (x.length * x.reduce((s, v) => s + v * v, 0));

function summarise(o: Outcome) {
  const rs = o.records;
  const first = Math.min(...rs.map((r) => r.arrival));
  const span = Math.max(...rs.map((r) => r.finish)) - first;
  const turn = rs.map((r) => r.turnaround);
  // Shares while every tenant still had work: device seconds of the jobs each finished before the
  // first tenant's last job ended (equal weights, so the shares themselves are compared).
  const byTenant = new Map<string, JobRecord[]>();
  for (const r of rs) byTenant.set(r.tenant, [...(byTenant.get(r.tenant) ?? []), r]);
  const until = Math.min(...[...byTenant.values()].map((js) => Math.max(...js.map((r) => r.finish))));
  const weight = (tenant: string): number => weightOf(Number(tenant.slice(1)), o.name.includes('saturated'));
  /** How much of a piece (or operator) was done by the cut: all of it, none, or pro rata while it ran. */
  const doneByCut = (w: MachineWork): number => (w.finish <= until ? 1 : w.start < until ? (until - w.start) / (w.finish - w.start) : 0);
  const shares = [...byTenant.entries()].map(
    ([tenant, js]) => js.filter((r) => r.finish <= until).reduce((s, r) => s + Object.values(r.devices).reduce((a, b) => a + b, 0), 0) / weight(tenant),
  );
  // The same cut, counting the work each tenant had on the machine by then: every piece (or
  // operator) finished, and the one running at the cut pro rata, not only whole jobs (a job of
  // 0.4 ms left out or counted whole moved a tenant's share by a job's worth).
  const workShares = [...byTenant.entries()].map(([tenant, js]) => {
    let s = 0;
    for (const r of js) for (const w of r.work) s += w.seconds * doneByCut(w);
    return s / weight(tenant);
  });
  // The same cut in work each tenant asked for, the headline: every job counted at its makespan
  // alone on the idle machine (measured above, apart from any scheduler), the one running at the
  // cut pro rata by its pieces' seconds. Device seconds are not comparable across devices: a BFS
  // the backlog sent to the CPU takes several times the seconds it takes on the GPU, the same work.
  const aloneOf = new Map(JOB_MIX.map((j, i) => [`${j.workload}/${j.input}`, alone[i]!]));
  const asked = [...byTenant.entries()].map(([tenant, js]) => {
    let s = 0;
    for (const r of js) {
      let done = 0;
      let all = 0;
      for (const w of r.work) {
        all += w.seconds;
        done += w.seconds * doneByCut(w);
      }
      s += all > 0 ? (aloneOf.get(r.job)! * done) / all : r.finish <= until ? aloneOf.get(r.job)! : 0;
    }
    return s / weight(tenant);
  });
  // The same cut device by device, as dominant-resource fairness sees it: each tenant's share of
  // every device's seconds in flight, its largest share (the device it uses most of) over its
  // weight. Unequal devices then count each on its own: a CGRA second is not a GPU second.
  const byDevice = [...byTenant.values()].map((js) => {
    const on = new Map<string, number>();
    for (const r of js)
      for (const w of r.work) {
        const part = doneByCut(w);
        for (const [d, sec] of Object.entries(w.devices)) on.set(d, (on.get(d) ?? 0) + sec * part);
      }
    return on;
  });
  const deviceTotal = new Map<string, number>();
  for (const on of byDevice) for (const [d, sec] of on) deviceTotal.set(d, (deviceTotal.get(d) ?? 0) + sec);
  const dominantShares = [...byTenant.keys()].map((tenant, i) => {
    let top = 0;
    for (const [d, sec] of byDevice[i]!) top = Math.max(top, sec / deviceTotal.get(d)!);
    return top / weight(tenant);
  });
  return {
    name: o.name,
    jobs: rs.length,
    throughput: rs.length / span,
    p50: median(turn),
    p99: quantile(turn, 0.99),
    mean: turn.reduce((s, x) => s + x, 0) / turn.length,
    // Tenant t0's own mean turnaround (the high-priority tenant in the priority rows).
    t0Mean: (byTenant.get('t0') ?? []).reduce((s, r) => s + r.turnaround, 0) / Math.max(1, (byTenant.get('t0') ?? []).length),
    jain: jain(asked),
    jainSeconds: jain(workShares),
    jainDominant: jain(dominantShares),
    jainJobs: jain(shares),
    wallSeconds: o.wallSeconds,
  };
}

// Groups of rows compared with the group's first (the "vs" column); the same traces everywhere.
const mixed: (() => Promise<Outcome>)[] = [
  () => replay('exclusive FCFS', 'exclusive'),
  () => replay('static partition', 'shared', { partition: true }),
  () => replay('shared', 'shared'),
];
const saturatedRows: (() => Promise<Outcome>)[] = [
  () => replay('exclusive FCFS, saturated', 'exclusive', { saturated: true }),
  () => replay('shared, saturated', 'shared', { saturated: true }),
  () => replay('operator turns, elastic, saturated', 'shared', { saturated: true, operator: { elastic: true } }),
];
const bursty: (() => Promise<Outcome>)[][] = [
  [
    () => replay('shared, load rising and falling', 'shared', { bursty: true }),
    () => replay('shared, planned as if idle, load rising and falling', 'shared', { bursty: true, blind: true }),
  ],
  [
    () => replay('operator turns, elastic, load rising and falling', 'shared', { bursty: true, operator: { elastic: true } }),
    () => replay('operator turns, each plan as started, load rising and falling', 'shared', { bursty: true, operator: { elastic: false } }),
  ],
  [
    () =>
      replay('operator turns, elastic, tenant t0 at priority 5, load rising and falling', 'shared', {
        bursty: true,
        priority: true,
        operator: { elastic: true },
      }),
    () =>
      replay('operator turns, each plan as started, t0 at priority 5, load rising and falling', 'shared', {
        bursty: true,
        priority: true,
        operator: { elastic: false },
      }),
  ],
];
const groups: (() => Promise<Outcome>)[][] = args['bursty-only'] ? bursty : args['saturated-only'] ? [saturatedRows] : [mixed, saturatedRows, ...bursty];
const outcomes: Outcome[] = [];
const groupFirst: number[] = [];
for (const g of groups) {
  const first = outcomes.length;
  for (const run of g) {
    groupFirst.push(first);
    outcomes.push(await run());
  }
}
const rows = outcomes.map(summarise);
const us = (s: number): string => `${(s * 1e6).toFixed(0)}`;
const report: SuiteReport = {
  suite: 'service',
  title: `Service under load: ${TENANTS} tenants x ${JOBS} jobs, offered ${LOAD}x the exclusive machine's capacity`,
  date: new Date().toISOString(),
  machine: machineInfo(),
  settings: { tenants: TENANTS, jobs: JOBS, load: LOAD, window: WINDOW, system: system.name, devices, dilation, hostSecondsPerJob: meanWall },
  notes: [
    `Mix, each job alone (composed makespan): ${JOB_MIX.map((j, i) => `${j.workload}/${j.input} ${us(alone[i]!)} us`).join(', ')}.`,
    'Times are on the composed service clock: real CPU pieces as measured, simulated devices as simulated (modelled where simulators take part).',
    "Jain's index: over each tenant's work done / weight by the time the first tenant was done, each job counted at its makespan alone (above; pieces, or operators under operator turns, finished by then, and the one running pro rata by its seconds); 'by device seconds' over the seconds of the devices its work ran on (not comparable across devices: the same BFS takes several times the seconds on the CPU); 'by dominant share' over each tenant's largest share of any one device's seconds by then, over its weight (dominant-resource fairness: unequal devices each counted on its own); 'whole jobs' counts only the jobs finished by then, the measure before. Saturated runs: every job arrives at 0, weights 1 and 2 in turn.",
    "Load rising and falling: the arrival rate alternates between 1.8x and 0.2x the mean every 40 mean job times; 'planned as if idle' plans each job without the backlog (it still queues behind it): the ablation of backlog-aware planning.",
    'vs: each row against the first of its group (exclusive FCFS; exclusive FCFS saturated; shared with rising and falling load; operator turns, elastic; the same with priorities).',
    "Operator turns: up to `window` jobs open at once (settings), their operators taking turns on the machine's composed clock (earliest ready first), each job reserving its operators not started; 'elastic' re-plans a job's remaining operators at every turn against the queues and the reservations ahead of it, 'each plan as started' runs the plan it made at its start (the ablation of elasticity).",
    ...notes,
  ],
  tables: [
    {
      title: 'Throughput, turnaround and fairness (same traces in every row)',
      columns: [
        'sharing',
        'jobs',
        'throughput (jobs/s)',
        'vs exclusive',
        'turnaround p50 (us)',
        'p99 (us)',
        'mean (us)',
        't0 mean (us)',
        "Jain's index",
        'by device seconds',
        'by dominant share',
        'whole jobs',
        'wall (s)',
      ],
      rows: rows.map((r, i) => {
        const base = rows[groupFirst[i]!]!;
        return [
          r.name,
          String(r.jobs),
          fixed(r.throughput, 0),
          `${fixed(r.throughput / base.throughput)}x`,
          us(r.p50),
          us(r.p99),
          us(r.mean),
          us(r.t0Mean),
          fixed(r.jain, 3),
          fixed(r.jainSeconds, 3),
          fixed(r.jainDominant, 3),
          fixed(r.jainJobs, 3),
          fixed(r.wallSeconds, 1),
        ];
      }),
    },
  ],
  data: { alone, rows, records: outcomes },
};
emitReport(report, args.json, args.quiet);
await system.dispose();
