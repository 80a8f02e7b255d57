import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The end-to-end CLI tests run the built dist/cli/main.js: rebuilt first when src/ is newer.
    // Every test process gets a temporary folder of its own, removed at the end (test/support/temp-sandbox.ts).
    globalSetup: ['test/support/temp-sandbox.ts', 'test/support/build-cli.ts'],
    // Native kernels use every core already; two vitest workers is the most a 2-core CI box can take.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
