// Runs for repeatInRounds's tests: each take reports the next of `seconds` and, through the
// unaided counter (asked just before each take), the next of `unaided`.

export function scriptedRuns(seconds: readonly number[], unaided: readonly number[], otherwise = 0.01) {
  let take = 0;
  // The counter is asked first (just before each take), so the take under way is `take - 1`.
  const run = async () => ({ seconds: seconds[take - 1] ?? otherwise });
  const counter = () => {
    const u = unaided[take] ?? 0;
    take++;
    return () => u;
  };
  return { run, counter, takes: () => take };
}
