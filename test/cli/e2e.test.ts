// End to end, as a user runs it: the built `dype` (dist/cli/main.js) in a child process, in an
// empty folder of its own. Exit codes, the --json shapes, charts that decode to the right size
// with something drawn, nothing written besides what was asked for, errors as one line, and
// progress as plain lines when stderr is not a terminal.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../support/temp.js';
import { haveDatasets, sharedDatasets } from '../support/datasets.js';
import { decodePng, inkStats } from '../support/png.js';
import { type CliRun, spawnCli } from '../support/spawn-cli.js';

let cache = '';
const outputs: CliRun[] = [];

beforeAll(() => {
  cache = join(tempFolder('dype-e2e-cache-'), 'dype');
});

/** A fresh empty working folder. */
const folder = (): string => tempFolder('dype-e2e-');

async function dype(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  const r = await spawnCli(args, { cwd, env: { DYPE_CACHE_DIR: cache, ...env } });
  outputs.push(r);
  return r;
}

function checkPng(path: string, width: number, height: number): void {
  const image = decodePng(readFileSync(path));
  expect([image.width, image.height]).toEqual([width, height]);
  const { ink, colours } = inkStats(image);
  expect(ink).toBeGreaterThan(0.02); // axes, points, text: not a blank page
  expect(colours).toBeGreaterThan(20);
}

