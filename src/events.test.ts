// The events the code sends and the events the document describes are one list. Every type
// emitted anywhere in src/ (read from the code: each emit() call's type) is described in the
// OpenAPI document's `webhooks`; every type described there, or offered to subscribers (the
// EventType enum), is emitted or listed as not built yet (src/events.ts); every module's
// declarations are in the registry.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { catalogueDocument } from './catalogue.ts';
import { events, NOT_BUILT_EVENTS } from './events.ts';
import { type EventDefinition, TEST_EVENT_TYPE } from './platform/events/event-types.ts';

const SRC = import.meta.dirname;
const OUTBOX = join(SRC, 'platform', 'events', 'outbox.ts');

/** The service's own source files: tests, factories and fixtures aside. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|factories|fixtures)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * The types an emit() call can send, read from its second argument: a string literal; a
 * constant of the file holding one; or a parameter whose type is a union of literals declared
 * in the file. Anything else is reported, so that what is emitted stays readable here.
 */
function typesOf(text: string, argument: string): string[] | undefined {
  const literal = /^'([^']+)'$/.exec(argument);
  if (literal) return [literal[1]!];
  if (!/^\w+$/.test(argument)) return undefined;
  const constant = new RegExp(`\\bconst ${argument}\\s*=\\s*'([^']+)'`).exec(text);
  if (constant) return [constant[1]!];
  const parameter = new RegExp(`\\b${argument}: (\\w+)`).exec(text);
  const alias = parameter && new RegExp(`\\btype ${parameter[1]} =([^;]+);`).exec(text);
  const members = alias ? [...alias[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!) : [];
  return members.length ? members : undefined;
}

interface Emission {
  type: string;
  at: string;
}

function emittedInCode(): { emissions: Emission[]; unreadable: string[]; unchecked: string[] } {
  const emissions: Emission[] = [];
  const unreadable: string[] = [];
  const unchecked: string[] = [];
  for (const file of sourceFiles()) {
    if (file === OUTBOX) continue;
    const text = readFileSync(file, 'utf8');
    const name = relative(SRC, file);
    for (const call of text.matchAll(/\bemit\(\s*[\w.]+\s*,\s*([^,]+?)\s*,/g)) {
      const at = `${name}:${lineOf(text, call.index)}`;
      const types = typesOf(text, call[1]!);
      if (types) for (const type of types) emissions.push({ type, at });
      else unreadable.push(`${at}: ${call[1]}`);
    }
    for (const call of text.matchAll(/\bemitUnchecked\(/g))
      unchecked.push(`${name}:${lineOf(text, call.index)}`);
  }
  return { emissions, unreadable, unchecked };
}

const document = catalogueDocument('http://localhost') as {
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, { enum?: string[] }> };
};
const documented = new Set(Object.keys(document.webhooks).filter((type) => type !== TEST_EVENT_TYPE));
const notBuilt = new Set(NOT_BUILT_EVENTS.map((e) => e.type));
const { emissions, unreadable, unchecked } = emittedInCode();
const emitted = new Set(emissions.map((e) => e.type));

describe('events: the code, the registry and the document agree', () => {
  test('every emit() names its type readably, and only the outbox writes unchecked', () => {
    assert.ok(emissions.length > 0, 'the scan finds the emit() calls');
    assert.deepEqual(unreadable, [], 'emit() calls whose type cannot be read: pass a literal or a constant');
    assert.deepEqual(unchecked, [], 'emitUnchecked() outside the outbox: declare the event and use emit()');
  });

  test('every type emitted anywhere in src/ is described in the webhooks', () => {
    const missing = emissions.filter((e) => !documented.has(e.type)).map((e) => `${e.type} (${e.at})`);
    assert.deepEqual(missing, [], 'emitted but not in the OpenAPI webhooks');
  });

  test('every described type is emitted; the not built ones are neither emitted nor described', () => {
    assert.deepEqual(
      [...documented].filter((type) => !emitted.has(type)).sort(),
      [],
      'described, never emitted',
    );
    assert.deepEqual([...notBuilt].filter((type) => emitted.has(type) || documented.has(type)).sort(), []);
  });

  test('every type offered to subscribers is described or listed as not built yet', () => {
    const offered = document.components.schemas.EventType?.enum ?? [];
    assert.ok(offered.length > 0, 'the EventType enum');
    assert.deepEqual(
      offered.filter((type) => !documented.has(type) && !notBuilt.has(type)),
      [],
      'subscribable, but neither sent nor listed as not built',
    );
    assert.deepEqual([...offered].sort(), events.all.map((e) => e.type).sort());
  });

  test("every module's declared events are in the registry", async () => {
    const modules = join(SRC, 'modules');
    const declared: string[] = [];
    for (const file of sourceFiles(modules).filter((f) => f.endsWith('.events.ts'))) {
      for (const value of Object.values(await import(file)))
        if (Array.isArray(value)) declared.push(...(value as EventDefinition[]).map((e) => e.type));
    }
    assert.ok(declared.length > 0, 'the modules declare events');
    assert.deepEqual(declared.sort(), events.emitted.map((e) => e.type).sort());
  });
});
