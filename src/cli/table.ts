// Plain-text tables for the terminal: right-aligned numbers, left-aligned text, no colour codes
// (so output is the same on a TTY, in a pipe and under NO_COLOR).

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const numeric = header.map((_, c) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+(e[-+]?\d+)?\s*\S*$/.test(r[c] ?? '')));
  const line = (cells: readonly string[]) =>
    cells.map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A duration in milliseconds with three significant digits and a unit that fits. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} us`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

/** A duration in seconds, as {@link formatMs} writes it. */
export function formatSeconds(s: number): string {
  return formatMs(s * 1e3);
}

/** An energy in joules with three significant digits and a unit that fits. */
export function formatJoules(j: number): string {
  if (j >= 1) return `${j.toPrecision(3)} J`;
  if (j >= 1e-3) return `${(j * 1e3).toPrecision(3)} mJ`;
  return `${(j * 1e6).toPrecision(3)} uJ`;
}

/** A rate with an SI prefix: formatRate(2.5e9, 'TEPS') === '2.50 GTEPS'. */
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

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
