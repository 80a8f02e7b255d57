// Where a command's matrix comes from: a file (format chosen by extension, .gz allowed) or a
// seeded generator spec such as `kronecker:scale=16`.

import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CsrMatrix } from '../data/csr.js';
import { generate, parseGeneratorSpec } from '../generators/index.js';
import { loadEdgeList, loadMatrixMarket, loadMetis } from '../io/index.js';
import { packageRoot } from '../native/addon.js';
import { UsageError } from './usage-error.js';

export interface LoadedInput {
  readonly matrix: CsrMatrix;
  /** Short name for titles and tables: the file name or the generator spec. */
  readonly label: string;
  readonly origin: 'file' | 'generated';
  /** Wall time to load or generate, in milliseconds. */
  readonly ms: number;
}

export const DEFAULT_GENERATOR = 'kronecker:scale=16,edgeFactor=16,seed=1';

/** Named generator specs from datasets/presets.json (for example `kron18`, `road`). */
export function presets(): Record<string, { spec: string; about: string }> {
  return JSON.parse(readFileSync(join(packageRoot, 'datasets', 'presets.json'), 'utf8')) as Record<string, { spec: string; about: string }>;
}

const FORMATS = [
  { test: /\.mtx(\.gz)?$/i, name: 'Matrix Market' },
  { test: /\.(graph|metis)(\.gz)?$/i, name: 'METIS' },
  { test: /\.(txt|el|edges|tsv|csv)(\.gz)?$/i, name: 'SNAP edge list' },
] as const;

export async function loadInput(command: string, data: string | undefined, spec: string | undefined): Promise<LoadedInput> {
  if (data !== undefined && spec !== undefined) throw new UsageError(`${command}: give --data or --generate, not both`);
  const t0 = performance.now();
  if (data !== undefined) {
    const format = FORMATS.find((f) => f.test.test(data));
    let matrix: CsrMatrix;
    if (format?.name === 'Matrix Market') {
      const m = await loadMatrixMarket(data);
      if (!('colIdx' in m)) throw new UsageError(`${command}: ${data} holds a dense (array) matrix; a sparse (coordinate) one is needed`);
      matrix = m;
    } else if (format?.name === 'METIS') {
      matrix = await loadMetis(data);
    } else if (format?.name === 'SNAP edge list') {
      matrix = (await loadEdgeList(data)).matrix;
    } else {
      throw new UsageError(`${command}: cannot tell the format of ${JSON.stringify(data)}: use .mtx, .graph/.metis or .txt/.el/.edges (optionally .gz)`);
    }
    return { matrix, label: basename(data), origin: 'file', ms: performance.now() - t0 };
  }
  const named = spec !== undefined && !spec.includes(':') ? presets()[spec] : undefined;
  const text = named?.spec ?? spec ?? DEFAULT_GENERATOR;
  const matrix = generate(parseGeneratorSpec(text));
  return { matrix, label: spec !== undefined && named ? `${spec} (${text})` : text, origin: 'generated', ms: performance.now() - t0 };
}
