// Text widths for laying out charts without a browser. Vega measures text with a canvas, and
// without one guesses 0.8 em per character, which truncates legends and misplaces labels; the
// charts are set in DejaVu Sans, so its real advance widths are used instead.

/**
 * Advance widths of DejaVu Sans (regular, then bold) in 1/2048 em, from the fonts' hmtx tables:
 * the characters U+0020 to U+007E, then µ, × and the ellipsis.
 */
const REGULAR = [
  651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690,
  1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499,
  1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300,
  1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716, 1303, 1716, 2048,
];
const BOLD = [
  713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819,
  1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663,
  1585, 2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134, 1458, 1407, 1466,
  1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716, 1507, 1716, 2048,
];
const EXTRA = 'µ×…';

/** Width in pixels of `text` at `size` pixels; characters outside the table count as an em. */
export function textWidth(text: string, size: number, bold = false): number {
  const table = bold ? BOLD : REGULAR;
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const extra = EXTRA.indexOf(ch);
    units += code >= 32 && code <= 126 ? table[code - 32]! : extra >= 0 ? table[95 + extra]! : 2048;
  }
  return (units / 2048) * size;
}

interface TextItem {
  readonly fontSize?: number;
  readonly fontWeight?: string | number;
  readonly limit?: number;
}

/** Make Vega measure text with {@link textWidth} (Vega's `textMetrics`, a process-wide setting). */
export function useFontMetrics(metrics: { width: unknown }): void {
  metrics.width = (item: TextItem, text: unknown): number => {
    const s = text === undefined || text === null ? '' : String(text).trim();
    const weight = item.fontWeight;
    const bold = weight === 'bold' || (typeof weight === 'number' && weight >= 600);
    const w = textWidth(s, item.fontSize ?? 11, bold);
    return item.limit !== undefined && item.limit > 0 ? Math.min(w, item.limit) : w;
  };
}
