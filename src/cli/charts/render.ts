// Charts without a browser: a Vega-Lite spec compiled to Vega, drawn to SVG by Vega's headless
// renderer, rasterised to PNG by resvg, or wrapped in an HTML page that carries Vega, Vega-Lite
// and vega-embed inline so it works offline. The libraries load on first use only, so commands
// that draw nothing do not pay for them.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TopLevelSpec } from 'vega-lite';
import { IoError } from '../../errors.js';
import { UsageError } from '../usage-error.js';
import { textWidth, useFontMetrics } from './text-width.js';

export type ChartFormat = 'png' | 'svg' | 'html';

const FORMATS: Record<string, ChartFormat> = { '.png': 'png', '.svg': 'svg', '.html': 'html', '.htm': 'html' };

/** Fonts tried in order; DejaVu Sans is what resvg finds on most Linux machines. */
export const CHART_FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';

/**
 * What every dype chart shares: its size, white background, title block and fonts. Each chart
 * spreads this into its spec and adds its encodings and layers.
 */
export function chartFrame(
  input: { readonly title: string; readonly width: number; readonly height: number },
  subtitle: readonly string[],
  legend: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  // Lines wider than the chart are wrapped at spaces: Vega would cut them at the chart's edge.
  const room = input.width - 2 * 12;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: input.width,
    height: input.height,
    autosize: { type: 'fit', contains: 'padding' },
    padding: 12,
    background: 'white',
    title: {
      text: wrapText(input.title, room, 16, true),
      subtitle: subtitle.flatMap((line) => wrapText(line, room, 12)),
      anchor: 'start',
      fontSize: 16,
      subtitleFontSize: 12,
      subtitleColor: '#444',
    },
    config: { font: CHART_FONT, axis: { labelFontSize: 11, titleFontSize: 12 }, legend: { labelFontSize: 12, ...legend } },
  };
}

/** `text` broken at spaces into lines no wider than `width` pixels in DejaVu Sans at `size`. */
export function wrapText(text: string, width: number, size: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(next, size, bold) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** The spec without its interactive parameters (zoom and pan), which a static picture cannot use. */
function staticSpec(spec: TopLevelSpec): TopLevelSpec {
  const layers = (spec as { layer?: Record<string, unknown>[] }).layer;
  if (!layers) return spec;
  return { ...spec, layer: layers.map(({ params: _, ...rest }) => rest) } as unknown as TopLevelSpec;
}

/**
 * The format a chart path asks for, checked before any work is done: a usage error for an
 * unknown extension, a failure when the folder does not exist.
 */
export function chartFormat(command: string, flag: string, path: string): ChartFormat {
  const format = FORMATS[extname(path).toLowerCase()];
  if (!format) throw new UsageError(`${command}: --${flag} must end in .png, .svg or .html, got ${JSON.stringify(path)}`);
  checkFolder(command, path);
  return format;
}

/** Fail before any work when the folder an output goes to does not exist. */
export function checkFolder(command: string, path: string): void {
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new IoError(command, path, new Error(`folder ${JSON.stringify(dirname(path))} does not exist`));
  }
}

/** The chart as an SVG document (Vega's headless renderer: no browser, no canvas). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  // Not in vega's type declarations, but exported: how the headless renderer measures text.
  useFontMetrics((vega as unknown as { textMetrics: { width: unknown } }).textMetrics);
  // Vega's and Vega-Lite's warnings would go to the console, in the middle of the command's output.
  const compiled = vl.compile(staticSpec(spec), { logger: vega.logger(vega.None) }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.None });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The chart as a PNG of exactly the spec's width x height pixels (times `scale`). */
export async function renderPng(spec: TopLevelSpec, scale = 1): Promise<Buffer> {
  const svg = await renderSvg(spec);
  const { Resvg } = await import('@resvg/resvg-js');
  const image = new Resvg(svg, {
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
    fitTo: scale === 1 ? { mode: 'original' } : { mode: 'zoom', value: scale },
    background: 'white',
    logLevel: 'off',
  }).render();
  return image.asPng();
}

/** The browser bundle a package ships (its `unpkg` field), read from the installed package. */
function bundle(pkg: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(pkg)));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; unpkg?: string; jsdelivr?: string };
      if (json.name === pkg) {
        const file = json.unpkg ?? json.jsdelivr;
        if (!file) throw new Error(`charts: ${pkg} names no browser bundle`);
        return readFileSync(join(dir, file), 'utf8');
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`charts: cannot find the installed ${pkg} package`);
    dir = up;
  }
}

/** Text that may sit inside a <script> element without closing it. */
const scriptSafe = (text: string): string => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * A self-contained interactive page: Vega, Vega-Lite and vega-embed inline (no network), with
 * tooltips, zoom and pan where the spec binds them, and export to SVG or PNG from its menu;
 * below the chart, `report` (what the command printed: the tables and the explanation).
 */
export function renderHtml(spec: TopLevelSpec, title: string, report?: string): string {
  const scripts = ['vega', 'vega-lite', 'vega-embed'].map((p) => `<script>${scriptSafe(bundle(p))}</script>`).join('\n');
  const options = { actions: { export: true, source: true, compiled: false, editor: false }, renderer: 'svg' };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>body { font-family: ${CHART_FONT}; margin: 16px; } #chart { display: inline-block; } pre { font-size: 13px; line-height: 1.35; }</style>
</head>
<body>
<div id="chart"></div>
${report !== undefined ? `<h2>What dype printed</h2>\n<pre id="report">${escapeHtml(report)}</pre>\n` : ''}${scripts}
<script>
vegaEmbed('#chart', ${scriptSafe(JSON.stringify(spec))}, ${JSON.stringify(options)}).catch(function (e) {
  document.getElementById('chart').textContent = 'dype: the chart could not be drawn: ' + e.message;
});
</script>
</body>
</html>
`;
}

/**
 * Draw a chart to `path` in `format`; an HTML page also holds `report` below the chart.
 * @throws {IoError} when the file cannot be written.
 */
export async function writeChart(command: string, spec: TopLevelSpec, path: string, format: ChartFormat, title: string, report?: string): Promise<void> {
  const content = format === 'png' ? await renderPng(spec) : format === 'svg' ? await renderSvg(spec) : renderHtml(spec, title, report);
  try {
    await writeFile(path, content);
  } catch (cause) {
    throw new IoError(command, path, cause);
  }
}
