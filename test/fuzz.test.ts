// The fuzzing suite (issue 15): for every operation of the catalogue, bodies and queries made
// from its own schemas by fast-check. A valid one must never answer 5xx (a refusal, 404 for a
// random id, 409 or 422 are all fine); a mutated one (one thing wrong: see schema-arbitrary.ts)
// must answer a 4xx problem with a code. Path ids are random UUIDs (so 404 once validation
// passes); the caller is the tenant's owner. The seed is printed, and FUZZ_SEED replays a run;
// FUZZ_RUNS sets the values per operation and kind (default 6).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { catalogue } from '../src/catalogue.ts';
import type { AnyRoute } from '../src/platform/http/catalogue.ts';
import { refusesUnknownInput } from '../src/platform/http/strict-input.ts';
import { as, type Registered, register, startTestApp, type TestApp } from './support/app.ts';
import { type FakeInvestec, startFakeInvestec } from './support/fake-investec.ts';
import { bearerFor } from './support/key-itself.ts';
import { asQuery, mutated, mutatedQuery, valid } from './support/schema-arbitrary.ts';

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

/**
 * Operations left out, by "METHOD path" → why. Each would end the owner's session or change who
 * the caller is for every operation after it, which says nothing about its input handling.
 */
const LEFT_OUT: Record<string, string> = {
  'POST /auth/sessions/revoke-all': 'signs the caller out',
  'DELETE /auth/sessions/{id}': 'may sign the caller out',
  'POST /auth/password': 'changes the password the session was made with',
  'POST /auth/2fa/enrol': 'puts two-factor sign-in on the owner',
  'POST /auth/2fa/confirm': 'puts two-factor sign-in on the owner',
  'POST /auth/logout': 'signs the caller out',
};

let t: TestApp;
let owner: Registered;

// The bank feed's routes ask the bank: a local fake one, which refuses the fuzzer's keys (422).
let bank: FakeInvestec;

before(async () => {
  t = await startTestApp();
  bank = await startFakeInvestec();
  t.deps.config.bankFeedBaseUrl = bank.url;
  owner = await register(t.app);
  process.stdout.write(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} values per kind\n`);
});
after(async () => {
  await t.close();
  await bank.close();
});

const name = (r: AnyRoute) => `${r.method} ${r.path}`;
const fill = (path: string) => path.replace(/\{(\w+)\}/g, () => crypto.randomUUID());

async function send(route: AnyRoute, body: unknown, query: Record<string, string>) {
  const bearer = await bearerFor(t.app, route, owner.token);
  const api = as(t.app, bearer, route.companyScoped ? owner.companyId : undefined);
  return api({
    method: route.method,
    url: fill(route.path),
    query,
    ...(route.body ? { payload: body as object } : {}),
  });
}

function sample<T>(arb: fc.Arbitrary<T>, salt: number): T[] {
  return fc.sample(arb, { numRuns: RUNS, seed: SEED + salt });
}

const routes = catalogue.filter((r) => !(name(r) in LEFT_OUT) && !r.path.startsWith('/webhooks/'));

describe(`fuzzing every operation (seed ${SEED})`, () => {
  for (const [i, route] of routes.entries()) {
    test(name(route), async () => {
      const bodySchema = route.body as Record<string, unknown> | undefined;
      const querySchema = route.query as Record<string, unknown> | undefined;
      const validQueries = querySchema
        ? sample(valid(querySchema), i).map((q) => asQuery(q as Record<string, unknown>))
        : [{}];
      const validBodies = bodySchema ? sample(valid(bodySchema), i + 100_000) : [undefined];
      for (const [k, body] of validBodies.entries()) {
        const query = validQueries[k % validQueries.length]!;
        const res = await send(route, body, query);
        assert.ok(
          res.statusCode < 500,
          `valid input answered ${res.statusCode}: ${res.body}\nbody ${JSON.stringify(body)} query ${JSON.stringify(query)} (FUZZ_SEED=${SEED})`,
        );
      }
      const bad: Array<{ body: unknown; query: Record<string, string> }> = [];
      if (bodySchema)
        for (const body of sample(mutated(bodySchema, refusesUnknownInput(route.path)), i + 200_000))
          bad.push({ body, query: validQueries[0]! });
      if (querySchema && refusesUnknownInput(route.path))
        for (const query of sample(mutatedQuery(querySchema), i + 300_000))
          bad.push({ body: validBodies[0], query });
      for (const { body, query } of bad) {
        const res = await send(route, body, query);
        const where = `body ${JSON.stringify(body)} query ${JSON.stringify(query)} (FUZZ_SEED=${SEED})`;
        assert.ok(
          res.statusCode >= 400 && res.statusCode < 500,
          `mutated input answered ${res.statusCode}: ${res.body}\n${where}`,
        );
        // The sign-in page of /oauth/authorize answers a person in HTML; /oauth/token answers
        // RFC 6749's JSON error (application/json, its fields beside the problem's).
        if (route.path === '/oauth/authorize') continue;
        const type =
          route.path === '/oauth/token' ? /^application\/(problem\+)?json/ : /^application\/problem\+json/;
        assert.match(String(res.headers['content-type']), type, `not a problem: ${res.body}\n${where}`);
        assert.ok(res.json().code, `a problem without a code: ${res.body}\n${where}`);
      }
    });
  }
});
