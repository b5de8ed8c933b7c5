// Text rules of every input (input-rules.ts): a NUL character anywhere in a body, a query or a
// path is a 400 naming the field, never the 500 PostgreSQL's refusal (22021) used to give; the
// other control characters are refused in short strings (names, numbers, codes, e-mails) and
// kept in long free text. Issue 15, defect 1.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import {
  as,
  type Registered,
  register,
  sha256,
  startTestApp,
  type TestApp,
} from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { stringFields } from '../../../test/support/string-fields.ts';
import { catalogue } from '../../catalogue.ts';
import { makeKey } from '../auth/api-keys.factories.ts';
import { type AnyRoute, FORM_CONTENT_TYPE } from './catalogue.ts';
import { CONTROL_MESSAGE, NUL_MESSAGE } from './input-rules.ts';
import { encodeMultipart, fileFieldsOf, MULTIPART_CONTENT_TYPE } from './multipart.ts';

let t: TestApp;
let a: Registered;
/** Tenant A's API key itself, for the routes that take only the key (raw-key.ts). */
let rawKey: string;
before(async () => {
  t = await startTestApp();
  a = await register(t.app);
  rawKey = (await makeKey(t.app, a.token, { scopes: ['full'] })).key;
});
after(() => t.close());

const NUL = 'Karoo\u0000Kitchens';

interface Named {
  field: string;
  message: string;
}

/**
 * The 400's `errors` name `field` (or a member of it) with `message`. OAuth's token endpoint
 * answers the same problem as RFC 6749's application/json body (framework-errors.test.ts).
 */
function assertNames(res: LightMyRequestResponse, field: string, message: string, context: string) {
  const oauth = /^application\/json/.test(String(res.headers['content-type']));
  assert.equal(res.statusCode, 400, `${context}: ${res.body}`);
  const body = oauth ? res.json() : assertProblem(res, 400, context);
  const errors = body.errors as Named[];
  assert.ok(
    errors.some((e) => (e.field === field || e.field.startsWith(`${field}[`)) && e.message === message),
    `${context}: ${field} "${message}" not among ${JSON.stringify(errors)}`,
  );
}

describe('NUL and control characters in input', () => {
  test("the issue's examples: sign-in, registration, a search, a journal, the audit log's filters", async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: `owner\u0000@example.co.za`, password: sha256('x') },
    });
    assertNames(login, 'email', NUL_MESSAGE, 'login');
    const registration = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { tenantName: NUL, name: 'Owner', email: 'nul@example.co.za', password: sha256('x') },
    });
    assertNames(registration, 'tenantName', NUL_MESSAGE, 'register');
    const call = as(t.app, a.token, a.companyId);
    assertNames(await call({ method: 'GET', url: '/api/contacts?q=a%00b' }), 'q', NUL_MESSAGE, 'contacts q');
    const journal = await call({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-03-31',
        description: NUL,
        lines: [
          { accountCode: '6100', debit: 1 },
          { accountCode: '1000', credit: 1 },
        ],
      },
    });
    assertNames(journal, 'description', NUL_MESSAGE, 'journal');
    for (const filter of ['action', 'resource', 'resourceId']) {
      const res = await call({ method: 'GET', url: `/api/audit-log?${filter}=x%00` });
      assertNames(res, filter, NUL_MESSAGE, `audit log ${filter}`);
    }
  });

  test('a NUL in a path parameter is a 400, not a 500', async () => {
    const res = await as(t.app, a.token, a.companyId)({ method: 'GET', url: '/api/contacts/%00' });
    assertProblem(res, 400);
  });

  test('control characters: refused in a name, kept in long free text; tab, CR and LF pass', async () => {
    const call = as(t.app, a.token, a.companyId);
    for (const bad of ['\u0001', '\u0007', '\u001b', '\u007f']) {
      const res = await call({ method: 'POST', url: '/api/contacts', payload: { name: `Karoo${bad}` } });
      assertNames(res, 'name', CONTROL_MESSAGE, `name with U+${bad.charCodeAt(0).toString(16)}`);
    }
    const kept = await call({
      method: 'POST',
      url: '/api/contacts',
      // notes: up to 5,000 characters, free text; the name has a tab (pasted from a sheet).
      payload: { name: 'Karoo\tKitchens', notes: 'Ring the bell\u0007 twice\r\nthen wait' },
    });
    assert.equal(kept.statusCode, 201, kept.body);
    assert.equal(kept.json().notes, 'Ring the bell\u0007 twice\r\nthen wait');
    const nulInNotes = await call({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'K', notes: NUL },
    });
    assertNames(nulInNotes, 'notes', NUL_MESSAGE, 'NUL in free text');
  });
});

describe('every string of every route refuses NUL (the catalogue)', () => {
  // An id where the path names one; a name from its closed list where it names one of a few.
  const fill = (path: string, route?: AnyRoute) =>
    path.replace(/\{(\w+)\}/g, (_, p: string) => {
      const named = (route?.params as { properties?: Record<string, { enum?: string[] }> } | undefined)
        ?.properties?.[p]?.enum;
      return named?.[0] ?? crypto.randomUUID();
    });

  test('every string field of every write body: 400 naming it', async () => {
    let checked = 0;
    for (const route of catalogue) {
      if (!route.body || route.method === 'GET') continue;
      for (const { field, holding } of stringFields(route.body)) {
        if (!field) continue;
        const value = holding(NUL) as Record<string, unknown>;
        const form = route.consumes === FORM_CONTENT_TYPE;
        const multipart = route.consumes === MULTIPART_CONTENT_TYPE;
        // A file part is bytes, any bytes (NUL included): only its text fields are checked.
        if (multipart && fileFieldsOf(route.body).includes(field)) continue;
        const res = await as(
          t.app,
          route.auth !== 'none' && route.security === 'apiKey' ? rawKey : a.token,
          a.companyId,
        )({
          method: route.method,
          url: fill(route.path, route),
          ...(form
            ? {
                headers: { 'content-type': FORM_CONTENT_TYPE },
                payload: new URLSearchParams(value as Record<string, string>).toString(),
              }
            : multipart
              ? encodeMultipart(value, fileFieldsOf(route.body))
              : { payload: value }),
        });
        assertNames(res, field, NUL_MESSAGE, `${route.method} ${route.path} ${field}`);
        checked++;
      }
    }
    assert.ok(checked > 250, `only ${checked} fields checked`);
  });

  test('every string parameter of every query: 400 naming it', async () => {
    let checked = 0;
    for (const route of catalogue) {
      if (!route.query) continue;
      for (const { field, holding } of stringFields(route.query)) {
        const name = field.replace(/\[0\]$/, '');
        if (!name || name.includes('.')) continue;
        const value = (holding(NUL) as Record<string, unknown>)[name];
        const query = new URLSearchParams();
        for (const v of Array.isArray(value) ? value : [value]) query.append(name, String(v));
        const res = await as(
          t.app,
          a.token,
          a.companyId,
        )({
          method: route.method,
          url: `${fill(route.path, route)}?${query}`,
          ...(route.body ? { payload: {} } : {}),
        });
        assertNames(res, name, NUL_MESSAGE, `${route.method} ${route.path} ?${name}`);
        checked++;
      }
    }
    assert.ok(checked > 50, `only ${checked} parameters checked`);
  });
});
