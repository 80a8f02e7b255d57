// The Pareto-front chart of `dype explore`: every evaluated mapping, the front as a step line
// (the edge of what can be had), the baselines labelled, the chosen plan ringed, and with
// --measure each executed front point joined to its prediction. Time against energy, units on
// the axes, log scales when the points span more than a decade.

import type { TopLevelSpec } from 'vega-lite';
import { chartFrame } from './render.js';
import { axisUnit, paddedDomain, scaleType } from './units.js';

export interface ChartPoint {
  /** Seconds. */
  readonly time: number;
  /** Joules. */
  readonly energy: number;
  /** The mapping in short form (tooltips). */
  readonly mapping: string;
}

export interface FrontChartInput {
  readonly title: string;
  readonly subtitle: readonly string[];
  /** Evaluated mappings off the front (a sample when there are many). */
  readonly evaluated: readonly ChartPoint[];
  /** Front points, fastest first. */
  readonly front: readonly ChartPoint[];
  readonly baselines: readonly (ChartPoint & { readonly name: string })[];
  readonly chosen: ChartPoint & { readonly policy: string };
  /** Executed points (--measure), each with the prediction it is compared to. */
  readonly measured?: readonly (ChartPoint & { readonly name: string; readonly predictedTime: number; readonly predictedEnergy: number })[];
  /** What the measured points' figures are (e.g. `cpu measured, gpu simulated`), for the legend. */
  readonly measuredNote?: string;
  readonly width: number;
  readonly height: number;
}

const SERIES = {
  evaluated: 'evaluated mapping (predicted)',
  front: 'Pareto front (predicted)',
  baseline: 'baseline (predicted)',
  chosen: 'chosen plan (predicted)',
  measured: 'executed',
} as const;

/** The Vega-Lite spec of the front chart; its PNG is exactly `width` x `height` pixels. */
export function frontChart(input: FrontChartInput): TopLevelSpec {
  const measured = input.measured ?? [];
  const all: ChartPoint[] = [...input.evaluated, ...input.front, ...input.baselines, input.chosen, ...measured];
  const times = all.map((p) => p.time);
  const energies = all.map((p) => p.energy);
  const tu = axisUnit(times, 's');
  const eu = axisUnit(energies, 'J');
  const xs = scaleType(times);
  const ys = scaleType(energies);
  const x = (t: number): number => t * tu.factor;
  const y = (e: number): number => e * eu.factor;
  const row = (series: string, p: ChartPoint, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    series,
    x: x(p.time),
    y: y(p.energy),
    time: fmt(x(p.time), tu.unit),
    energy: fmt(y(p.energy), eu.unit),
    mapping: p.mapping,
    ...extra,
  });

  // The front's attainment line: down from the top edge to the fastest point, then a step at
  // each point, out to the right edge; everything above and right of it is dominated.
  const front = [...input.front].sort((a, b) => a.time - b.time);
  const top = Math.max(...energies);
  const right = Math.max(...times);
  const corners: { x: number; y: number; order: number; series: string }[] = [];
  if (front.length > 0) {
    corners.push({ x: x(front[0]!.time), y: y(top), order: 0, series: SERIES.front });
    front.forEach((p, i) => {
      if (i > 0) corners.push({ x: x(p.time), y: y(front[i - 1]!.energy), order: corners.length, series: SERIES.front });
      corners.push({ x: x(p.time), y: y(p.energy), order: corners.length, series: SERIES.front });
    });
    corners.push({ x: x(right), y: y(front[front.length - 1]!.energy), order: corners.length, series: SERIES.front });
  }

  // Baselines that coincide (gpu alone = heft) share one label.
  const groups = new Map<string, { p: ChartPoint; names: string[] }>();
  for (const b of input.baselines) {
    const key = `${b.time.toPrecision(6)}/${b.energy.toPrecision(6)}`;
    const g = groups.get(key);
    if (g) g.names.push(b.name);
    else groups.set(key, { p: b, names: [b.name] });
  }
  const xDomain = paddedDomain(times.map(x), xs);
  const yDomain = paddedDomain(energies.map(y), ys);
  const baselineRows = placeLabels(
    [...groups.values()].map((g) => row(SERIES.baseline, g.p, { name: g.names.join(' = ') })),
    xDomain, xs, yDomain, ys, input.width - 260, input.height - 140,
  );

  const domain: string[] = [SERIES.evaluated, SERIES.front, SERIES.baseline, SERIES.chosen];
  const colours = ['#9aa5b1', '#1f6fb4', '#e08a00', '#d62728'];
  const shapes = ['circle', 'circle', 'triangle-up', 'circle'];
  if (measured.length > 0) {
    domain.push(SERIES.measured);
    colours.push('#2ca02c');
    shapes.push('cross');
  }
  const colour = { field: 'series', type: 'nominal', scale: { domain, range: colours }, legend: { title: null, orient: 'right', labelLimit: 260, symbolOpacity: 1 } } as const;
  const shape = { field: 'series', type: 'nominal', scale: { domain, range: shapes }, legend: null } as const;
  const tooltip = [
    { field: 'mapping', type: 'nominal', title: 'mapping' },
    { field: 'time', type: 'nominal', title: 'time' },
    { field: 'energy', type: 'nominal', title: 'energy' },
  ] as const;
  const modelled = measured.length > 0 ? '' : ', predicted';
  const axisX = { field: 'x', type: 'quantitative', scale: { type: xs, domain: xDomain, nice: false, zero: false }, axis: { title: `time per run (${tu.unit}${modelled})`, grid: true } } as const;
  const axisY = { field: 'y', type: 'quantitative', scale: { type: ys, domain: yDomain, nice: false, zero: false }, axis: { title: `energy per run (${eu.unit}${modelled})`, grid: true } } as const;

  const layer: unknown[] = [
    {
      data: { values: input.evaluated.map((p) => row(SERIES.evaluated, p)) },
      mark: { type: 'point', filled: true, size: 16, opacity: 0.45 },
      encoding: { color: colour, shape, tooltip },
      params: [{ name: 'zoom', select: 'interval', bind: 'scales' }],
    },
    {
      data: { values: corners },
      mark: { type: 'line', strokeWidth: 2, interpolate: 'linear' },
      encoding: { color: colour, order: { field: 'order', type: 'quantitative' } },
    },
    {
      data: { values: front.map((p) => row(SERIES.front, p)) },
      mark: { type: 'point', filled: true, size: 60 },
      encoding: { color: colour, shape, tooltip },
    },
    {
      data: { values: baselineRows },
      mark: { type: 'point', filled: true, size: 110 },
      encoding: { color: colour, shape, tooltip: [{ field: 'name', type: 'nominal', title: 'baseline' }, ...tooltip] },
    },
    ...(['left', 'right'] as const).map((align) => ({
      data: { values: baselineRows.filter((r) => r['align'] === align) },
      mark: { type: 'text', align, baseline: 'bottom', dx: align === 'left' ? 7 : -7, dy: -5, fontSize: 12, color: '#8a5300' },
      encoding: { y: { field: 'labelY', type: 'quantitative' }, text: { field: 'name', type: 'nominal' } },
    })),
    {
      data: { values: [row(SERIES.chosen, input.chosen)] },
      mark: { type: 'point', filled: false, size: 420, strokeWidth: 3 },
      encoding: { color: colour, shape, tooltip },
    },
    {
      data: { values: [row(SERIES.chosen, input.chosen, { name: `chosen (${input.chosen.policy})` })] },
      mark: { type: 'text', align: 'left', baseline: 'top', dx: 12, dy: 8, fontSize: 12, fontWeight: 'bold', color: '#d62728' },
      encoding: { text: { field: 'name', type: 'nominal' } },
    },
  ];
  if (measured.length > 0) {
    const rows = measured.map((m) => row(SERIES.measured, m, { x0: x(m.predictedTime), y0: y(m.predictedEnergy), name: m.name }));
    layer.push(
      {
        data: { values: rows },
        mark: { type: 'rule', strokeDash: [3, 3], color: '#2ca02c', opacity: 0.8 },
        encoding: { x: { field: 'x0', type: 'quantitative' }, y: { field: 'y0', type: 'quantitative' }, x2: { field: 'x' }, y2: { field: 'y' } },
      },
      {
        data: { values: rows },
        mark: { type: 'point', size: 110, strokeWidth: 2.5 },
        encoding: { color: colour, shape, tooltip: [{ field: 'name', type: 'nominal', title: 'executed' }, ...tooltip] },
      },
    );
  }
  const subtitle = [...input.subtitle];
  if (measured.length > 0 && input.measuredNote) subtitle.push(`executed: ${input.measuredNote}; dashed lines join each prediction to its execution`);
  return {
    ...chartFrame(input, subtitle, { symbolSize: 90 }),
    encoding: { x: axisX, y: axisY },
    layer,
  } as TopLevelSpec;
}

