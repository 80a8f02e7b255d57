// Quantities as a person reads them: three significant digits and the unit that fits. One
// place for every message, table and explanation, so a figure never reaches a reader as a raw
// float ("0.0023725778500764748 s") and two places never round the same figure differently.

/** Seconds in a readable unit: `formatSeconds(0.00237) === '2.37 ms'`. */
export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return String(s);
  s = Number(s.toPrecision(3)); // the unit is picked after rounding: 0.9999 s reads 1.00 s
  const a = Math.abs(s);
  if (a === 0) return '0 s';
  if (a >= 1) return `${s.toPrecision(3)} s`;
  if (a >= 1e-3) return `${(s * 1e3).toPrecision(3)} ms`;
  if (a >= 1e-6) return `${(s * 1e6).toPrecision(3)} us`;
  return `${(s * 1e9).toPrecision(3)} ns`;
}

/** Milliseconds, as {@link formatSeconds} writes them. */
export function formatMs(ms: number): string {
  return formatSeconds(ms / 1e3);
}

/**
 * Joules in a readable unit: `formatJoules(0.0093) === '9.30 mJ'`. Down to nJ, as
 * {@link formatSeconds} goes down to ns: a CGRA's BFS of a tiny graph read "0.0263 uJ".
 */
export function formatJoules(j: number): string {
  if (!Number.isFinite(j)) return String(j);
  j = Number(j.toPrecision(3));
  const a = Math.abs(j);
  if (a === 0) return '0 J';
  if (a >= 1) return `${j.toPrecision(3)} J`;
  if (a >= 1e-3) return `${(j * 1e3).toPrecision(3)} mJ`;
  if (a >= 1e-6) return `${(j * 1e6).toPrecision(3)} uJ`;
  return `${(j * 1e9).toPrecision(3)} nJ`;
}

/** Bytes with a binary prefix: `formatBytes(32.1e6) === '30.6 MiB'`. */
export function formatBytes(b: number): string {
  if (!Number.isFinite(b)) return String(b);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(v)} B` : `${v.toPrecision(3)} ${units[i]}`;
}

/** A rate with an SI prefix: `formatRate(2.5e9, 'TEPS') === '2.50 GTEPS'`. */
export function formatRate(perSecond: number, unit: string): string {
  const prefixes = ['', 'k', 'M', 'G', 'T'];
  let v = perSecond;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < prefixes.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toPrecision(3)} ${prefixes[i]}${unit}`;
}

/** A count with thousands separators: `formatCount(30000) === '30,000'`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A ratio to three significant digits: `formatRatio(78.3049) === '78.3x'`, `formatRatio(1.1795) === '1.18x'`. */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return `${r}x`;
  const rounded = Number(r.toPrecision(3)); // as formatSeconds: round first, then write
  return rounded >= 1000 ? `${formatCount(Math.round(r))}x` : `${rounded.toPrecision(3)}x`;
}

/** A relative change as a signed percentage: `formatChange(0.253) === '+25%'`. */
export function formatChange(rel: number): string {
  return `${rel > 0 ? '+' : ''}${(rel * 100).toFixed(0)}%`;
}
