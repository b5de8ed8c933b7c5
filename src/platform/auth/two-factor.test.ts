import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type TOTP, URI } from 'otpauth';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../db/tenant.ts';
import { login } from './auth.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** The authenticator an app would build from the enrol answer's URI. */
function authenticatorFrom(otpauthUri: string): TOTP {
  return URI.parse(otpauthUri) as TOTP;
}

/** The code of the next time step: each code is accepted once, so every use moves the clock on. */
const codeNow = (totp: TOTP) => {
  t.clock.advance(30_000);
  return totp.generate({ timestamp: t.clock.now().getTime() });
};

/** Six digits that are not the code of this, the previous or the next period. */
function wrongCode(totp: TOTP): string {
  const now = t.clock.now().getTime();
  const near = new Set([-30_000, 0, 30_000].map((d) => totp.generate({ timestamp: now + d })));
  for (let i = 0; ; i++) {
    const candidate = String((Number(codeNow(totp)) + 1 + i) % 1_000_000).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

async function unusedRecoveryCodes(tenantId: string, userId: string) {
  const rows = await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('recovery_codes')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('retired_at', 'is', null)
      .execute(),
  );
  return rows.length;
}

async function enrolAndConfirm(token: string) {
  const api = as(t.app, token);
  const enrol = await api({ method: 'POST', url: '/auth/2fa/enrol' });
  assert.equal(enrol.statusCode, 200, enrol.body);
  const totp = authenticatorFrom(enrol.json().otpauthUri);
  const confirm = await api({
    method: 'POST',
    url: '/auth/2fa/confirm',
    payload: { totpCode: codeNow(totp) },
  });
  assert.equal(confirm.statusCode, 200, confirm.body);
  return { totp, recoveryCodes: confirm.json().recoveryCodes as string[] };
}

describe('two-factor sign-in', () => {
  test('end to end: enrol, confirm, login needs a code, recovery codes work once, disable', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);

    const enrol = await api({ method: 'POST', url: '/auth/2fa/enrol' });
    assert.equal(enrol.statusCode, 200, enrol.body);
    const { otpauthUri, secret } = enrol.json();
    assert.match(otpauthUri, /^otpauth:\/\/totp\//);
    assert.ok(otpauthUri.includes(encodeURIComponent(a.email)));
    const totp = authenticatorFrom(otpauthUri);
    assert.equal(totp.secret.base32, secret);

    // Pending: sign-in does not ask for a code yet.
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 200);
    assert.deepEqual((await api({ method: 'GET', url: '/auth/2fa' })).json(), {
      enabled: false,
      pending: true,
      recoveryCodesLeft: 0,
    });

    const wrong = await api({
      method: 'POST',
      url: '/auth/2fa/confirm',
      payload: { totpCode: wrongCode(totp) },
    });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().field, 'totpCode');
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 200, 'a wrong code turns nothing on');

    const confirm = await api({
      method: 'POST',
      url: '/auth/2fa/confirm',
      payload: { totpCode: codeNow(totp) },
    });
    assert.equal(confirm.statusCode, 200, confirm.body);
    const codes: string[] = confirm.json().recoveryCodes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);

    const noCode = await login(t.app, a.email, a.password);
    assert.equal(noCode.statusCode, 401);
    assert.equal(noCode.json().code, 'TOTP_REQUIRED');
    const badCode = await login(t.app, a.email, a.password, wrongCode(totp));
    assert.equal(badCode.statusCode, 401);
    assert.equal(badCode.json().code, 'TOTP_INVALID');
    const withCode = await login(t.app, a.email, a.password, codeNow(totp));
    assert.equal(withCode.statusCode, 200, withCode.body);

    const withRecovery = await login(t.app, a.email, a.password, codes[0]);
    assert.equal(withRecovery.statusCode, 200, withRecovery.body);
    const recoveryAgain = await login(t.app, a.email, a.password, codes[0]);
    assert.equal(recoveryAgain.statusCode, 401);
    assert.equal(recoveryAgain.json().code, 'TOTP_INVALID');
    assert.deepEqual((await api({ method: 'GET', url: '/auth/2fa' })).json(), {
      enabled: true,
      pending: false,
      recoveryCodesLeft: 9,
    });

    const enrolAgain = await api({ method: 'POST', url: '/auth/2fa/enrol' });
    assert.equal(enrolAgain.statusCode, 409);

    const wrongDisable = await api({
      method: 'POST',
      url: '/auth/2fa/disable',
      payload: { totpCode: wrongCode(totp) },
    });
    assert.equal(wrongDisable.statusCode, 400);
    assert.equal(wrongDisable.json().field, 'totpCode');
    assert.equal((await login(t.app, a.email, a.password)).json().code, 'TOTP_REQUIRED');

    const disable = await api({
      method: 'POST',
      url: '/auth/2fa/disable',
      payload: { totpCode: codeNow(totp) },
    });
    assert.equal(disable.statusCode, 200, disable.body);
    assert.deepEqual(disable.json(), { enabled: false, pending: false, recoveryCodesLeft: 0 });
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 200);
    assert.equal(await unusedRecoveryCodes(a.tenantId, a.userId), 0, 'the recovery codes are retired');

    // The audit trail names the operations but never a code.
    const audit = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('tenant_id', '=', a.tenantId)
        .where('resource', '=', 'two-factor')
        .execute(),
    );
    assert.deepEqual(audit.map((e) => e.action).sort(), [
      'POST /auth/2fa/confirm',
      'POST /auth/2fa/disable',
      'POST /auth/2fa/enrol',
    ]);
    const written = JSON.stringify(audit);
    assert.ok(!written.includes(secret));
    for (const c of codes) assert.ok(!written.includes(c));
  });

  test('disable with a recovery code; confirm and disable need the right state', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const notOn = await api({ method: 'POST', url: '/auth/2fa/disable', payload: { totpCode: '123456' } });
    assert.equal(notOn.statusCode, 409);
    const nothingPending = await api({
      method: 'POST',
      url: '/auth/2fa/confirm',
      payload: { totpCode: '123456' },
    });
    assert.equal(nothingPending.statusCode, 409);

    const { totp, recoveryCodes } = await enrolAndConfirm(a.token);
    const confirmAgain = await api({
      method: 'POST',
      url: '/auth/2fa/confirm',
      payload: { totpCode: codeNow(totp) },
    });
    assert.equal(confirmAgain.statusCode, 409);
    const disable = await api({
      method: 'POST',
      url: '/auth/2fa/disable',
      payload: { totpCode: recoveryCodes[3]!.toUpperCase() },
    });
    assert.equal(disable.statusCode, 200, disable.body);
    assert.equal((await login(t.app, a.email, a.password)).statusCode, 200);
  });

  test('regenerating recovery codes retires the old ones', async () => {
    const a = await register(t.app);
    const { totp, recoveryCodes: old } = await enrolAndConfirm(a.token);
    const api = as(t.app, a.token);
    const wrong = await api({
      method: 'POST',
      url: '/auth/recovery-codes/regenerate',
      payload: { totpCode: wrongCode(totp) },
    });
    assert.equal(wrong.statusCode, 400);
    const res = await api({
      method: 'POST',
      url: '/auth/recovery-codes/regenerate',
      payload: { totpCode: codeNow(totp) },
    });
    assert.equal(res.statusCode, 200, res.body);
    const fresh: string[] = res.json().recoveryCodes;
    assert.equal(fresh.length, 10);
    assert.equal(fresh.filter((c) => old.includes(c)).length, 0);
    assert.equal((await login(t.app, a.email, a.password, old[1])).statusCode, 401);
    assert.equal((await login(t.app, a.email, a.password, fresh[1])).statusCode, 200);
    assert.equal(await unusedRecoveryCodes(a.tenantId, a.userId), 9);
  });

  test('a code a period away from now still counts; one far off does not', async () => {
    const a = await register(t.app);
    const { totp } = await enrolAndConfirm(a.token);
    t.clock.advance(60_000); // past the step the confirmation used
    const now = t.clock.now().getTime();
    const late = totp.generate({ timestamp: now - 30_000 });
    assert.equal((await login(t.app, a.email, a.password, late)).statusCode, 200);
    const stale = totp.generate({ timestamp: now - 10 * 60_000 });
    const near = [-30_000, 0, 30_000].map((d) => totp.generate({ timestamp: now + d }));
    if (!near.includes(stale)) {
      assert.equal((await login(t.app, a.email, a.password, stale)).statusCode, 401);
    }
  });

  test('an authenticator code is accepted once: a replay in the same window is refused', async () => {
    const a = await register(t.app);
    const { totp } = await enrolAndConfirm(a.token);
    const code = codeNow(totp);
    assert.equal((await login(t.app, a.email, a.password, code)).statusCode, 200);
    const replay = await login(t.app, a.email, a.password, code);
    assert.equal(replay.statusCode, 401);
    assert.equal(replay.json().code, 'TOTP_INVALID');
    // Nor does an earlier step's code count once a later one was used.
    const earlier = totp.generate({ timestamp: t.clock.now().getTime() - 30_000 });
    assert.equal((await login(t.app, a.email, a.password, earlier)).statusCode, 401);
    assert.equal((await login(t.app, a.email, a.password, codeNow(totp))).statusCode, 200);
  });

  test('the two-factor routes need a token', async () => {
    for (const url of [
      '/auth/2fa/enrol',
      '/auth/2fa/confirm',
      '/auth/2fa/disable',
      '/auth/recovery-codes/regenerate',
    ]) {
      const res = await t.app.inject({ method: 'POST', url, payload: { totpCode: '123456' } });
      assert.equal(res.statusCode, 401, url);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/auth/2fa' })).statusCode, 401);
  });
});