/**
 * Label sides and vertical nudges so baseline labels stay inside the plot and off each other:
 * a label goes left of its point in the right third, and labels closer than a line apart on
 * screen are pushed down (positions estimated from the domains and the plot's size).
 */
function placeLabels(
  rows: Record<string, unknown>[],
  xDomain: [number, number], xs: 'log' | 'linear',
  yDomain: [number, number], ys: 'log' | 'linear',
  plotWidth: number, plotHeight: number,
): Record<string, unknown>[] {
  const frac = (v: number, [lo, hi]: [number, number], t: 'log' | 'linear'): number =>
    t === 'log' ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo || 1);
  const placed = rows
    .map((r) => {
      const px = frac(r['x'] as number, xDomain, xs) * plotWidth;
      const py = (1 - frac(r['y'] as number, yDomain, ys)) * plotHeight;
      return { row: r, align: px > plotWidth * 0.66 ? 'right' : 'left', px, py, dy: 0 };
    })
    .sort((a, b) => a.py - b.py);
  const line = 15;
  for (let i = 1; i < placed.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = placed[j]!;
      const b = placed[i]!;
      const gap = b.py + b.dy - (a.py + a.dy);
      if (a.align === b.align && Math.abs(a.px - b.px) < 160 && gap < line) b.dy += line - gap;
    }
  }
  // The nudges back into data space, as the label's own y.
  const [lo, hi] = yDomain;
  return placed.map(({ row, align, dy }) => {
    const shift = dy / plotHeight;
    const y = row['y'] as number;
    return { ...row, align, labelY: ys === 'log' ? y * (hi / lo) ** -shift : y - shift * (hi - lo) };
  });
}

function fmt(v: number, unit: string): string {
  return `${v.toPrecision(3)} ${unit}`;
}
