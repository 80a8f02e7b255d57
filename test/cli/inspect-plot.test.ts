// `dype inspect --out` draws the degree distribution: a PNG of the asked size with points and
// the fitted power-law tail for a power-law graph; the path is in --json; flags are checked.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { decodePng, inkStats } from '../support/png.js';

describe('dype inspect --out', () => {
  it('writes a degree-distribution PNG of the asked size, with the power-law fit', async () => {
    const dir = tempFolder('dype-inspect-plot-');
    const png = join(dir, 'degrees.png');
    const r = await runCli(['inspect', '--generate', 'kronecker:scale=12', '--out', png, '--size', '640x400', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { plot: string; matrix: { powerLaw: { state: string } } };
    expect(o.plot).toBe(png);
    expect(o.matrix.powerLaw.state).toBe('fitted');
    const image = decodePng(readFileSync(png));
    expect([image.width, image.height]).toEqual([640, 400]);
    const ink = inkStats(image);
    expect(ink.ink).toBeGreaterThan(0.02);
    expect(ink.colours).toBeGreaterThan(20);
  });

  it('draws an SVG with the fit named in the legend', async () => {
    const dir = tempFolder('dype-inspect-plot-');
    const svg = join(dir, 'degrees.svg');
    const r = await runCli(['inspect', '--generate', 'kronecker:scale=12', '--out', svg]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Chart: .*degrees\.svg \(rows per row length, log-log/m);
    const text = readFileSync(svg, 'utf8');
    expect(text).toMatch(/power-law fit, alpha \d\.\d\d above \d+/);
    expect(text).toContain('row length (out-degree)');
  });

  it('checks --out and --size before reading the input', async () => {
    let r = await runCli(['inspect', '/no/such.mtx', '--out', 'x.gif']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--out must end in \.png, \.svg or \.html, got "x\.gif"/);
    r = await runCli(['inspect', '--generate', 'kron16', '--size', '800x600']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--size needs --out/);
    r = await runCli(['inspect', '--generate', 'grid:rows=5,cols=5', '--out', '/no/such/folder/d.png']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/folder "\/no\/such\/folder" does not exist/);
  });
});
