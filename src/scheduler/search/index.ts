// The table of search strategies, by name, and the rule that picks one for a space.

import { describe, InvalidArgumentError } from '../../errors.js';
import { exhaustive } from './exhaustive.js';
import { nsga2 } from './nsga2.js';
import { spaceSize, type SearchStrategy } from './types.js';

export { EXHAUSTIVE_MAX, exhaustive } from './exhaustive.js';
export { nsga2 } from './nsga2.js';
export { spaceSize, type SearchOptions, type SearchProblem, type SearchResult, type SearchStrategy } from './types.js';

/** Every search strategy, by name. */
export const STRATEGIES: ReadonlyMap<string, SearchStrategy> = new Map([exhaustive, nsga2].map((s): [string, SearchStrategy] => [s.name, s]));

/**
 * The strategy for a space: exhaustive when it has at most `exhaustiveLimit` genomes (its
 * front is then exact), nsga2 above.
 *
 * @throws {InvalidArgumentError} when `cardinality` is not an Int32Array or `exhaustiveLimit`
 *   is not a number in [0, 2e6].
 * @example
 * chooseStrategy(new Int32Array(8).fill(4)).name;  // 'exhaustive' (65536 genomes)
 * chooseStrategy(new Int32Array(8).fill(15)).name; // 'nsga2'
 */
export function chooseStrategy(cardinality: Int32Array, exhaustiveLimit = 1e5): SearchStrategy {
  if (!(cardinality instanceof Int32Array)) {
    throw new InvalidArgumentError(`chooseStrategy: cardinality must be an Int32Array, got ${describe(cardinality)}`);
  }
  if (typeof exhaustiveLimit !== 'number' || !(exhaustiveLimit >= 0 && exhaustiveLimit <= 2e6)) {
    throw new InvalidArgumentError(`chooseStrategy: exhaustiveLimit must be a number in [0, 2000000], got ${describe(exhaustiveLimit)}`);
  }
  return spaceSize(cardinality) <= exhaustiveLimit ? exhaustive : nsga2;
}
