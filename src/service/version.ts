// dype's version as package.json says it (told in the handshake, shown by `status`).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../native/addon.js';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}
