// Generates the typed client (src/generated/) from the server's OpenAPI spec with
// @hey-api/openapi-ts.
//
//   npm run generate                        # http://127.0.0.1:$PORT/openapi.json (PORT: 8080)
//   npm run generate -- http://host:port/openapi.json
//   npm run generate -- ../../openapi/openapi.yaml
//
// With no argument and no server answering (or a server that does not serve its spec yet: 404),
// the checked-in ../../openapi/openapi.yaml is used instead, and the script says so. A spec URL
// given explicitly must answer, except with 404 (a server from before `GET /openapi.json`).
import { createClient } from '@hey-api/openapi-ts';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const checkedIn = path.resolve(root, '../../openapi/openapi.yaml');
const output = path.join(root, 'src/generated');

const given = process.argv[2];
const url = given ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}/openapi.json`;

/** The spec to generate from: a parsed JSON document (from a URL) or a file path. */
async function resolveInput() {
  if (!/^https?:\/\//.test(url)) return path.resolve(process.cwd(), url);
  let response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    if (given) throw new Error(`cannot fetch the spec from ${url}: ${error.cause?.message ?? error}`);
    console.warn(`generate: no server at ${url}; using ${path.relative(process.cwd(), checkedIn)}`);
    return checkedIn;
  }
  if (response.status === 404) {
    console.warn(`generate: ${url} answered 404 (a server without GET /openapi.json); using ${path.relative(process.cwd(), checkedIn)}`);
    return checkedIn;
  }
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  console.log(`generate: from ${url}`);
  return await response.json();
}

const input = await resolveInput();
await createClient({
  input,
  output: { path: output, tsConfigPath: path.join(root, 'tsconfig.json') },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
  logs: { level: 'warn', file: false },
});
console.log(`generate: wrote ${path.relative(process.cwd(), output)}`);
