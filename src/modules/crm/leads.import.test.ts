// The CSV import of leads: the preview equals the real run, the same file twice adds nothing,
// Windows-1252 and UTF-8 with a BOM, row errors with spreadsheet row numbers, updates that fill
// what a lead lacked, the column parameters, and 10,000 rows in one request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Api = ReturnType<typeof as>;

function upload(api: Api, body: string | Buffer, qs = '', type = 'text/csv') {
  return api({
    method: 'POST',
    url: `/api/crm/leads/import${qs}`,
    headers: { 'content-type': type },
    payload: body,
  });
}

async function imported(api: Api, body: string | Buffer, qs = '') {
  const res = await upload(api, body, qs);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function leadCount(api: Api): Promise<number> {
  return (await api({ method: 'GET', url: '/api/crm/leads?limit=1' })).json().total;
}

// Rows 2-9 as a spreadsheet numbers them (the header is row 1; the blank line 7 is no row):
//   2 Anna: new                          3 Ben: new (phone only)
//   4 anna@ again in capitals, adds the company: updated (an earlier row of the file)
//   5 Ben's phone written +27: a duplicate  6 no name, no company: refused (name)
//   8 a bad e-mail and a bad phone: refused (two errors, one row)   9 Carl: new (no e-mail nor phone)
//  10 a bad value: refused
// created 3, updated 1, duplicates 1, errors 4 entries on 3 rows; rows 8.
const FILE = [
  'Full Name,Company,E-mail,Mobile,Source,Notes,Estimated value,Tags',
  'Anna Botha,,anna@botha.co.za,,web,,"R12,500.00",warm',
  'Ben Mokoena,,,082 555 0101,referral,,,',
  'Anna Botha,Botha Farms,ANNA@botha.co.za,,,,,',
  'B. Mokoena,,,+27825550101,,,,',
  ',,nobody@example.co.za,,,,,',
  '',
  'Dee,,not-an-address,12,,,,',
  'Carl Smit,Smit & Seuns,,,,,,',
  'Eve,,eve@example.co.za,,,,lots,',
].join('\r\n');

describe('POST /api/crm/leads/import', () => {
  test('the preview answers the real run’s counts and writes nothing; the same file again adds nothing', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const preview = await imported(api, FILE, '?preview=true');
    assert.equal(await leadCount(api), 0, 'a preview writes nothing');
    const real = await imported(api, FILE, '?fileName=leads.csv');
    assert.ok(real.importId);
    assert.deepEqual({ ...preview, importId: real.importId, preview: false }, real);
    assert.equal(real.encoding, 'utf-8');
    assert.deepEqual(
      { rows: real.rows, created: real.created, updated: real.updated, duplicates: real.duplicates },
      { rows: 8, created: 3, updated: 1, duplicates: 1 },
    );
    assert.deepEqual(
      real.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [
        [6, 'name'],
        [8, 'email'],
        [8, 'phone'],
        [10, 'estimatedValue'],
      ],
    );
    assert.equal(await leadCount(api), 3);
    const anna = (await api({ method: 'GET', url: '/api/crm/leads?q=anna' })).json().items[0];
    assert.equal(anna.companyName, 'Botha Farms', 'row 4 filled what row 2 lacked');
    assert.equal(anna.estimatedValue, 12500);
    assert.deepEqual(anna.tags, ['warm']);
    assert.equal(anna.importId, real.importId);

    const again = await imported(api, FILE);
    assert.deepEqual(
      { created: again.created, updated: again.updated, duplicates: again.duplicates },
      { created: 0, updated: 0, duplicates: 5 },
    );
    assert.equal(await leadCount(api), 3, 'the same file twice adds nothing');

    const record = await api({ method: 'GET', url: `/api/crm/leads/imports/${real.importId}` });
    assert.equal(record.statusCode, 200, record.body);
    assert.equal(record.json().fileName, 'leads.csv');
    assert.equal(record.json().errorRows, 3);
    assert.equal(record.json().errors.length, 4);
    const list = (await api({ method: 'GET', url: '/api/crm/leads/imports' })).json();
    assert.deepEqual(
      list.items.map((i: { id: string }) => i.id),
      [again.importId, real.importId],
    );
    const b = await register(t.app);
    assertProblem(
      await as(t.app, b.token)({ method: 'GET', url: `/api/crm/leads/imports/${real.importId}` }),
      404,
    );
  });

  test('two imports of one file at once: one makes the leads, the other finds them', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const both = await Promise.all([imported(api, FILE), imported(api, FILE)]);
    // One run creates 3 (as above); the other, serialised behind it, matches all 5 good rows.
    assert.deepEqual(both.map((r) => r.created).sort(), [0, 3]);
    assert.equal(await leadCount(api), 3);
  });

  test('a row matching a live lead fills what it lacked (updated) and adds new tags', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const made = await api({
      method: 'POST',
      url: '/api/crm/leads',
      payload: { name: 'Zoe', phone: '0825550177', tags: ['vip'] },
    });
    assert.equal(made.statusCode, 201);
    const file =
      'Name,Phone,Email,Tags\nZoe Z,+27 82 555 0177,zoe@example.co.za,"VIP,new"\nZoe,0825550177,,vip\n';
    const preview = await imported(api, file, '?preview=true');
    const real = await imported(api, file);
    assert.deepEqual(
      { ...preview, importId: null, preview: true },
      { ...real, importId: null, preview: true },
    );
    // Row 2 adds the e-mail and the tag "new" (VIP is vip); row 3 then adds nothing.
    assert.deepEqual([real.created, real.updated, real.duplicates], [0, 1, 1]);
    const lead = (await api({ method: 'GET', url: `/api/crm/leads/${made.json().id}` })).json();
    assert.equal(lead.email, 'zoe@example.co.za');
    assert.deepEqual(lead.tags, ['vip', 'new']);
    assert.equal(lead.name, 'Zoe', 'a name is never overwritten');
    assert.equal(lead.importId, null, 'only created leads carry the import');
  });

  test('Windows-1252 and UTF-8 with a BOM both read right', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    // "Zoë" and "José" in Windows-1252: ë is 0xEB, é is 0xE9 (invalid as UTF-8).
    const cp1252 = Buffer.concat([
      Buffer.from('Name,Email\r\nZo', 'latin1'),
      Buffer.from([0xeb]),
      Buffer.from(' Nel,zoe@example.co.za\r\nJos', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from(' Pereira,jose@example.co.za\r\n', 'latin1'),
    ]);
    const one = await imported(api, cp1252);
    assert.equal(one.encoding, 'windows-1252');
    assert.equal(one.created, 2);
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Name,E-mail\nRenée Müller,renee@example.co.za\n', 'utf8'),
    ]);
    const two = await imported(api, bom);
    assert.equal(two.encoding, 'utf-8');
    assert.equal(two.created, 1, 'the BOM does not hide the Name header');
    const names = (await api({ method: 'GET', url: '/api/crm/leads?sort=createdAt' }))
      .json()
      .items.map((l: { name: string }) => l.name);
    assert.deepEqual(names.sort(), ['José Pereira', 'Renée Müller', 'Zoë Nel']);
  });

  test('column parameters, a charset on the type, and what is refused whole', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const file = 'Who,Where,Contact\nLerato,Soweto Spares,lerato@example.co.za\n';
    const res = await imported(api, file, '?nameColumn=who&companyColumn=WHERE&emailColumn=Contact');
    assert.equal(res.created, 1);
    const lead = (await api({ method: 'GET', url: '/api/crm/leads' })).json().items[0];
    assert.deepEqual(
      [lead.name, lead.companyName, lead.email],
      ['Lerato', 'Soweto Spares', 'lerato@example.co.za'],
    );
    const charset = await upload(api, 'Name\nMpho\n', '', 'text/csv; charset=utf-8');
    assert.equal(charset.statusCode, 200, charset.body);
    assert.equal(assertProblem(await upload(api, file, '?phoneColumn=Cell'), 400).field, 'phoneColumn');
    assert.equal(assertProblem(await upload(api, 'Colour\nred\n'), 400).field, 'nameColumn');
    assertProblem(await upload(api, ''), 400);
    assertProblem(await upload(api, '{"name":"x"}', '', 'application/json'), 415);
    assertProblem(await upload(api, file, '?colour=red'), 400);
    // Past 10 MiB, or past 50,000 rows (a file of tiny rows within the limit): 413.
    assertProblem(await upload(api, `Name\n${'x'.repeat(10 * 1024 * 1024)}\n`), 413);
    assertProblem(await upload(api, `Name\n${'x\n'.repeat(50_001)}`), 413);
    assert.equal(await leadCount(api), 2, 'nothing of the refused files was written');
  });

  test('10,000 rows in one request', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const lines = ['Name,Company,Email,Phone,Source,Estimated value,Tags'];
    for (let i = 0; i < 10_000; i++) {
      const n = String(i).padStart(4, '0');
      lines.push(
        `Lead ${n},Company ${n},lead${n}@example.co.za,08255${n.padStart(5, '0')},fair,${i}.50,"a,b"`,
      );
    }
    const file = `${lines.join('\n')}\n`;
    assert.ok(Buffer.byteLength(file) < 10 * 1024 * 1024);
    const started = performance.now();
    const res = await imported(api, file);
    const ms = performance.now() - started;
    assert.equal(res.created, 10_000, JSON.stringify(res.errors.slice(0, 3)));
    assert.equal(res.errors.length, 0);
    console.log(`10,000-row import: ${Math.round(ms)} ms`);
    assert.ok(ms < 10_000, `took ${ms} ms`);
    const startedAgain = performance.now();
    const again = await imported(api, file);
    console.log(`the same 10,000 rows again: ${Math.round(performance.now() - startedAgain)} ms`);
    assert.equal(again.duplicates, 10_000);
    assert.equal(await leadCount(api), 10_000);
  });
});
