// The Pareto-front chart of `dype explore`: every evaluated mapping, the front as a step line
// (the edge of what can be had), the baselines labelled, the chosen plan ringed, and with
// --measure each executed front point joined to its prediction. Time against energy, units on
// the axes, log scales when the points span more than a decade.

import type { TopLevelSpec } from 'vega-lite';
import { chartFrame } from './render.js';
import { axisScale, axisTicks, axisUnit, paddedDomain, scaleType } from './units.js';

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
  /** The ringed point's label. @default `chosen (<policy>)` */
  readonly chosenLabel?: string;
  /** Constraints drawn as dashed lines: a deadline (seconds), an energy budget (joules). */
  readonly limits?: { readonly time?: number; readonly energy?: number };
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
  const limits = input.limits ?? {};
  const times = [...all.map((p) => p.time), ...(limits.time !== undefined ? [limits.time] : [])];
  const energies = [...all.map((p) => p.energy), ...(limits.energy !== undefined ? [limits.energy] : [])];
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

  // The front's attainment line: a step from each point to the next, from the fastest point to
  // the most frugal one and no further (a line on to the plot's edges would read as data).
  const front = [...input.front].sort((a, b) => a.time - b.time);
  const corners: { x: number; y: number; order: number; series: string }[] = [];
  front.forEach((p, i) => {
    if (i > 0) corners.push({ x: x(p.time), y: y(front[i - 1]!.energy), order: corners.length, series: SERIES.front });
    corners.push({ x: x(p.time), y: y(p.energy), order: corners.length, series: SERIES.front });
  });

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
  const chosenName = input.chosenLabel ?? `chosen (${input.chosen.policy})`;
  // The chosen plan's label is placed with the baselines' so that none covers another or the ring.
  const labelled = placeLabels(
    [
      row(SERIES.chosen, input.chosen, { name: chosenName, chosen: true }),
      ...[...groups.values()].map((g) => row(SERIES.baseline, g.p, { name: g.names.join(' = ') })),
    ],
    { x: x(input.chosen.time), y: y(input.chosen.energy) },
    xDomain,
    xs,
    yDomain,
    ys,
    input.width - 260,
    input.height - 160,
  );
  const baselineRows = labelled.filter((r) => r['chosen'] !== true);
  const chosenRow = labelled.find((r) => r['chosen'] === true)!;

  const domain: string[] = [SERIES.evaluated, SERIES.front, SERIES.baseline, SERIES.chosen];
  const colours = ['#9aa5b1', '#1f6fb4', '#e08a00', '#d62728'];
  const shapes = ['circle', 'circle', 'triangle-up', 'circle'];
  if (measured.length > 0) {
    domain.push(SERIES.measured);
    colours.push('#2ca02c');
    shapes.push('cross');
  }
  // Colour and shape share one legend (the same field, the same legend settings).
  const legend = { title: null, orient: 'right', labelLimit: 260, symbolOpacity: 1 } as const;
  const colour = { field: 'series', type: 'nominal', scale: { domain, range: colours }, legend } as const;
  const shape = { field: 'series', type: 'nominal', scale: { domain, range: shapes }, legend } as const;
  const tooltip = [
    { field: 'mapping', type: 'nominal', title: 'mapping' },
    { field: 'time', type: 'nominal', title: 'time' },
    { field: 'energy', type: 'nominal', title: 'energy' },
  ] as const;
  const modelled = measured.length > 0 ? '' : ', predicted';
  // Tick values chosen here: on a log axis spanning less than a decade Vega labels one tick or
  // none, and the chosen point could sit where the axis said nothing.
  const axisX = {
    field: 'x',
    type: 'quantitative',
    scale: axisScale(xs, xDomain),
    axis: {
      title: `time per run (${tu.unit}${modelled})`,
      grid: true,
      values: axisTicks(xDomain, xs, x(input.chosen.time)),
      format: '~g',
      labelOverlap: 'greedy',
    },
  } as const;
  const axisY = {
    field: 'y',
    type: 'quantitative',
    scale: axisScale(ys, yDomain),
    axis: {
      title: `energy per run (${eu.unit}${modelled})`,
      grid: true,
      values: axisTicks(yDomain, ys, y(input.chosen.energy)),
      format: '~g',
      labelOverlap: 'greedy',
    },
  } as const;

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
      mark: { type: 'text', align, baseline: 'middle', fontSize: 12, color: '#8a5300' },
      encoding: { x: { field: 'labelX', type: 'quantitative' }, y: { field: 'labelY', type: 'quantitative' }, text: { field: 'name', type: 'nominal' } },
    })),
    {
      data: { values: [row(SERIES.chosen, input.chosen)] },
      mark: { type: 'point', filled: false, size: 420, strokeWidth: 3 },
      encoding: { color: colour, shape, tooltip },
    },
    {
      data: { values: [chosenRow] },
      mark: { type: 'text', align: chosenRow['align'] as string, baseline: 'middle', fontSize: 12, fontWeight: 'bold', color: '#d62728' },
      encoding: { x: { field: 'labelX', type: 'quantitative' }, y: { field: 'labelY', type: 'quantitative' }, text: { field: 'name', type: 'nominal' } },
    },
    ...limitLayers(limits, x, y, tu.unit, eu.unit),
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
 * Where each label goes, in data space (`labelX`, `labelY`), so labels stay inside the plot, off
 * each other and off the chosen plan's ring: beside its point, on the left in the right third of
 * the plot, moved out past the ring when the point is near it, and pushed down when two labels
 * would overlap (positions estimated from the domains and the plot's size).
 */
function placeLabels(
  rows: Record<string, unknown>[],
  ring: { x: number; y: number },
  xDomain: [number, number],
  xs: 'log' | 'linear',
  yDomain: [number, number],
  ys: 'log' | 'linear',
  plotWidth: number,
  plotHeight: number,
): Record<string, unknown>[] {
  const frac = (v: number, [lo, hi]: [number, number], t: 'log' | 'linear'): number =>
    t === 'log' ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo || 1);
  const back = (f: number, [lo, hi]: [number, number], t: 'log' | 'linear'): number => (t === 'log' ? lo * (hi / lo) ** f : lo + f * (hi - lo));
  const ringX = frac(ring.x, xDomain, xs) * plotWidth;
  const ringY = (1 - frac(ring.y, yDomain, ys)) * plotHeight;
  const RING = 14; // the ring's radius (size 420) and its stroke
  const placed = rows.map((r) => {
    const px = frac(r['x'] as number, xDomain, xs) * plotWidth;
    const py = (1 - frac(r['y'] as number, yDomain, ys)) * plotHeight;
    const align = px > plotWidth * 0.66 ? 'right' : 'left';
    const nearRing = Math.hypot(px - ringX, py - ringY) < RING + 6;
    const dx = (nearRing ? RING + 6 : 9) * (align === 'left' ? 1 : -1);
    // The chosen plan's label under its ring, the others above their points.
    const dy = r['chosen'] === true ? RING + 6 : nearRing ? -(RING + 4) : -9;
    return { row: r, align, x: px + dx, y: py + dy, width: String(r['name']).length * 7 };
  });
  // Top to bottom, each label pushed down past any earlier one it would overlap.
  placed.sort((a, b) => a.y - b.y);
  const LINE = 15;
  for (let i = 1; i < placed.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = placed[j]!;
      const b = placed[i]!;
      const [al, ar] = a.align === 'left' ? [a.x, a.x + a.width] : [a.x - a.width, a.x];
      const [bl, br] = b.align === 'left' ? [b.x, b.x + b.width] : [b.x - b.width, b.x];
      if (bl < ar && al < br && b.y - a.y < LINE) b.y = a.y + LINE;
    }
  }
  return placed.map(({ row, align, x, y }) => ({
    ...row,
    align,
    labelX: back(Math.min(1, Math.max(0, x / plotWidth)), xDomain, xs),
    labelY: back(Math.min(1, Math.max(0, 1 - y / plotHeight)), yDomain, ys),
  }));
}

