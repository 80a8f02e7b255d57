// After `tsc`: the declarations of the portable cores (dist/cost/core/*.d.ts) name AssemblyScript's
// built-in types (i32, f64, usize), which src/cost/core/portable.d.ts declares globally for the
// build but which is not emitted, so a consumer type-checking with `skipLibCheck: false` got
// TS2304 "cannot find name 'i32'" about a hundred times. Each such file gets the same types as
// local aliases of `number` (what they are in the TypeScript build), declared for that file alone.
// Usage: node scripts/portable-declarations.mjs [dist]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = join(process.argv[2] ?? 'dist', 'cost', 'core');
const TYPES = ['i32', 'f64', 'usize'];
const MARK = '// AssemblyScript built-in types as in the TypeScript build (scripts/portable-declarations.mjs).';
let changed = 0;
for (const name of readdirSync(folder)) {
  if (!name.endsWith('.d.ts')) continue;
  const path = join(folder, name);
  const text = readFileSync(path, 'utf8');
  if (text.startsWith(MARK)) continue;
  // Quoted text aside, which of the types does the file name?
  const code = text.replace(/(['"])(?:\\.|(?!\1).)*\1/g, '""');
  const used = TYPES.filter((t) => new RegExp(`\\b${t}\\b`).test(code));
  if (used.length === 0) continue;
  writeFileSync(path, `${MARK}\n${used.map((t) => `type ${t} = number;`).join('\n')}\n${text}`);
  changed++;
}
console.log(`portable-declarations: ${changed} declaration file(s) in ${folder} given local AssemblyScript types`);
