// The OAuth sign-in page, rendered on the server: no script, no outside asset, every value
// escaped. The form posts back to /oauth/authorize with the authorization request in
// hidden fields, the person's credentials and the scopes left ticked (`grant.<scope>`).
import { SCOPES } from '../auth/scopes.ts';
import { escapeHtml, htmlPage } from '../http/html-page.ts';
import type { AuthorizationRequest } from './authorization-request.ts';

const LABELS = new Map(SCOPES.map((s) => [s.scope, s.label]));

/** Headers for every answer of the page: not framed (clickjacking), not cached, no referrer. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; }
  fieldset { border: 1px solid #d5d9e0; border-radius: 6px; margin: 0 0 1rem; padding: .5rem 1rem; }
  legend { font-weight: 600; padding: 0 .25rem; }
  .scope { display: flex; gap: .5rem; align-items: flex-start; margin: .35rem 0; }
  .scope code { color: #5a6272; font-size: .8rem; }
  label.field { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
  input[type=email], input[type=password], input[type=text] { width: 100%; box-sizing: border-box;
    padding: .5rem; border: 1px solid #b8bfcc; border-radius: 4px; font-size: 1rem; }
  .error { background: #fdecea; color: #8a1c12; padding: .75rem; border-radius: 4px; margin-bottom: 1rem; }
  .buttons { display: flex; gap: .75rem; margin-top: 1.25rem; }
  button { padding: .6rem 1.1rem; border-radius: 4px; border: 1px solid #1f5fbf; font-size: 1rem; cursor: pointer; }
  button.allow { background: #1f5fbf; color: #fff; }
  button.deny { background: #fff; color: #1f5fbf; }
  p.small { font-size: .85rem; color: #5a6272; }
`;

function layout(title: string, body: string): string {
  return htmlPage(title, STYLE, body);
}

function hidden(name: string, value: string | undefined): string {
  return value === undefined
    ? ''
    : `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

function requestFields(r: AuthorizationRequest): string {
  return [
    hidden('response_type', 'code'),
    hidden('client_id', r.clientId),
    hidden('redirect_uri', r.redirectUri),
    hidden('scope', r.scopes.join(' ')),
    hidden('state', r.state),
    hidden('code_challenge', r.codeChallenge),
    hidden('code_challenge_method', r.codeChallenge ? 'S256' : undefined),
  ].join('\n');
}

function scopeList(r: AuthorizationRequest, ticked: string[], editable: boolean): string {
  const rows = r.scopes.map((scope) => {
    const id = `grant-${scope.replace(/[^a-z0-9]/gi, '-')}`;
    const label = `${escapeHtml(LABELS.get(scope) ?? scope)} <code>${escapeHtml(scope)}</code>`;
    if (!editable) return ticked.includes(scope) ? `<div class="scope">✓ <span>${label}</span></div>` : '';
    const checked = ticked.includes(scope) ? ' checked' : '';
    return `<div class="scope"><input type="checkbox" id="${id}" name="grant.${escapeHtml(scope)}" value="on"${checked}>
<label for="${id}">${label}</label></div>`;
  });
  return `<fieldset><legend>${escapeHtml(r.appName)} asks to</legend>${rows.join('\n')}
${editable ? '<p class="small">Untick anything you do not want to allow.</p>' : ''}</fieldset>`;
}

export interface SignInView {
  request: AuthorizationRequest;
  ticked: string[];
  error?: string;
  email?: string;
}

/** Step one: the scopes to allow, e-mail and password. */
export function credentialsPage(v: SignInView): string {
  return layout(
    `Connect ${v.request.appName}`,
    `<h1>Connect ${escapeHtml(v.request.appName)} to your business</h1>
${v.error ? `<div class="error" role="alert">${escapeHtml(v.error)}</div>` : ''}
<form method="post" action="/oauth/authorize">
${requestFields(v.request)}
${scopeList(v.request, v.ticked, true)}
<label class="field" for="email">E-mail</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${escapeHtml(v.email ?? '')}">
<label class="field" for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<div class="buttons">
<button class="allow" type="submit" name="action" value="allow">Sign in and allow</button>
<button class="deny" type="submit" name="action" value="deny" formnovalidate>Cancel</button>
</div>
<p class="small">The app acts as you, with no more than your role allows. You can revoke it at any time from your API keys.</p>
</form>`,
  );
}

/** Step two, for someone with two-factor sign-in: the code, with the sign-in carried in `pending`. */
export function secondFactorPage(v: SignInView & { pending: string }): string {
  return layout(
    `Connect ${v.request.appName}`,
    `<h1>Two-factor code</h1>
${v.error ? `<div class="error" role="alert">${escapeHtml(v.error)}</div>` : ''}
<form method="post" action="/oauth/authorize">
${requestFields(v.request)}
${hidden('pending', v.pending)}
${scopeList(v.request, v.ticked, false)}
<label class="field" for="totp_code">Code from your authenticator app, or a recovery code</label>
<input type="text" id="totp_code" name="totp_code" autocomplete="one-time-code" inputmode="numeric" required>
<div class="buttons">
<button class="allow" type="submit" name="action" value="allow">Verify and allow</button>
<button class="deny" type="submit" name="action" value="deny" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}

/** A request that cannot be answered to the app (unknown app, unregistered address). */
export function errorPage(message: string): string {
  return layout(
    'Cannot connect',
    `<h1>This app cannot be connected</h1>\n<div class="error" role="alert">${escapeHtml(message)}</div>`,
  );
}
