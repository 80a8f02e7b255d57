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
