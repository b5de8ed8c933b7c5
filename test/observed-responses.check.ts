// Run by `npm test` after the suite, on its own (not a *.test.ts file): what the tests saw the
// service answer (OBSERVED_RESPONSES_DIR, written by src/platform/http/observed-responses.ts)
// against the OpenAPI document. Every status an operation answered must be one it declares,
// and every 4xx/5xx body must validate against the schema declared for its status and media type.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openApiDocument } from '../src/openapi-document.ts';
import type { ObservedResponse } from '../src/platform/http/observed-responses.ts';

const dir = process.env.OBSERVED_RESPONSES_DIR;

function observations(): ObservedResponse[] {
  assert.ok(dir, 'OBSERVED_RESPONSES_DIR names no directory: `npm test` sets it for the whole suite');
  const out: ObservedResponse[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (line) out.push(JSON.parse(line) as ObservedResponse);
    }
  }
  return out;
}

type Operation = { operationId?: string; responses?: Record<string, unknown> };
const document = openApiDocument('http://localhost:3000') as {
  paths: Record<string, Record<string, Operation>>;
};

function operationOf(o: ObservedResponse): Operation | undefined {
  return document.paths[o.path]?.[o.method.toLowerCase()];
}

function declares(op: Operation | undefined, status: number): boolean {
  const responses = op?.responses ?? {};
  return [String(status), `${String(status)[0]}XX`, 'default'].some((k) => k in responses);
}

/** "GET /api/invoices/{id} (getInvoice)". */
function nameOf(o: ObservedResponse): string {
  const id = operationOf(o)?.operationId;
  return `${o.method} ${o.path}${id ? ` (${id})` : ''}`;
}

/** Groups findings by a key, counting them and naming up to three test files that saw each. */
function grouped(found: ObservedResponse[], key: (o: ObservedResponse) => string): string[] {
  const groups = new Map<string, { n: number; sources: Set<string> }>();
  for (const o of found) {
    const k = key(o);
    const g = groups.get(k) ?? { n: 0, sources: new Set<string>() };
    g.n++;
    g.sources.add(o.source);
    groups.set(k, g);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([k, g]) =>
        `${k}  ×${g.n}  [${[...g.sources].slice(0, 3).join(', ')}${g.sources.size > 3 ? ', …' : ''}]`,
    );
}

describe('what the tests saw the service answer, against its OpenAPI document', () => {
  const seen = observations();

  test('the suite recorded its answers', () => {
    assert.ok(seen.length > 0, `nothing recorded in ${dir}`);
  });

  test("every status an operation answered is among the operation's declared statuses", () => {
    const undeclared = seen.filter((o) => operationOf(o) && !declares(operationOf(o), o.status));
    const list = grouped(undeclared, (o) => `${nameOf(o)} → ${o.status}`);
    assert.equal(list.length, 0, `${list.length} status(es) answered but not declared:\n${list.join('\n')}`);
  });

  test('every 4xx/5xx body validates against the schema declared for its status and media type', () => {
    const invalid = seen.filter((o) => o.status >= 400 && o.validates === false);
    const list = grouped(invalid, (o) => `${nameOf(o)} → ${o.status} ${o.mediaType ?? ''}: ${o.problem}`);
    const example = invalid[0] ? `\nfor example: ${invalid[0].body}` : '';
    assert.equal(
      list.length,
      0,
      `${list.length} kind(s) of error body do not validate:\n${list.join('\n')}${example}`,
    );
  });
});
