// Issue 35, item 6: the schema basics and the account-number masker are defined once. This
// fails when a module writes its own id schema (the uuid format) or its own masker again, and
// when a route's path parameters are not closed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { catalogue } from '../../catalogue.ts';

const SRC = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

/** Lines of files other than `allowed` that match `pattern`, as `file:line`. */
function offenders(pattern: RegExp, allowed: string[]): string[] {
  return files
    .filter((f) => !allowed.includes(f.path))
    .flatMap((f) =>
      f.text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${f.path}:${i + 1}`] : [])),
    );
}

test('an id schema (the uuid format) is written in platform/http/schema-basics.ts only', () => {
  // openapi.ts writes two raw parts of the document (the X-Company-Id header, the webhook
  // envelope) that are JSON of the document, not schemas a request is validated against.
  assert.deepEqual(
    offenders(/format: 'uuid'/, ['platform/http/schema-basics.ts', 'platform/http/openapi.ts']),
    [],
  );
});

test('an account number is masked by platform/secrets/masked.ts only', () => {
  assert.deepEqual(offenders(/••••\$\{|'••••'\s*\+/, ['platform/secrets/masked.ts']), []);
});

test("every route's path parameters are closed", () => {
  const open = catalogue
    .filter(
      (r) => r.params && (r.params as { additionalProperties?: unknown }).additionalProperties !== false,
    )
    .map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(open, []);
});
