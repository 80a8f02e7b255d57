// Units for chart axes: one SI prefix per axis, chosen so the typical value reads between 1 and
// 1000, and a log scale when the values span more than a decade.

export interface AxisUnit {
  /** Multiply a value in the base unit (s, J) by this to express it in `unit`. */
  readonly factor: number;
  readonly unit: string;
}

const PREFIXES = [
  { factor: 1e-3, prefix: 'k' },
  { factor: 1, prefix: '' },
  { factor: 1e3, prefix: 'm' },
  { factor: 1e6, prefix: 'µ' },
  { factor: 1e9, prefix: 'n' },
] as const;

/** The prefix that puts the geometric middle of the positive values in [1, 1000). */
export function axisUnit(values: readonly number[], base: 's' | 'J'): AxisUnit {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return { factor: 1, unit: base };
  const mid = Math.sqrt(Math.min(...positive) * Math.max(...positive));
  const pick = PREFIXES.find((p) => mid * p.factor >= 1) ?? PREFIXES[PREFIXES.length - 1]!;
  return { factor: pick.factor, unit: `${pick.prefix}${base}` };
}

/** `log` when the positive values span more than a factor of ten, else `linear`. */
export function scaleType(values: readonly number[]): 'log' | 'linear' {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length < 2) return 'linear';
  return Math.max(...positive) / Math.min(...positive) > 10 ? 'log' : 'linear';
}

/** The values' range with room around it, so points at the edges and their rings stay whole. */
export function paddedDomain(values: readonly number[], type: 'log' | 'linear'): [number, number] {
  const v = values.filter((x) => Number.isFinite(x) && (type === 'linear' || x > 0));
  if (v.length === 0) return type === 'log' ? [0.1, 10] : [0, 1];
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  if (type === 'log') {
    const f = Math.max(1.15, (hi / lo) ** 0.06);
    return [lo / f, hi * f];
  }
  const pad = hi > lo ? (hi - lo) * 0.08 : Math.abs(hi) * 0.1 || 1;
  return [lo - pad, hi + pad];
}

/**
 * Tick values for an axis over `domain`: on a log axis the 1-2-5 values of each decade inside it
 * (1 to 9 when that gives fewer than four), so even an axis spanning less than a decade has
 * labelled ticks around every point; on a linear axis about six round steps.
 */
export function axisTicks([lo, hi]: [number, number], type: 'log' | 'linear', mark?: number): number[] {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  // A tick at `mark` (two significant digits) too, unless one is already close: a point the eye
  // looks for first (the chosen plan) then has a label beside it.
  if (mark !== undefined && mark > lo && mark < hi) {
    const ticks = axisTicks([lo, hi], type);
    const at = Number(mark.toPrecision(2));
    const close = (t: number): boolean => (type === 'log' ? Math.abs(Math.log10(t / at)) < 0.08 : Math.abs(t - at) < (hi - lo) / 25);
    return ticks.some(close)
      ? ticks
      : [...ticks.filter((t) => !(type === 'log' ? Math.abs(Math.log10(t / at)) < 0.15 : Math.abs(t - at) < (hi - lo) / 12)), at].sort((u, v) => u - v);
  }
  if (type === 'linear') {
    const raw = (hi - lo) / 6;
    const mag = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
    const ticks: number[] = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
    return ticks;
  }
  const within = (mantissas: readonly number[]): number[] => {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of mantissas) {
        const t = Number((m * 10 ** e).toPrecision(12));
        if (t >= lo && t <= hi) out.push(t);
      }
    }
    return out;
  };
  const decades = Math.log10(hi / lo);
  const coarse = within(decades > 6 ? [1] : [1, 2, 5]);
  return coarse.length >= 4 ? coarse : within([1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

/** A scale over `domain`, not stretched to round values; `zero: false` only where it means something (Vega-Lite warns about it on a log scale). */
export function axisScale(type: 'log' | 'linear', domain: [number, number]): { type: 'log' | 'linear'; domain: [number, number]; nice: false; zero?: false } {
  return type === 'log' ? { type, domain, nice: false } : { type, domain, nice: false, zero: false };
}
