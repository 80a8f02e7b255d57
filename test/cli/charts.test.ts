// What the charts draw: the front's step line between the front's points only (not on to the
// plot's edges), labels off each other and off the chosen plan's ring, labelled ticks around the
// chosen point on a narrow log axis, subtitles wrapped to the chart's width, a legend without
// series that do not exist, a BFS's steps on the devices that ran them, and no warning from
// Vega-Lite or Vega while compiling and drawing either chart.

import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { degreeChart } from '../../src/cli/charts/degrees.js';
import { frontChart, type ChartPoint } from '../../src/cli/charts/front.js';
import { matrixFeatures } from '../../src/cost/features.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { textWidth } from '../../src/cli/charts/text-width.js';
import { timelineChart } from '../../src/cli/charts/timeline.js';
import { pieceBars, pieceDevice } from '../../src/cli/run-pieces.js';

const p = (time: number, energy: number): ChartPoint => ({ time, energy, mapping: 'm' });
const LONG =
  'observed makespan 1.03 ms (measured on cpu; simulated on cgra, gpu; modelled (roofline) for dense operators on cgra, gpu); predicted 1.22 ms (cost model); 1 re-plan';

function front(overrides: Partial<Parameters<typeof frontChart>[0]> = {}): TopLevelSpec {
  return frontChart({
    title: 'dype explore: gcn on kron16',
    subtitle: [LONG],
    evaluated: [p(2.1e-3, 0.31), p(3e-3, 0.22), p(2.6e-3, 0.4)],
    front: [p(1e-3, 0.25), p(1.4e-3, 0.2), p(2e-3, 0.12)],
    baselines: [
      { ...p(1e-3, 0.25), name: 'gpu alone' },
      { ...p(1e-3, 0.25), name: 'heft' },
      { ...p(5e-3, 0.5), name: 'cpu alone' },
    ],
    chosen: { ...p(1e-3, 0.25), policy: 'min-time' },
    width: 960,
    height: 600,
    ...overrides,
  });
}

function timeline(): TopLevelSpec {
  return timelineChart({
    title: 'dype run: bfs on tendril',
    subtitle: ['a', LONG],
    observed: [{ track: 'gpu', op: 'depth', start: 0, finish: 1e-3, source: 'simulated' }],
    predicted: [{ track: 'gpu', op: 'depth', start: 0, finish: 1.1e-3, source: 'modelled' }],
    tracks: ['cpu', 'gpu'],
    replans: [{ at: 5e-4, label: 'drift' }],
    width: 960,
    height: 600,
  });
}

type Layer = { data?: { values?: Record<string, unknown>[] }; mark?: { type?: string }; encoding?: Record<string, { scale?: { domain?: unknown[] } }> };
const layers = (spec: TopLevelSpec): Layer[] => (spec as unknown as { layer: Layer[] }).layer;

async function warnings(spec: TopLevelSpec): Promise<string[]> {
  const seen: string[] = [];
  const logger = {
    level: () => logger,
    error: (...a: unknown[]) => seen.push(`error: ${a.join(' ')}`),
    warn: (...a: unknown[]) => seen.push(`warn: ${a.join(' ')}`),
    info: () => logger,
    debug: () => logger,
  };
  const compiled = vl.compile(spec, { logger: logger as never }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger: logger as never, logLevel: vega.Warn });
  await view.toSVG();
  view.finalize();
  // Interval selections bind to the browser window, which a headless view lacks (the page is
  // checked in Chromium by the CI's first-day checks).
  return seen.filter((w) => !w.includes('Can not resolve event source: window'));
}

