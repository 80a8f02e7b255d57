// Exits 0 (build step skipped) when npx is linking this checkout into its cache to run the `dype`
// bin and the checkout is already built; exits 1 (build) otherwise. npm 10+ runs the package's
// install and prepare scripts again for that link, which rebuilt the native addon, the
// WebAssembly and the TypeScript on the first `npx dype` after `npm install` (a minute here).
// Usage in package.json: `node scripts/built-already.mjs || <build command>`.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputs = ['build/Release/dype_native.node', 'wasm/dype.wasm', 'dist/cli/main.js'];
const underNpx = process.env.npm_command === 'exec';
process.exit(underNpx && outputs.every((f) => existsSync(join(root, f))) ? 0 : 1);
