import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { nullable } from './nullable.ts';

test('a scalar that may be null is one type list keeping its keywords; an object stays an anyOf', () => {
  assert.deepEqual(
    { ...nullable(Type.String({ format: 'uuid' }), { description: 'The entry' }) },
    { type: ['string', 'null'], format: 'uuid', description: 'The entry' },
  );
  assert.deepEqual({ ...nullable(Type.Integer()) }, { type: ['integer', 'null'] });
  const object = JSON.parse(JSON.stringify(nullable(Type.Object({ a: Type.String() }))));
  assert.deepEqual(object.anyOf[1], { type: 'null' });
});

test('an enum that may be null lists null among its values, so a body may send null', async () => {
  const schema = nullable(Type.Union([Type.Literal('a'), Type.Literal('b')]));
  const flat = nullable({ type: 'string', enum: ['a', 'b'] } as unknown as ReturnType<typeof Type.String>);
  assert.deepEqual({ ...flat }, { type: ['string', 'null'], enum: ['a', 'b', null] });
  const app = Fastify();
  app.post('/', { schema: { body: Type.Object({ code: flat, other: schema }) } }, async (req) => req.body);
  for (const body of [
    { code: null, other: null },
    { code: 'a', other: 'b' },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/', payload: body });
    assert.equal(res.statusCode, 200, res.body);
  }
  const bad = await app.inject({ method: 'POST', url: '/', payload: { code: 'c', other: 'a' } });
  assert.equal(bad.statusCode, 400, bad.body);
});

test('in an answer, null and a value are written as they are', async () => {
  const app = Fastify();
  const answers = [
    { voidedAt: null, total: null, days: null },
    { voidedAt: '2026-03-02T10:00:00.000Z', total: 1149.99, days: 30 },
  ];
  app.get(
    '/:i',
    {
      schema: {
        response: {
          200: Type.Object({
            voidedAt: nullable(Type.String({ format: 'date-time' })),
            total: nullable(Type.Number()),
            days: nullable(Type.Integer()),
          }),
        },
      },
    },
    async (req) => answers[Number((req.params as { i: string }).i)],
  );
  try {
    assert.equal((await app.inject('/0')).body, '{"voidedAt":null,"total":null,"days":null}');
    assert.equal(
      (await app.inject('/1')).body,
      '{"voidedAt":"2026-03-02T10:00:00.000Z","total":1149.99,"days":30}',
    );
  } finally {
    await app.close();
  }
});
