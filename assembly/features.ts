// The feature-extraction cores, compiled from the very files the TypeScript build runs
// (src/cost/core): the differential test holds the two builds to the same bits.

import './portable';

export { rowLengthFeatures } from '../src/cost/core/row-lengths';
export { scanRows, scanDraws, bandwidthOf } from '../src/cost/core/entry-scan';
export { graphFeatures } from '../src/cost/core/bfs-levels';
export { reuseWindow } from '../src/cost/core/reuse';
