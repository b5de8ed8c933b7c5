// Incremental sync of the ledger: journals and journal lines sorted both ways with stable ties,
// updatedSince seeing a voided journal, createdAt/updatedAt on journals and accounts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
let b: Registered;
let api: ReturnType<typeof as>;
const journals: Array<{ id: string; date: string; createdAt: string; updatedAt: string }> = [];

before(async () => {
  t = await startTestApp({ jobsWork: false });
  b = await register(t.app);
  api = as(t.app, b.token, b.companyId);
  // Two journals on one date (a tie on date), one earlier, one later.
  for (const date of ['2026-03-10', '2026-03-05', '2026-03-10', '2026-03-20']) {
    const res = await api({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date,
        description: `Sync ${date}`,
        lines: [
          { accountCode: '6100', debit: 10 },
          { accountCode: '1000', credit: 10 },
        ],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    journals.push(res.json());
  }
});
after(() => t.close());

async function page<T>(url: string): Promise<{ items: T[]; total: number }> {
  const res = await api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Every page, one row a page: paging through must neither repeat nor skip. */
async function walk<T extends { id: string }>(url: string): Promise<string[]> {
  const sep = url.includes('?') ? '&' : '?';
  const first = await page<T>(`${url}${sep}limit=1&page=1`);
  const out = first.items.map((i) => i.id);
  for (let p = 2; p <= first.total; p++) {
    out.push(...(await page<T>(`${url}${sep}limit=1&page=${p}`)).items.map((i) => i.id));
  }
  return out;
}

describe('journals: sort and updatedSince', () => {
  test('every journal carries createdAt and updatedAt (equal until it is reversed)', () => {
    for (const j of journals) {
      assert.match(j.createdAt, /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(j.updatedAt, j.createdAt);
    }
  });

  test('sort=date and -date are exact reverses, the same-date tie broken by posting then id; default -date', async () => {
    const [j0, j1, j2, j3] = journals.map((j) => j.id);
    const asc = await walk('/api/ledger/journals?sort=date');
    assert.deepEqual(asc, [j1, j0, j2, j3]);
    assert.deepEqual(await walk('/api/ledger/journals?sort=-date'), [...asc].reverse());
    assert.deepEqual(await walk('/api/ledger/journals'), [...asc].reverse());
    assert.deepEqual(await walk('/api/ledger/journals?sort=createdAt'), [j0, j1, j2, j3]);
    assert.deepEqual(await walk('/api/ledger/journals?sort=-createdAt'), [j3, j2, j1, j0]);
    assert.equal(
      assertProblem(await api({ method: 'GET', url: '/api/ledger/journals?sort=number' }), 400).field,
      'sort',
    );
  });

  test('a voided journal shows in updatedSince with status reversed and its updatedAt moved', async () => {
    const target = journals[1]!;
    const voided = await api({ method: 'DELETE', url: `/api/ledger/journals/${target.id}` });
    assert.equal(voided.statusCode, 200, voided.body);
    const after = voided.json();
    assert.equal(after.status, 'reversed');
    assert.equal(after.createdAt, target.createdAt);
    assert.ok(after.updatedAt > target.updatedAt, 'updatedAt moves to the reversal');
    const since = encodeURIComponent(after.updatedAt);
    const changed = await page<{ id: string; status: string; reversesEntryId: string | null }>(
      `/api/ledger/journals?updatedSince=${since}&sort=updatedAt`,
    );
    // The reversed journal and its reversal, nothing else.
    assert.equal(changed.total, 2);
    assert.deepEqual(changed.items.map((j) => j.status).sort(), ['reversal', 'reversed']);
    assert.ok(changed.items.some((j) => j.id === target.id));
    // sort=-updatedAt puts it before the journals that never changed.
    const byUpdated = await walk('/api/ledger/journals?sort=-updatedAt');
    assert.ok(byUpdated.indexOf(target.id) < byUpdated.indexOf(journals[3]!.id));
  });
});

describe('journal lines: sort and updatedSince', () => {
  interface Line {
    id: string;
    entryId: string;
    lineNo: number;
    date: string;
    createdAt: string;
  }

  test("every line carries its entry's createdAt; sort=date and -date page through in exact reverse", async () => {
    const asc = await walk<Line>('/api/ledger?sort=date');
    const desc = await walk<Line>('/api/ledger?sort=-date');
    assert.deepEqual(desc, [...asc].reverse());
    assert.deepEqual(await walk<Line>('/api/ledger'), asc, 'default: oldest date first');
    const all = await page<Line>('/api/ledger?limit=200');
    const byEntry = new Map(journals.map((j) => [j.id, j.createdAt]));
    for (const l of all.items) if (byEntry.has(l.entryId)) assert.equal(l.createdAt, byEntry.get(l.entryId));
    // Dates never go backwards; within a date, entries in posting order, lines by number.
    for (let i = 1; i < all.items.length; i++) {
      const [p, c] = [all.items[i - 1]!, all.items[i]!];
      assert.ok(
        p.date < c.date ||
          (p.date === c.date &&
            (p.createdAt < c.createdAt || (p.entryId === c.entryId && p.lineNo < c.lineNo))) ||
          (p.date === c.date && p.createdAt === c.createdAt && p.entryId < c.entryId),
      );
    }
    const byCreated = await walk<Line>('/api/ledger?sort=createdAt');
    assert.deepEqual(await walk<Line>('/api/ledger?sort=-createdAt'), [...byCreated].reverse());
  });

  test('updatedSince: only the lines posted at or after it', async () => {
    const last = journals[3]!;
    const lines = await page<Line>(`/api/ledger?updatedSince=${encodeURIComponent(last.createdAt)}`);
    // The last journal's two lines and the reversal's two lines.
    assert.equal(lines.total, 4);
    assert.ok(lines.items.every((l) => l.createdAt >= last.createdAt));
    assert.equal(lines.items.filter((l) => l.entryId === last.id).length, 2);
  });
});

describe('accounts: timestamps', () => {
  test('createdAt and updatedAt on every account; a PATCH moves updatedAt', async () => {
    const res = await api({ method: 'GET', url: '/api/accounts' });
    const accounts = res.json() as Array<{ id: string; code: string; createdAt: string; updatedAt: string }>;
    assert.ok(accounts.every((a) => a.createdAt && a.updatedAt));
    const one = accounts.find((a) => a.code === '6100')!;
    t.clock.advance(60_000);
    const patched = await api({
      method: 'PATCH',
      url: `/api/accounts/${one.id}`,
      payload: { name: 'Renamed' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().createdAt, one.createdAt);
    assert.ok(patched.json().updatedAt > one.updatedAt);
  });
});