describe('dype, built and run as a user would', () => {
  it('explore with no output flags prints the front and writes dype-front.png, and nothing else', async () => {
    const cwd = folder();
    const r = await dype(['explore', '--generate', 'kronecker:scale=11,seed=1'], cwd);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/time \(predicted\)\s+energy \(predicted\)\s+mapping/);
    expect(r.out).toMatch(/<- chosen \(min-time\)/);
    expect(r.out).toMatch(/^Chart: dype-front\.png/m);
    expect(readdirSync(cwd)).toEqual(['dype-front.png']);
    checkPng(join(cwd, 'dype-front.png'), 960, 600);
  });

  it('explore --json prints one object and --out writes a self-contained HTML page', async () => {
    const cwd = folder();
    const r = await dype(['explore', 'pagerank', '--generate', 'grid:rows=40,cols=40', '--json', '--out', 'front.html'], cwd);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { front: unknown[]; chosen: { mapping: string }; baselines: { name: string }[]; plot: string };
    expect(o.front.length).toBeGreaterThan(0);
    expect(typeof o.chosen.mapping).toBe('string');
    expect(o.baselines.map((b) => b.name)).toContain('heft');
    expect(o.plot).toBe('front.html');
    expect(readdirSync(cwd)).toEqual(['front.html']);
    const html = readFileSync(join(cwd, 'front.html'), 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<script[^>]+src=/i); // every script inline: works offline
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).toContain('vegaEmbed(');
    // The page holds what the command printed too: the front's table and why the plan was chosen.
    expect(html).toMatch(/<pre id="report">[\s\S]*time \(predicted\)[\s\S]*Why this plan:/);
    // Every inline script parses (nothing in the inlined bundles closed a <script> early).
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(4);
    for (const code of scripts) expect(() => new Script(code)).not.toThrow();
    expect(statSync(join(cwd, 'front.html')).size).toBeGreaterThan(500_000); // Vega, Vega-Lite, vega-embed
  });

  it('explore --size sets the PNG size exactly', async () => {
    const cwd = folder();
    const r = await dype(['explore', 'bfs', '--generate', 'road', '--out', 'bfs.png', '--size', '800x500'], cwd);
    expect(r.code).toBe(0);
    checkPng(join(cwd, 'bfs.png'), 800, 500);
  });

  it('run writes the trace and the timeline chart', async () => {
    const cwd = folder();
    const r = await dype(['run', 'sage', '--generate', 'kronecker:scale=10'], cwd);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/predicted \(modelled\)\s+observed\s+source/);
    expect(readdirSync(cwd).sort()).toEqual(['dype-run.png', 'dype-run.trace.json']);
    checkPng(join(cwd, 'dype-run.png'), 960, 600);
    const trace = JSON.parse(readFileSync(join(cwd, 'dype-run.trace.json'), 'utf8')) as { traceEvents: unknown[] };
    expect(trace.traceEvents.length).toBeGreaterThan(5);
  });

  it('inspect FILE draws the degree distribution; system and calibrate --show answer in JSON', async () => {
    const cwd = folder();
    writeFileSync(
      join(cwd, 'star.mtx'),
      `%%MatrixMarket matrix coordinate pattern symmetric\n9 9 8\n${[2, 3, 4, 5, 6, 7, 8, 9].map((i) => `${i} 1`).join('\n')}\n`,
    );
    const r = await dype(['inspect', 'star.mtx', '--out', 'degrees.png', '--json'], cwd);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { plot: string; matrix: { nnz: number } }).matrix.nnz).toBe(16);
    checkPng(join(cwd, 'degrees.png'), 960, 600);
    const s = await dype(['system', '--json'], cwd);
    expect(s.code).toBe(0);
    expect((JSON.parse(s.out) as { devices: { simulated: boolean }[] }).devices.some((d) => d.simulated)).toBe(true);
    const c = await dype(['calibrate', '--show', '--json'], cwd);
    expect(c.code).toBe(0);
    expect((JSON.parse(c.out) as { state: string }).state).toBe('missing');
  });

  it('calibrate shows progress as plain lines when stderr is not a terminal', async () => {
    const cwd = folder();
    writeFileSync(
      join(cwd, 'gpu.json'),
      JSON.stringify({ name: 'gpu-only', devices: [{ name: 'gpu', backend: 'gpu-sim' }], links: [{ between: ['host', 'gpu'], profile: 'pcie-gen4-x16' }] }),
    );
    const r = await dype(['calibrate', '--quick', '--system', 'gpu.json'], cwd);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Calibrated gpu in [\d.]+ s \(quick\)/);
    const lines = r.err.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.length).toBeLessThanOrEqual(11); // at most one per tenth of the work
    expect(lines.every((l) => /^calibrate: \d+\/\d+ \(\d+%\) /.test(l))).toBe(true);
    expect(r.err).not.toContain('\r');
    expect(readdirSync(cwd)).toEqual(['gpu.json']); // the calibration went to the cache folder
  }, 60_000);

  it('errors are one line on stderr with exit 1 (failure) or 2 (usage); --verbose adds the stack', async () => {
    const cwd = folder();
    writeFileSync(join(cwd, 'bad.mtx'), '%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 1\n4 1\n');
    const missing = await dype(['explore', '--data', 'nothere.mtx'], cwd);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^dype: loadMatrixMarket: cannot access "nothere\.mtx"/);
    expect(missing.err.trim().split('\n')).toHaveLength(1);
    const malformed = await dype(['run', '--data', 'bad.mtx'], cwd);
    expect(malformed.code).toBe(1);
    expect(malformed.err).toMatch(/^dype: loadMatrixMarket: bad\.mtx:4: row index 4 is outside \[1, 3\]/);
    expect(malformed.err.trim().split('\n')).toHaveLength(1);
    const flag = await dype(['explore', '--objectve', 'energy'], cwd);
    expect(flag.code).toBe(2);
    expect(flag.err).toBe('dype: explore: unknown option --objectve (did you mean --objective?); see dype explore --help\n');
    const verbose = await dype(['inspect', 'bad.mtx', '--verbose'], cwd);
    expect(verbose.code).toBe(1);
    expect(verbose.err).toMatch(/\n\s+at /); // the stack
    expect(readdirSync(cwd)).toEqual(['bad.mtx']);
  });

  it('every command has --help with examples, and the top-level help lists them', async () => {
    const cwd = folder();
    const top = await dype(['--help'], cwd);
    for (const c of ['explore', 'run', 'inspect', 'calibrate', 'system', 'kernels']) {
      expect(top.out).toMatch(new RegExp(`^  ${c}\\s`, 'm'));
      const h = await dype([c, '--help'], cwd);
      expect(h.code, c).toBe(0);
      expect(h.out, c).toMatch(new RegExp(`^Usage: dype ${c}`));
      expect(h.out, c).toMatch(/\nExamples:\n {2}dype /);
    }
  });

  it.skipIf(!haveDatasets)('explore and run work on a shared dataset', async () => {
    const cwd = folder();
    const cora = join(sharedDatasets, 'cora.mtx');
    const e = await dype(['explore', 'gcn', '--data', cora, '--json'], cwd);
    expect(e.code).toBe(0);
    expect((JSON.parse(e.out) as { input: { label: string } }).input.label).toBe('cora.mtx');
    const r = await dype(['run', 'msbfs', '--data', cora, '--param', 'sources=8', '--json', '--no-replan'], cwd);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { pieces: unknown[] }).pieces.length).toBeGreaterThan(0);
  });

  it('never prints colour or cursor codes (NO_COLOR holds, and so does a pipe)', () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const r of outputs) expect(`${r.out}${r.err}`).not.toContain('\x1b');
  });
});
