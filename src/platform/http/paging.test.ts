import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMIT, MAX_LIMIT, pageOf, paging } from './paging.ts';

test('limit at or below zero becomes the default; above the maximum becomes the maximum', () => {
  assert.equal(paging({ limit: 0 }).limit, DEFAULT_LIMIT);
  assert.equal(paging({ limit: -5 }).limit, DEFAULT_LIMIT);
  assert.equal(paging({}).limit, 50);
  assert.equal(paging({ limit: 201 }).limit, MAX_LIMIT);
  assert.equal(paging({ limit: 10_000 }).limit, 200);
  assert.equal(paging({ limit: 7 }).limit, 7);
});

test('page below 1 is 1, and the offset follows page and limit', () => {
  assert.deepEqual(paging({ page: 0, limit: 10 }), { page: 1, limit: 10, offset: 0 });
  assert.deepEqual(paging({ page: -3, limit: 10 }), { page: 1, limit: 10, offset: 0 });
  assert.deepEqual(paging({ page: 3, limit: 10 }), { page: 3, limit: 10, offset: 20 });
});

test('the envelope: a page past the end is empty with the same total', () => {
  const p = paging({ page: 9, limit: 10 });
  assert.deepEqual(pageOf([], 25, p), { items: [], total: 25, page: 9, limit: 10, totalPages: 3 });
  assert.deepEqual(pageOf([1, 2], 2, paging({})), {
    items: [1, 2],
    total: 2,
    page: 1,
    limit: 50,
    totalPages: 1,
  });
  assert.equal(pageOf([], 0, paging({})).totalPages, 0);
});
