// Exits 0 (build step skipped) when this checkout is already built and npm is running its install
// and prepare scripts on behalf of another folder; exits 1 (build) otherwise. Two such cases:
// - npx linking this checkout into its cache to run the `dype` bin (npm 10+ runs the scripts
//   again for that link, which rebuilt the native addon, the WebAssembly and the TypeScript on
//   the first `npx dype` after `npm install`: a minute here);
// - `npm install <this folder>` from another project, which links the folder and ran the whole
//   build again inside it.
// A tarball install (`npm install dype-x.y.z.tgz`) has no build/ yet, so it builds the addon.
// Usage in package.json: `node scripts/built-already.mjs || <build command>`.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outputs = ['build/Release/dype_native.node', 'wasm/dype.wasm', 'dist/cli/main.js'];
const real = (p) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
const underNpx = process.env.npm_command === 'exec';
const forAnotherProject = process.env.INIT_CWD !== undefined && real(process.env.INIT_CWD) !== real(root);
process.exit((underNpx || forAnotherProject) && outputs.every((f) => existsSync(join(root, f))) ? 0 : 1);