/** A deadline and an energy budget as dashed lines, each labelled. */
function limitLayers(limits: { time?: number; energy?: number }, x: (t: number) => number, y: (e: number) => number, tUnit: string, eUnit: string): unknown[] {
  const layers: unknown[] = [];
  if (limits.time !== undefined) {
    const at = x(limits.time);
    layers.push(
      { data: { values: [{ at }] }, mark: { type: 'rule', color: '#555', strokeDash: [6, 4] }, encoding: { x: { field: 'at', type: 'quantitative' } } },
      {
        data: { values: [{ at, text: `deadline ${fmt(at, tUnit)}` }] },
        mark: { type: 'text', angle: 270, align: 'right', baseline: 'bottom', dx: -4, dy: -4, y: 0, color: '#555' },
        encoding: { x: { field: 'at', type: 'quantitative' }, text: { field: 'text', type: 'nominal' } },
      },
    );
  }
  if (limits.energy !== undefined) {
    const at = y(limits.energy);
    layers.push(
      { data: { values: [{ at }] }, mark: { type: 'rule', color: '#555', strokeDash: [6, 4] }, encoding: { y: { field: 'at', type: 'quantitative' } } },
      {
        data: { values: [{ at, text: `energy budget ${fmt(at, eUnit)}` }] },
        mark: { type: 'text', align: 'right', baseline: 'bottom', dy: -3, x: { expr: 'width' }, color: '#555' },
        encoding: { y: { field: 'at', type: 'quantitative' }, text: { field: 'text', type: 'nominal' } },
      },
    );
  }
  return layers;
}

function fmt(v: number, unit: string): string {
  return `${v.toPrecision(3)} ${unit}`;
}