describe('the front chart', () => {
  it('draws the step line from the fastest front point to the most frugal one, no further', () => {
    const line = layers(front()).find((l) => l.mark?.type === 'line')!;
    const xs = line.data!.values!.map((v) => v['x'] as number);
    const ys = line.data!.values!.map((v) => v['y'] as number);
    expect(Math.min(...xs)).toBeCloseTo(1, 9); // ms
    expect(Math.max(...xs)).toBeCloseTo(2, 9);
    expect(Math.max(...ys)).toBeCloseTo(250, 6); // mJ: no vertical run up to the plot's top
    expect(Math.min(...ys)).toBeCloseTo(120, 6);
  });

  it('keeps labels off the ring and off each other when baselines sit on the chosen plan', () => {
    const texts = layers(front())
      .filter((l) => l.mark?.type === 'text')
      .flatMap((l) => l.data!.values!);
    const chosen = texts.find((t) => String(t['name']).startsWith('chosen'))!;
    const onRing = texts.find((t) => t['name'] === 'gpu alone = heft')!;
    expect(chosen['labelY']).not.toBe(onRing['labelY']);
    // Both moved out past the ring (radius about 12 px): in data space, away from the point itself.
    expect(onRing['labelX']).not.toBe(onRing['x']);
    expect(chosen['labelY']).not.toBe(chosen['y']);
  });

  it('labels ticks around the chosen point on a log axis narrower than a decade', () => {
    const spec = front({
      front: [p(1.2e-3, 0.25), p(1.9e-3, 0.2)],
      evaluated: [p(2.5e-3, 0.3)],
      baselines: [
        { ...p(1.2e-3, 0.25), name: 'gpu alone' },
        { ...p(2e-2, 2), name: 'cpu alone' },
      ],
      chosen: { ...p(1.2e-3, 0.25), policy: 'min-time' },
    });
    const x = (spec as unknown as { encoding: { x: { axis: { values: number[] } } } }).encoding.x.axis.values;
    expect(x.length).toBeGreaterThanOrEqual(4);
    // A labelled tick at the chosen plan's 1.2 ms, the other ticks 1-2-5.
    expect(x).toContain(1.2);
    expect(x).toEqual(expect.arrayContaining([2, 5, 10]));
  });

  it('marks a deadline and an energy budget as dashed lines', () => {
    const rules = layers(front({ limits: { time: 5e-4, energy: 0.1 } })).filter((l) => l.mark?.type === 'rule');
    expect(rules).toHaveLength(2);
  });

  it('compiles and draws without a Vega warning', async () => {
    expect(await warnings(front())).toEqual([]);
    expect(
      await warnings(front({ measured: [{ ...p(1.1e-3, 0.3), name: '#1', predictedTime: 1e-3, predictedEnergy: 0.25 }], measuredNote: 'cpu measured' })),
    ).toEqual([]);
  });
});

describe('the run timeline', () => {
  it('wraps a subtitle wider than the chart instead of cutting it', () => {
    const title = (timeline() as unknown as { title: { subtitle: string[] } }).title;
    expect(title.subtitle.length).toBeGreaterThan(2);
    for (const line of title.subtitle) expect(textWidth(line, 12)).toBeLessThanOrEqual(960 - 24);
    expect(title.subtitle.join(' ')).toBe(`a ${LONG}`);
  });

  it('lists copies in the legend only when something was copied', () => {
    const colour = layers(timeline())[0]!.encoding!['color']!.scale!.domain!;
    expect(colour).toEqual(['depth']);
  });

  it('compiles and draws without a Vega warning', async () => {
    expect(await warnings(timeline())).toEqual([]);
  });
});

describe('a BFS re-decided level by level', () => {
  const step = (device: string, seconds: number, source: 'measured' | 'simulated', move = 0) =>
    ({
      device,
      fromLevel: 0,
      levels: 1,
      frontier: 1,
      frontierEdges: 1,
      bottomUp: false,
      predictedSeconds: seconds,
      observedSeconds: seconds,
      observedJoules: 0,
      source,
      energySource: 'modelled',
      moveSeconds: move,
      reason: '',
    }) as const;
  const piece = {
    op: 'depth',
    kind: 'bfs',
    device: 'gpu',
    begin: 0,
    end: 1,
    predictedSeconds: 1,
    observedSeconds: 1,
    predictedJoules: 0,
    observedJoules: 0,
    source: 'simulated',
    energySource: 'modelled',
    start: 10,
    finish: 20,
    steps: [step('gpu', 2, 'simulated'), step('cpu', 7.2, 'measured', 0.8)],
  } as never;

  it('draws each step on the device that ran it, end to end over the piece', () => {
    const bars = pieceBars(piece);
    expect(bars.map((b) => b.track)).toEqual(['gpu', 'cpu']);
    expect(bars[0]!.start).toBe(10);
    expect(bars[1]!.finish).toBeCloseTo(20, 9);
    expect(bars[1]!.start).toBeCloseTo(10 + 2 + 0.8, 9); // after the step on the GPU and the move
    expect(bars.map((b) => b.source)).toEqual(['simulated', 'measured']);
  });

  it("gives each device's share in the table, not the planned device alone", () => {
    expect(pieceDevice(piece)).toEqual({ device: 'cpu 78% + gpu 22%', source: 'measured on cpu; simulated on gpu' });
  });
});

describe('the degree chart', () => {
  it('compiles and draws without a Vega warning', async () => {
    const matrix = kroneckerGraph({ scale: 10, seed: 1 });
    const spec = degreeChart({ title: 'degrees', subtitle: ['s'], matrix, powerLaw: matrixFeatures(matrix).powerLaw, width: 960, height: 600 });
    expect(await warnings(spec)).toEqual([]);
  });
});
