// The Gantt chart of `dype run`: one row per device and per link direction, each piece of
// each operator as a bar from its start to its finish on the run's composed timeline, the
// plan's predicted bars beneath the observed ones, and every re-plan as a vertical rule.

import type { TopLevelSpec } from 'vega-lite';
import { chartFrame } from './render.js';
import { axisUnit } from './units.js';

export interface TimelineBar {
  /** Device name, or `from -> to` for a copy. */
  readonly track: string;
  /** Operator id, or `copy` for a transfer. */
  readonly op: string;
  /** Seconds from the start of the run. */
  readonly start: number;
  readonly finish: number;
  /** `measured`, `simulated`, `modelled (roofline)` or `modelled` (copies; predictions). */
  readonly source: string;
}

export interface TimelineChartInput {
  readonly title: string;
  readonly subtitle: readonly string[];
  readonly observed: readonly TimelineBar[];
  readonly predicted: readonly TimelineBar[];
  /** Rows in order (devices, then links); tracks not listed follow in order of appearance. */
  readonly tracks?: readonly string[];
  /** Re-plans at seconds from the start, with a short reason. */
  readonly replans: readonly { readonly at: number; readonly label: string }[];
  readonly width: number;
  readonly height: number;
}

const OBSERVED = 'observed';
const PREDICTED = 'predicted (modelled)';

/** The Vega-Lite spec of the run's timeline; its PNG is exactly `width` x `height` pixels. */
export function timelineChart(input: TimelineChartInput): TopLevelSpec {
  const ends = [...input.observed, ...input.predicted].map((b) => b.finish);
  const unit = axisUnit([Math.max(1e-12, ...ends)], 's');
  const at = (s: number): number => s * unit.factor;
  const span = Math.max(1e-12, ...ends);
  const bar =
    (series: string) =>
    (b: TimelineBar): Record<string, unknown> => ({
      track: b.track,
      op: b.op,
      series,
      start: at(b.start),
      finish: at(b.finish),
      mid: at((b.start + b.finish) / 2),
      // Labels only on bars wide enough to hold one.
      label: series === OBSERVED && b.op !== 'copy' && (b.finish - b.start) / span > 0.05 ? b.op : '',
      duration: `${(at(b.finish) - at(b.start)).toPrecision(3)} ${unit.unit}`,
      source: b.source,
    });
  const rows = [...input.observed.map(bar(OBSERVED)), ...input.predicted.map(bar(PREDICTED))];
  // The rows given first, then the others (copies last).
  const used = new Set([...input.observed, ...input.predicted].map((b) => b.track));
  const tracks = [
    ...(input.tracks ?? []).filter((t) => used.has(t)),
    ...[...used].filter((t) => !input.tracks?.includes(t)).sort((a, b) => Number(a.includes('->')) - Number(b.includes('->'))),
  ];
  const ops = [...new Set([...input.observed, ...input.predicted].map((b) => b.op))].filter((o) => o !== 'copy');
  // `copy` in the legend only when the run copied something.
  const copies = [...input.observed, ...input.predicted].some((b) => b.op === 'copy');
  const y = { field: 'track', type: 'nominal', sort: tracks, axis: { title: null, labelFontSize: 12 } } as const;
  const x = {
    field: 'start',
    type: 'quantitative',
    scale: { domain: [0, at(span) * 1.02], nice: false },
    axis: { title: `time since the run started (${unit.unit})`, grid: true },
  } as const;
  const layer: unknown[] = [
    {
      data: { values: rows },
      mark: { type: 'bar', cornerRadius: 2, stroke: 'white', strokeWidth: 0.5 },
      params: [{ name: 'zoom', select: { type: 'interval', encodings: ['x'] }, bind: 'scales' }],
      encoding: {
        y,
        yOffset: { field: 'series', type: 'nominal', sort: [OBSERVED, PREDICTED], scale: { paddingInner: 0.1 } },
        x,
        x2: { field: 'finish' },
        color: {
          field: 'op',
          type: 'nominal',
          scale: { domain: copies ? [...ops, 'copy'] : ops, scheme: 'tableau10' },
          legend: { title: 'operator', orient: 'right' },
        },
        opacity: {
          field: 'series',
          type: 'ordinal',
          sort: [OBSERVED, PREDICTED],
          scale: { domain: [OBSERVED, PREDICTED], range: [1, 0.4] },
          legend: { title: 'bars', orient: 'right', symbolType: 'square' },
        },
        tooltip: [
          { field: 'op', type: 'nominal', title: 'operator' },
          { field: 'track', type: 'nominal', title: 'on' },
          { field: 'series', type: 'nominal', title: 'bar' },
          { field: 'duration', type: 'nominal', title: 'duration' },
          { field: 'source', type: 'nominal', title: 'source' },
        ],
      },
    },
    {
      data: { values: rows.filter((r) => r['label'] !== '') },
      mark: { type: 'text', fontSize: 11, color: 'white', baseline: 'middle' },
      encoding: {
        y,
        yOffset: { field: 'series', type: 'nominal', sort: [OBSERVED, PREDICTED] },
        x: { field: 'mid', type: 'quantitative' },
        text: { field: 'label', type: 'nominal' },
      },
    },
  ];
  if (input.replans.length > 0) {
    const marks = input.replans.map((r, i) => ({ at: at(r.at), label: `re-plan ${i + 1}`, reason: r.label }));
    layer.push(
      {
        data: { values: marks },
        mark: { type: 'rule', color: '#d62728', strokeWidth: 2, strokeDash: [6, 3] },
        encoding: { x: { field: 'at', type: 'quantitative' }, tooltip: [{ field: 'reason', type: 'nominal', title: 're-plan' }] },
      },
      {
        data: { values: marks },
        mark: { type: 'text', color: '#d62728', align: 'left', baseline: 'top', dx: 4, dy: 2, fontWeight: 'bold', y: 0 },
        encoding: { x: { field: 'at', type: 'quantitative' }, text: { field: 'label', type: 'nominal' } },
      },
    );
  }
  return {
    ...chartFrame(input, input.subtitle),
    layer,
  } as TopLevelSpec;
}
