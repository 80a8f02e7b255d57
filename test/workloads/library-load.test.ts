// loadWorkload reads a user's workload file: IoError when it cannot be read, FormatError naming
// the path when it is not JSON or not a valid workload, the workload otherwise.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError, InvalidArgumentError, IoError } from '../../src/errors.js';
import { loadWorkload } from '../../src/workloads/library.js';
import { layerDefinition, rejectionOf } from './workload-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'dype-workloads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('loadWorkload', () => {
  it('loads a valid file, labelling it by its path', async () => {
    const path = file('layer.json', JSON.stringify(layerDefinition(), null, 2));
    const w = await loadWorkload(path);
    expect(w.name).toBe('layer');
    expect(w.stream).toBe(false);
    expect(w.definition).toEqual(layerDefinition());
    expect(w.order).toEqual([0, 1]);
  });

  it('rejects a missing file with an IoError naming the path', async () => {
    const path = join(dir, 'absent.json');
    const e = await rejectionOf(loadWorkload(path));
    expect(e).toBeInstanceOf(IoError);
    expect(e.code).toBe('ERR_IO');
    expect((e as IoError).path).toBe(path);
    expect(e.message).toContain(`loadWorkload: cannot access ${JSON.stringify(path)}`);
  });

  it('rejects a directory with an IoError', async () => {
    expect(await rejectionOf(loadWorkload(dir))).toBeInstanceOf(IoError);
  });

  it('rejects malformed JSON with a FormatError naming the path', async () => {
    const path = file('broken.json', '{ "name": "layer", ');
    const e = await rejectionOf(loadWorkload(path));
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).file).toBe(path);
    expect(e.message.startsWith(`loadWorkload: ${path}: not valid JSON (`)).toBe(true);
    expect(e.cause).toBeInstanceOf(SyntaxError);
  });

  it('rejects valid JSON that is not a valid workload, naming the path and the field', async () => {
    const d = layerDefinition();
    d['outputs'] = ['nope'];
    const path = file('wrong.json', JSON.stringify(d));
    const e = await rejectionOf(loadWorkload(path));
    expect(e).toBeInstanceOf(FormatError);
    expect(e.message).toBe(`defineWorkload: ${path}: outputs[0]: "nope" is not an operator id`);
  });

  it('refuses a path that is empty or not a string before reading anything', async () => {
    expect(await rejectionOf(loadWorkload(''))).toBeInstanceOf(InvalidArgumentError);
    const e = await rejectionOf(loadWorkload(3 as unknown as string));
    expect(e.message).toBe('loadWorkload: path must be a non-empty string, got 3');
  });
});
