// How `dype run` shows a piece: on which device or devices it ran and how its time was obtained,
// and its bars on the timeline. A BFS re-decided level by level ran its steps on several devices:
// each step is drawn on the device that ran it, and the table gives each device's share.

import type { RunResult } from '../executor/run.js';
import type { TimelineBar } from './charts/timeline.js';

export const SOURCE_TEXT = { measured: 'measured', simulated: 'simulated', roofline: 'modelled (roofline)' } as const;

type Piece = RunResult['pieces'][number];

/**
 * A piece's bars: one on its device, or, for a BFS re-decided level by level, one per step on the
 * device that ran it (a move, then the levels), laid end to end over the piece's place on the
 * timeline.
 */
export function pieceBars(p: Piece): TimelineBar[] {
  if (!p.steps || p.steps.length === 0) return [{ track: p.device, op: p.op, start: p.start, finish: p.finish, source: SOURCE_TEXT[p.source] }];
  const total = p.steps.reduce((s, st) => s + st.moveSeconds + st.observedSeconds, 0);
  const scale = total > 0 ? (p.finish - p.start) / total : 0;
  let at = p.start;
  return p.steps.map((st) => {
    const start = at + st.moveSeconds * scale;
    at = start + st.observedSeconds * scale;
    return { track: st.device, op: p.op, start, finish: at, source: SOURCE_TEXT[st.source] };
  });
}

/** Where a piece ran: its device, or for a stepped BFS each device with its share of the time. */
export function pieceDevice(p: Piece): { device: string; source: string } {
  if (!p.steps || p.steps.length === 0) return { device: p.device, source: SOURCE_TEXT[p.source] };
  const by = new Map<string, { seconds: number; sources: Set<string> }>();
  for (const st of p.steps) {
    const d = by.get(st.device) ?? { seconds: 0, sources: new Set<string>() };
    d.seconds += st.observedSeconds;
    d.sources.add(SOURCE_TEXT[st.source]);
    by.set(st.device, d);
  }
  const total = [...by.values()].reduce((s, d) => s + d.seconds, 0) || 1;
  const ranked = [...by.entries()].sort((a, b) => b[1].seconds - a[1].seconds);
  if (ranked.length === 1) return { device: ranked[0]![0], source: [...ranked[0]![1].sources].join(' + ') };
  return {
    device: ranked.map(([d, v]) => `${d} ${Math.round((100 * v.seconds) / total)}%`).join(' + '),
    source: [...new Set(ranked.flatMap(([, v]) => [...v.sources]))]
      .map(
        (src) =>
          `${src} on ${ranked
            .filter(([, v]) => v.sources.has(src))
            .map(([d]) => d)
            .join(', ')}`,
      )
      .join('; '),
  };
}
