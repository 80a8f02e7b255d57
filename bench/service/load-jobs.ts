// The job mix of the service load bench: shipped workloads on the shared datasets, with
// generated graphs of the same kind standing in where the datasets folder is absent.

import type { CsrMatrix } from '../../src/data/csr.js';
import { generate } from '../../src/generators/index.js';
import { loadDataset } from '../common/datasets.js';

export interface LoadJob {
  readonly workload: string;
  /** A dataset's name (`cora`), looked up in the shared datasets. */
  readonly input: string;
  readonly params?: Readonly<Record<string, number>>;
}

/** GCN and GraphSAGE on a citation graph, BFS and 16-source BFS on an e-mail graph, SpMM on a social graph. */
export const JOB_MIX: readonly LoadJob[] = [
  { workload: 'gcn', input: 'cora' },
  { workload: 'sage', input: 'cora' },
  { workload: 'bfs', input: 'email-Enron' },
  { workload: 'msbfs', input: 'email-Enron', params: { sources: 16 } },
  { workload: 'spmm', input: 'facebook_combined' },
];

/** Stand-ins of about the datasets' sizes, for a checkout without them. */
const STAND_INS: Record<string, () => CsrMatrix> = {
  cora: () => generate({ kind: 'kronecker', scale: 11, edgeFactor: 2, seed: 11 }),
  'email-Enron': () => generate({ kind: 'kronecker', scale: 15, edgeFactor: 5, seed: 12 }),
  facebook_combined: () => generate({ kind: 'kronecker', scale: 12, edgeFactor: 22, seed: 13 }),
};

/** Every input the mix names: the dataset, or its generated stand-in (and which, for the report). */
export async function loadInputs(mix: readonly LoadJob[], notes?: string[]): Promise<Map<string, CsrMatrix>> {
  const out = new Map<string, CsrMatrix>();
  for (const { input } of mix) {
    if (out.has(input)) continue;
    const loaded = await loadDataset(input, 'f32');
    if (loaded.matrix) out.set(input, loaded.matrix);
    else {
      out.set(input, STAND_INS[input]!());
      notes?.push(`${input}: ${loaded.reason}; a generated stand-in of about its size is used`);
    }
  }
  return out;
}
