// Beamer's direction-optimising BFS switches between top-down and bottom-up steps by two
// thresholds; every layer that runs, replays or prices such a search uses these, so a search
// and its prediction never follow different rules.

/**
 * Go bottom-up when the frontier's out-edges exceed the unexplored edges / alpha (the GAP
 * benchmark's value; Beamer, Asanović and Patterson, SC 2012).
 */
export const BEAMER_ALPHA = 15;

/** Return top-down when the frontier falls below n / beta vertices. */
export const BEAMER_BETA = 18;
