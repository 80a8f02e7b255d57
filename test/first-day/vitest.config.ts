// The first-day checks (CI, `npm run test:first-day`): what a new user does on their first day,
// run as they would. Each takes minutes (packing and installing the package, running every
// documented command, a headless browser), so they stay out of `npm test`.

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/first-day/*.check.ts'],
    globalSetup: ['test/support/temp-sandbox.ts', 'test/support/build-cli.ts'],
    pool: 'forks',
    // One at a time: each check builds or runs the whole package already.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
