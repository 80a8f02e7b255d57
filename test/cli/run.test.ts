// `dype run` plans and executes a workload, prints each operator's pieces with predicted and
// observed time and their source, writes a Chrome trace and a timeline chart with re-plans
// marked, and gives one JSON object with --json.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCalibration } from '../../src/cost/store.js';
import { detectSystem } from '../../src/devices/system.js';
import { runCli } from '../support/cli.js';
import { confidentPayload } from '../support/confident-calibration.js';
import { tempFolder } from '../support/temp.js';

const saved = process.env['DYPE_CACHE_DIR'];
let dir = '';
beforeAll(() => {
  dir = tempFolder('dype-run-');
  process.env['DYPE_CACHE_DIR'] = join(dir, 'cache'); // uncalibrated: the same predictions everywhere
});
afterAll(() => {
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
});

interface RunJson {
  command: string;
  plan: { mapping: string; predicted: { makespan: number; energy: number } };
  observed: { makespan: number; energy: number; measuredShare: number };
  pieces: { op: string; device: string; predictedSeconds: number; observedSeconds: number; source: string; start: number; finish: number }[];
  replans: { after: string; reason: string; from: string; to: string }[];
  trace: string | null;
  plot: string | null;
}

describe('dype run', () => {
  it('prints every operator with predicted and observed time and the source', async () => {
    const r = await runCli(['run', 'sage', '--generate', 'kronecker:scale=10,seed=3', '--no-plot', '--no-trace']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Plan \(min-time\): .*; predicted [\d.]+ \w+, [\d.]+ \w+$/m);
    expect(r.out).toMatch(/operator\s+kind\s+device\s+units\s+predicted \(modelled\)\s+observed\s+source\s+start\s+finish/);
    for (const op of ['self', 'neigh', 'nproj', 'sum', 'h']) expect(r.out).toMatch(new RegExp(`^${op}\\s+\\w+\\s+\\w+\\s+\\[0, `, 'm'));
    expect(r.out).toMatch(/\s(measured|simulated|modelled \(roofline\))\s/);
    expect(r.out).toMatch(/^Makespan [\d.]+ \w+ (measured on the host clock|composed from the pieces' observed costs) .*against [\d.]+ \w+ predicted/m);
    expect(r.out).toMatch(/^Re-plans: /m);
  });

  it('--json gives pieces, the observed and predicted makespan, and the re-plans; writes the trace and chart asked for', async () => {
    const trace = join(dir, 'run.trace.json');
    const svg = join(dir, 'run.svg');
    // Simulated devices only, so the run (and its re-plan) is the same on every machine.
    // --no-probe: the model alone plans, so its error shows in the run and makes it re-plan.
    const r = await runCli(['run', '--generate', 'kronecker:scale=11,seed=1', '--exclude', 'cpu', '--no-probe', '--json', '--trace', trace, '--out', svg]);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as RunJson;
    expect(o.command).toBe('run');
    expect(o.trace).toBe(trace);
    expect(o.plot).toBe(svg);
    expect(o.pieces.length).toBeGreaterThanOrEqual(5);
    expect(o.pieces.every((p) => p.device !== 'cpu' && p.observedSeconds > 0 && p.predictedSeconds > 0 && p.finish >= p.start)).toBe(true);
    expect(o.pieces.map((p) => p.source)).toEqual(expect.arrayContaining(['simulated', 'roofline']));
    expect(o.observed.makespan).toBeGreaterThan(0);
    expect(o.observed.measuredShare).toBe(0);
    expect(o.plan.predicted.makespan).toBeGreaterThan(0);
    // The uncalibrated model overestimates the simulated GPU's SpMM: the run re-plans.
    expect(o.replans.length).toBeGreaterThan(0);
    // Its progress still ends at all of the pieces run (it stopped at 5/6 after the re-plan).
    const progress = r.err
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('run: '));
    expect(progress[progress.length - 1]).toMatch(/^run: (\d+)\/\1 \(100%\) /);
    const events = (JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: { ph: string; name: string }[] }).traceEvents;
    expect(events.filter((e) => e.ph === 'X').length).toBeGreaterThanOrEqual(o.pieces.length);
    expect(events.some((e) => e.name === 're-plan')).toBe(true);
    const chart = readFileSync(svg, 'utf8');
    expect(chart).toMatch(/^<svg/);
    expect(chart).toContain('re-plan 1');
    expect(chart).toContain('predicted (modelled)');
  });

  it('--no-replan runs the plan as made', async () => {
    const r = await runCli(['run', '--generate', 'kronecker:scale=11,seed=1', '--exclude', 'cpu', '--no-replan', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as RunJson;
    expect(o.replans).toEqual([]);
    expect(o.trace).toBeNull();
    expect(o.plot).toBeNull();
  });

  it('shows a BFS re-decided level by level, step by step; --no-bfs-levels runs it in one call', async () => {
    // Stepping needs a predicted gain beyond the model's uncertainty: a calibration stating +-20%
    // (an uncalibrated model, +-100%, would run this search in one call).
    const saved = process.env['DYPE_CACHE_DIR'];
    process.env['DYPE_CACHE_DIR'] = join(dir, 'confident');
    await saveCalibration(confidentPayload(await detectSystem()));
    try {
      await steps();
    } finally {
      process.env['DYPE_CACHE_DIR'] = saved;
    }
  });

  async function steps(): Promise<void> {
    const argv = ['run', 'bfs', '--generate', 'kronecker:scale=14,tail=1500', '--no-trace', '--no-plot'];
    const r = await runCli(argv);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/depth \(bfs\) re-decided level by level from the actual frontier, \d+ steps:/);
    expect(r.out).toMatch(/levels 0\.\.\d+ on \w+: /);
    const j = await runCli([...argv, '--json']);
    const piece = (JSON.parse(j.out) as RunJson).pieces[0] as { steps?: { device: string; levels: number }[] };
    expect(new Set(piece.steps!.map((s) => s.device)).size).toBeGreaterThan(1);
    const off = await runCli([...argv, '--no-bfs-levels', '--json']);
    expect((JSON.parse(off.out) as RunJson).pieces[0]).not.toHaveProperty('steps');
  }

  it('refuses bad flags with exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['run', '--no-replann'], /unknown option --no-replann \(did you mean --no-replan\?\)/],
      [['run', '--trace', 'run.txt'], /--trace must end in \.json/],
      [['run', '--replan-threshold', '0'], /--replan-threshold must be a number > 0/],
      [['run', '--replan-threshold', '0.5', '--no-replan'], /not both/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(message);
    }
  });

  it('--help shows usage and examples', async () => {
    const r = await runCli(['run', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: dype run \[WORKLOAD\]/);
    expect(r.out).toMatch(/Examples:\n\s+dype run\n/);
  });
});
