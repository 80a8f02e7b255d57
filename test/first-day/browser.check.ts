// The HTML pages dype writes, opened in headless Chromium (Debian's `chromium`; .ci/run installs
// it): explore's front, explore's page when no plan meets the constraints, run's timeline and
// inspect's degree distribution. Each must draw its chart with no console error or warning (Vega
// logged 17 warnings on the front's page), hold the printed report, and its screenshot must show
// the chart drawn: enough ink and colours, and the same marks' colours as the PNG dype renders
// without a browser for the same command.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { findChromium, visit } from '../support/chromium.js';
import { type DecodedPng, decodePng, inkStats } from '../support/png.js';
import { spawnCli } from '../support/spawn-cli.js';
import { tempFolder } from '../support/temp.js';

const chromium = findChromium();
let work = '';
let cache = '';

beforeAll(() => {
  work = tempFolder('dype-browser-');
  cache = tempFolder('dype-browser-cache-');
});

/** Pixels within a small distance of `hex`. */
function count(png: DecodedPng, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let n = 0;
  for (let i = 0; i < png.rgba.length; i += 4) {
    if (Math.abs(png.rgba[i]! - r) + Math.abs(png.rgba[i + 1]! - g) + Math.abs(png.rgba[i + 2]! - b) < 30) n++;
  }
  return n;
}

const PAGES = [
  { name: 'explore front', args: ['explore', '--generate', 'kron12'], colours: ['#1f6fb4', '#d62728', '#e08a00'], report: 'Why this plan:' },
  {
    name: 'explore, no plan meets the deadline',
    args: ['explore', '--generate', 'kron12', '--deadline', '1us'],
    colours: ['#1f6fb4', '#d62728'],
    report: 'To find plans, relax:',
  },
  { name: 'run timeline', args: ['run', 'bfs', '--generate', 'tendril', '--no-trace'], colours: ['#4c78a8'], report: undefined },
  { name: 'inspect degrees', args: ['inspect', '--generate', 'kron12'], colours: [], report: undefined },
] as const;

describe.skipIf(!chromium)('the HTML pages in headless Chromium', () => {
  for (const page of PAGES) {
    it(`${page.name}: drawn, no console warnings, like the PNG`, async () => {
      const stem = page.name.replace(/\W+/g, '-');
      const html = join(work, `${stem}.html`);
      const png = join(work, `${stem}.png`);
      for (const out of [html, png]) {
        const r = await spawnCli([...page.args, '--out', out], { cwd: work, env: { DYPE_CACHE_DIR: cache } });
        expect(r.code, r.err).toBe(0);
      }
      const v = await visit(chromium!, pathToFileURL(html).href, {
        readyWhen: "document.querySelector('#chart svg') && document.querySelector('#chart svg').getBoundingClientRect().width > 100",
        selector: '#chart',
      });
      expect(v.ready, v.messages.join('\n')).toBe(true);
      expect(v.problems).toEqual([]);
      if (page.report) expect(readFileSync(html, 'utf8')).toContain(page.report);

      const shot = decodePng(v.screenshot);
      const reference = decodePng(readFileSync(png));
      expect(shot.width).toBeGreaterThan(500);
      const a = inkStats(shot);
      const b = inkStats(reference);
      expect(a.ink).toBeGreaterThan(0.02);
      expect(a.colours).toBeGreaterThan(20);
      // The same chart: ink within a factor of two of the headless render's, and each series'
      // colour present in both.
      expect(a.ink / b.ink).toBeGreaterThan(0.5);
      expect(a.ink / b.ink).toBeLessThan(2);
      for (const c of page.colours) {
        expect(count(shot, c), `${c} in the screenshot`).toBeGreaterThan(20);
        expect(count(reference, c), `${c} in the PNG`).toBeGreaterThan(20);
      }
    });
  }
});
