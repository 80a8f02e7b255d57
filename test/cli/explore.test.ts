// `dype explore` prints the Pareto front with the baselines and the chosen plan, labelled as
// predictions; --json gives front, chosen and baselines; --measure adds executed figures; bad
// flags, workloads and constraints are refused with one line and the right exit code.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

const saved = process.env['DYPE_CACHE_DIR'];
let dir = '';
beforeAll(() => {
  dir = tempFolder('dype-explore-');
  process.env['DYPE_CACHE_DIR'] = join(dir, 'cache'); // uncalibrated: the same predictions everywhere
});
afterAll(() => {
  if (saved === undefined) delete process.env['DYPE_CACHE_DIR'];
  else process.env['DYPE_CACHE_DIR'] = saved;
});

const SMALL = ['--generate', 'kronecker:scale=10,seed=3'];

interface PointJson {
  time: number;
  energy: number;
  mapping: string;
  short: string;
  measured?: { time: number; energy: number } | null;
}

describe('dype explore', () => {
  it('prints the front, the baselines and the chosen plan, all labelled as predicted', async () => {
    const r = await runCli(['explore', ...SMALL, '--no-plot']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^gcn on kronecker:scale=10,seed=3: 1,024 x 1,024/);
    expect(r.out).toMatch(/^System detected: cpu \(measured\), .*\(.*simulated\)/m);
    expect(r.out).toMatch(/time \(predicted\)\s+energy \(predicted\)\s+mapping/);
    // The chosen plan is a row of the front, or its own row when probing its split moved it off the sampled front.
    expect(r.out).toMatch(/^(#\d+|chosen)\s+[\d.]+ (us|ms)\s+[\d.]+ (uJ|mJ|J)\s+\S.*<- chosen \(min-time\)/m);
    for (const b of ['cpu alone', 'heft']) expect(r.out).toMatch(new RegExp(`^${b}\\s+[\\d.]+ (us|ms|s)\\s+[\\d.]+ (uJ|mJ|J)\\s+.*baseline`, 'm'));
    expect(r.out).toMatch(/Every time and energy above is predicted by the cost model \(modelled\)/);
    expect(r.out).toMatch(/^Why this plan:/m);
    expect(r.out).not.toMatch(/^Chart:/m);
    expect(r.files).toEqual([]);
  });

  it('--json gives front, chosen and baselines, and writes no chart unless asked', async () => {
    const r = await runCli(['explore', 'spmm', ...SMALL, '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as {
      command: string;
      workload: string;
      modelled: boolean;
      plot: null;
      units: { time: string; energy: string };
      front: (PointJson & { rank: number; chosen: boolean })[];
      chosen: PointJson & { rank: number | null; explanation: string[] };
      baselines: (Partial<PointJson> & { name: string; feasible: boolean; sameAsFront: number | null })[];
      search: { evaluated: number };
      input: { rows: number };
      system: { devices: { name: string; simulated: boolean }[] };
    };
    expect(o).toMatchObject({ command: 'explore', workload: 'spmm', modelled: true, plot: null, units: { time: 's', energy: 'J' } });
    expect(o.input.rows).toBe(1024);
    expect(o.front.length).toBeGreaterThan(0);
    expect(o.front.every((p) => p.time > 0 && p.energy > 0 && typeof p.mapping === 'string' && typeof p.short === 'string')).toBe(true);
    expect(o.front.filter((p) => p.chosen).length).toBeLessThanOrEqual(1);
    if (o.chosen.rank !== null) expect(o.front[o.chosen.rank - 1]!.mapping).toBe(o.chosen.mapping);
    expect(o.chosen.explanation.length).toBeGreaterThan(0);
    expect(o.baselines.map((b) => b.name)).toEqual(expect.arrayContaining(['cpu alone', 'heft']));
    expect(o.baselines.every((b) => !b.feasible || (b.time! > 0 && b.energy! > 0))).toBe(true);
    expect(o.system.devices.find((d) => d.name === 'cpu')?.simulated).toBe(false);
    expect(r.files).toEqual([]); // nothing in its working folder, whatever is in the user's
  });

  it('--measure executes the front and the baselines beside the predictions', async () => {
    const r = await runCli(['explore', 'spmm', '--generate', 'grid:rows=30,cols=30', '--measure', '--repeats', '1', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as {
      front: PointJson[];
      baselines: (PointJson & { feasible: boolean })[];
      measured: { repeats: number; pieces: Record<string, number>; note: string };
    };
    expect(o.front.every((p) => p.measured && p.measured.time > 0 && p.measured.energy > 0)).toBe(true);
    expect(o.baselines.filter((b) => b.feasible).every((b) => b.measured && b.measured.time > 0)).toBe(true);
    expect(o.measured.repeats).toBe(1);
    expect(o.measured.pieces['measured']).toBeGreaterThan(0); // the CPU's pieces are timed
    expect(o.measured.note).toMatch(/cpu measured/);
  });

  it('--measure prints executed columns and draws them', async () => {
    const svg = join(dir, 'measured.svg');
    const r = await runCli(['explore', 'bfs', '--generate', 'grid:rows=30,cols=30', '--measure', '--repeats', '1', '--out', svg]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/time \(executed\)\s+energy \(executed\)/);
    expect(r.out).toMatch(/Executed, \d+ distinct pieces executed: cpu measured; .* simulated/);
    const text = readFileSync(svg, 'utf8');
    expect(text).toMatch(/^<svg/);
    expect(text).toContain('executed');
  });

  it('honours --objective, --deadline and --exclude', async () => {
    const r = await runCli(['explore', ...SMALL, '--objective', 'energy', '--exclude', 'cpu', '--deadline', '1s', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { policy: string; constraints: { deadline: number }; baselines: { name: string }[]; front: { mapping: string }[] };
    expect(o.policy).toBe('min-energy');
    expect(o.constraints.deadline).toBe(1);
    expect(o.baselines.map((b) => b.name)).not.toContain('cpu alone');
    expect(o.front.every((p) => !/\bcpu\b/.test(p.mapping))).toBe(true);
  });

  it("points to --pattern when the input's values do not suit the workload", async () => {
    // A small stiffness-like matrix: negative off-diagonal weights, so GCN's row sums go negative.
    const file = join(dir, 'stiff.mtx');
    writeFileSync(file, '%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 1 -4\n3 2 -4\n');
    const r = await runCli(['explore', '--data', file, '--no-plot']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^dype: gcnNormalise: .*needs positive row sums \(the input's values are used as edge weights; --pattern uses its sparsity pattern alone\)\n$/,
    );
    const p = await runCli(['explore', '--data', file, '--pattern', '--json']);
    expect(p.code).toBe(0);
    expect((JSON.parse(p.out) as { input: { label: string } }).input.label).toBe('stiff.mtx (pattern)');
  });

  it('refuses bad flags and values with exit 2 and a suggestion', async () => {
    const cases: [string[], RegExp][] = [
      [['explore', '--mesure'], /unknown option --mesure \(did you mean --measure\?\)/],
      [['explore', 'gnc'], /no shipped workload "gnc" \(did you mean "gcn"\?\)/],
      [['explore', '--objective', 'energie'], /--objective must be one of time, energy, edp, got "energie" \(did you mean energy\?\)/],
      [['explore', '--out', 'front.jpg'], /--out must end in \.png, \.svg or \.html, got "front\.jpg"/],
      [['explore', '--deadline', '2m'], /--deadline must be a positive number of seconds/],
      [['explore', '--param', 'hidden'], /--param must be NAME=NUMBER/],
      [['explore', '--size', '10x10'], /--size must be WIDTHxHEIGHT/],
      [['explore', '--out', 'a.png', '--no-plot'], /give --out or --no-plot, not both/],
      [['explore', 'gcn', 'sage'], /expected at most one WORKLOAD/],
      [['explore', '--repeats', '3'], /--repeats needs --measure/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
  });

  it('--help shows usage and examples', async () => {
    const r = await runCli(['explore', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: dype explore \[WORKLOAD\]/);
    expect(r.out).toMatch(/Examples:\n\s+dype explore\n/);
  });
});
