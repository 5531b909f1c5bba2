// Generates the typed client (src/generated/) from the server's OpenAPI spec with
// @hey-api/openapi-ts.
//
//   npm run generate                              # the served spec: http://127.0.0.1:$PORT/openapi.json (PORT: 8080)
//   npm run generate -- http://host:port/openapi.json
//   npm run generate -- ../../openapi/openapi.json   # a file: the checked-in copy of the served spec
//
// The spec must be there: a server that does not answer, or answers anything but 200, fails the
// run (no fallback: a client generated from anything but the spec the server runs could be stale).
import { createClient } from '@hey-api/openapi-ts';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const output = path.join(root, 'src/generated');

const source = process.argv[2] ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}/openapi.json`;

/** The spec to generate from: a parsed JSON document (from a URL) or a file path. */
async function resolveInput() {
  if (!/^https?:\/\//.test(source)) {
    const file = path.resolve(process.cwd(), source);
    if (!existsSync(file)) throw new Error(`no spec at ${file}`);
    console.log(`generate: from ${path.relative(process.cwd(), file)}`);
    return file;
  }
  let response;
  try {
    response = await fetch(source, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`cannot fetch the spec from ${source}: ${error.cause?.message ?? error}`);
  }
  if (!response.ok) throw new Error(`${source} answered ${response.status}`);
  console.log(`generate: from ${source}`);
  return await response.json();
}

try {
  const input = await resolveInput();
  await createClient({
    input,
    output: { path: output, tsConfigPath: path.join(root, 'tsconfig.json') },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'warn', file: false },
  });
  console.log(`generate: wrote ${path.relative(process.cwd(), output)}`);
} catch (error) {
  console.error(`generate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
