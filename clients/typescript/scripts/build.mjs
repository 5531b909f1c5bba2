// Builds the package (`npm run build`; `npm pack` runs it as `prepack`): checks that the client
// has been generated (src/generated/, by `npm run generate`: it is not committed), empties
// dist/, compiles src/ with tsc (tsconfig.build.json: ESM and .d.ts), and copies the
// repository's licence files next to package.json, where npm takes them from.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repository = path.resolve(root, '../..');

if (!existsSync(path.join(root, 'src/generated/index.ts'))) {
  console.error('build: no src/generated/: run `npm run generate` first (from the server\'s spec)');
  process.exit(1);
}
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (run.status !== 0) {
  console.error('build: tsc failed');
  process.exit(1);
}
for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
  copyFileSync(path.join(repository, licence), path.join(root, licence));
}
console.log('build: wrote dist/');
