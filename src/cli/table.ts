// Plain-text tables for the terminal: right-aligned numbers, left-aligned text, no colour codes
// (so output is the same on a TTY, in a pipe and under NO_COLOR).

export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const numeric = header.map((_, c) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+(e[-+]?\d+)?\s*\S*$/.test(r[c] ?? '')));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export { formatCount, formatJoules, formatMs, formatRate, formatSeconds } from '../units.js';
