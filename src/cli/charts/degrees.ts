// The degree-distribution chart of `dype inspect --out`: how many rows (vertices) have each
// length (out-degree), on log-log axes, with the power-law tail the cost model fitted, if any.

import type { TopLevelSpec } from 'vega-lite';
import type { CsrMatrix } from '../../data/csr.js';
import type { PowerLaw } from '../../cost/feature-types.js';
import { chartFrame } from './render.js';
import { axisScale, paddedDomain, scaleType } from './units.js';

export interface DegreeChartInput {
  readonly title: string;
  readonly subtitle: readonly string[];
  readonly matrix: CsrMatrix;
  readonly powerLaw: PowerLaw;
  readonly width: number;
  readonly height: number;
}

/** Rows per row length, for the lengths that occur (zero included). */
export function degreeCounts(a: CsrMatrix): Map<number, number> {
  const counts = new Map<number, number>();
  for (let r = 0; r < a.rows; r++) {
    const d = a.rowLength(r);
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  return counts;
}

/** The Vega-Lite spec; its PNG is exactly `width` x `height` pixels. */
export function degreeChart(input: DegreeChartInput): TopLevelSpec {
  const counts = degreeCounts(input.matrix);
  const points = [...counts]
    .filter(([d]) => d > 0)
    .sort((p, q) => p[0] - q[0])
    .map(([degree, rows]) => ({ degree, rows, series: 'rows with this length' }));
  const empty = counts.get(0) ?? 0;
  const pl = input.powerLaw;
  const fit: { degree: number; rows: number; series: string }[] = [];
  if (pl.state === 'fitted' && points.length > 0) {
    // The discrete fit's expected rows at length d: tail x (P(X >= d) - P(X >= d + 1)), with
    // P(X >= d) = ((d - 0.5) / (xmin - 0.5))^(1 - alpha) (Clauset, Shalizi and Newman).
    const ccdf = (d: number): number => ((d - 0.5) / (pl.xmin - 0.5)) ** (1 - pl.alpha);
    const max = points[points.length - 1]!.degree;
    const steps = 80;
    let last = -1;
    for (let k = 0; k <= steps; k++) {
      const d = Math.round(pl.xmin * (max / pl.xmin) ** (k / steps));
      if (d === last) continue;
      last = d;
      fit.push({ degree: d, rows: pl.tailRows * (ccdf(d) - ccdf(d + 1)), series: `power-law fit, alpha ${pl.alpha.toFixed(2)} above ${pl.xmin}` });
    }
  }
  const domain = ['rows with this length', ...(fit.length ? [fit[0]!.series] : [])];
  const colour = {
    field: 'series',
    type: 'nominal',
    scale: { domain, range: ['#1f6fb4', '#d62728'] },
    legend: { title: null, orient: 'top-right', labelLimit: 320, symbolOpacity: 1 },
  } as const;
  const xs = scaleType(points.map((p) => p.degree));
  const ys = scaleType(points.map((p) => p.rows));
  const subtitle = [...input.subtitle];
  if (empty > 0) subtitle.push(`${empty.toLocaleString('en-US')} empty rows (length 0) are not drawn on the log axis`);
  return {
    ...chartFrame(input, subtitle),
    encoding: {
      x: {
        field: 'degree',
        type: 'quantitative',
        scale: axisScale(
          xs,
          paddedDomain(
            points.map((p) => p.degree),
            xs,
          ),
        ),
        axis: { title: 'row length (out-degree)', grid: true },
      },
      y: {
        field: 'rows',
        type: 'quantitative',
        scale: axisScale(
          ys,
          paddedDomain(
            points.map((p) => p.rows),
            ys,
          ),
        ),
        axis: { title: 'rows (vertices) with that length', grid: true },
      },
    },
    layer: [
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 22, opacity: 0.7 },
        encoding: {
          color: colour,
          tooltip: [
            { field: 'degree', type: 'quantitative', title: 'length' },
            { field: 'rows', type: 'quantitative', title: 'rows' },
          ],
        },
        params: [{ name: 'zoom', select: 'interval', bind: 'scales' }],
      },
      ...(fit.length
        ? [{ data: { values: fit.filter((f) => f.rows >= 0.5) }, mark: { type: 'line', strokeWidth: 2, strokeDash: [6, 3] }, encoding: { color: colour } }]
        : []),
    ],
  } as TopLevelSpec;
}
