// Parses an AsyncAPI document with the official parser (@asyncapi/parser, pinned in package.json)
// and fails on any diagnostic of severity error; prints every diagnostic.
//
//   node validate.mjs ../../asyncapi/asyncapi.json
import { readFileSync } from 'node:fs';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';

const file = process.argv[2];
if (!file) {
  console.error('usage: node validate.mjs <asyncapi.json>');
  process.exit(2);
}
const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(file, 'utf8'), { source: file });
const names = { 0: 'error', 1: 'warning', 2: 'information', 3: 'hint' };
for (const d of diagnostics) {
  console.log(`${names[d.severity] ?? d.severity}: ${d.code}: ${d.message} at /${d.path.join('/')}`);
}
const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
if (errors.length > 0 || !document) {
  console.error(`asyncapi: ${file}: ${errors.length} error(s)`);
  process.exit(1);
}
const messages = document.allMessages().length;
const examples = document.allMessages().all().reduce((n, m) => n + m.examples().length, 0);
console.log(`asyncapi: ${file} is valid AsyncAPI ${document.version()}: ${document.channels().length} channels, ${document.operations().length} operations, ${messages} messages, ${examples} examples`);
