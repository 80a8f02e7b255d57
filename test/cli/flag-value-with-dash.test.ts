// A flag's value that starts with a dash (`--deadline -1ms`, `--source -3`) is refused in one
// line that names the flag and the value: it printed parseArgs' three lines ("Option '--deadline'
// argument is ambiguous. Did you forget to specify the option argument ...").

import { expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

it('names the flag and the value in one line, and says how to pass it', async () => {
  const r = await runCli(['explore', '--deadline', '-1ms', '--no-plot']);
  expect(r.code).toBe(2);
  expect(r.err).toBe(
    'dype: explore: --deadline takes a value, and "-1ms" after it starts with a dash, so it reads as an option; write --deadline=-1ms to pass it as the value\n',
  );
});

it('passed as --flag=value, the value meets the flag check itself', async () => {
  const r = await runCli(['explore', '--deadline=-1ms', '--no-plot']);
  expect(r.code).toBe(2);
  expect(r.err).toBe('dype: explore: --deadline must be a positive number of seconds (e.g. 0.002, 2ms or 500us), got "-1ms"\n');
});

it('holds for every command that parses flags', async () => {
  const r = await runCli(['run', 'bfs', '--source', '-3', '--no-plot', '--no-trace']);
  expect(r.code).toBe(2);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/^dype: run: --source takes a value, and "-3" after it starts with a dash/);
});
