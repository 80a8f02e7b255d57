// The cost model's arithmetic, compiled from the very file the TypeScript build runs
// (src/cost/core/cost-terms.ts): the differential test holds the two builds to the same bits.

import './portable';

export {
  MF_FIELDS,
  MF_GAP_BUCKETS,
  GF_FIELDS,
  SPMM_TERMS,
  BFS_TERMS,
  MSBFS_TERMS,
  spmmTerms,
  bfsTerms,
  bfsLevelTerms,
  msbfsTerms,
  dot,
  predictSpmm,
  predictBfs,
  predictBfsLevel,
  predictMsbfs,
} from '../src/cost/core/cost-terms';
