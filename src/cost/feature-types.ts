// What the cost model knows about an input before running anything: the structure of a sparse
// matrix (what SpMM and SpMV cost) and of a graph (what BFS costs). Computed in WebAssembly.

/** Number of buckets of the log2 histograms below. */
export const LOG2_BUCKETS = 33;

/** How a figure was obtained: from every row, or from a sample with a stated error bound. */
export type Coverage =
  | { readonly state: 'exact' }
  | {
      readonly state: 'sampled';
      /** Rows examined. */
      readonly rows: number;
      /** Fraction of rows examined. */
      readonly fraction: number;
      /**
       * Bound on the absolute error of the sampled fractions (sameLine, samePage, the normalised
       * gap histogram) holding with probability 0.99 (Hoeffding).
       */
      readonly errorBound: number;
    };

/** A power-law fit of the row-length distribution (discrete MLE above xmin). */
export type PowerLaw =
  | { readonly state: 'fitted'; readonly alpha: number; readonly xmin: number; readonly tailRows: number }
  | { readonly state: 'not-fitted'; readonly reason: string };

/** Structure of a sparse matrix. */
export interface MatrixFeatures {
  readonly rows: number;
  readonly cols: number;
  readonly nnz: number;
  /** nnz / (rows * cols); 0 for an empty shape. */
  readonly density: number;
  readonly rowLength: {
    readonly mean: number;
    /** Coefficient of variation (standard deviation / mean); 0 when the mean is 0. */
    readonly cv: number;
    readonly max: number;
    /** Gini coefficient of row lengths in [0, 1): 0 when every row is equally long. */
    readonly gini: number;
    /** Rows without entries. */
    readonly empty: number;
    /** histogram[0]: empty rows; histogram[b], b >= 1: rows with length in [2^(b-1), 2^b). */
    readonly histogram: Float64Array;
  };
  /** Largest |col - row| over the entries (the bandwidth of a banded matrix). */
  readonly bandwidth: number;
  /** Mean |col - row| over the entries. */
  readonly meanDistance: number;
  /**
   * Gaps between consecutive column indices within a row: gaps[0] counts gaps of 0 (duplicates),
   * gaps[b], b >= 1, gaps in [2^(b-1), 2^b). Lets the model work out, for any width of a row of
   * X, how often a gather lands on the cache line or page of the previous one.
   */
  readonly columnGaps: Float64Array;
  /** Fraction of within-row consecutive pairs whose columns share a 16-column block (one 64-byte line of 4-byte elements). */
  readonly sameLine: number;
  /** Fraction sharing a 1024-column block (one 4 KiB page of 4-byte elements). */
  readonly samePage: number;
  readonly powerLaw: PowerLaw;
  /**
   * Reuse distances of the gathers of X, in storage order: for each entry, how many entries back
   * its column (`columns`) or its 16-column block (`blocks16`: one 64-byte line of 4-byte
   * elements) was last gathered. Index 0 counts first touches; b >= 1 distances in [2^(b-1), 2^b).
   * A cache holding R rows of X serves roughly the entries whose distance is below R. Over every
   * entry up to 2^18 entries, else over four evenly spread windows of 2^16 entries (`entries`).
   */
  readonly reuse: { readonly columns: Float64Array; readonly blocks16: Float64Array; readonly entries: number };
  /** Whether the gap and locality figures came from every row or a sample. */
  readonly coverage: Coverage;
}

/** BFS-relevant structure of a square graph, from a few sampled sources. */
export interface GraphFeatures {
  /** The sources searched (vertices with at least one out-edge, spread over the id range). */
  readonly sources: Int32Array;
  /** Largest number of levels over the samples (eccentricity + 1 of the deepest source). */
  readonly levels: number;
  /** Mean number of levels over the sampled sources (what a typical search from them pays). */
  readonly meanLevels: number;
  /** Diameter estimate: the largest eccentricity found, including a second sweep from the deepest vertex. */
  readonly diameterEstimate: number;
  /** Mean over the samples of the fraction of vertices discovered at each level (index 0: the source). */
  readonly frontier: Float64Array;
  /** Mean over the samples of the fraction of stored entries leaving each level's vertices. */
  readonly frontierEdges: Float64Array;
  /** Mean fraction of vertices reached from a sampled source. */
  readonly reached: number;
  /**
   * Locality of a search's gathers in the order it makes them: over the sampled searches, how
   * many edge visits found their target vertex (and its 16-vertex block) visited 2^(b-1) to 2^b
   * visits before (bucket b >= 1), or not yet in that search (bucket 0). A cache holding R
   * vertices' state serves about the visits below R.
   */
  readonly searchReuse: { readonly vertices: Float64Array; readonly blocks16: Float64Array };
}
