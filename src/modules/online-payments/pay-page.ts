// The public pay page (GET /pay/{token}), rendered on the server: no script, no outside asset,
// every value escaped, inline CSS only, under a Content-Security-Policy that also limits where
// a form may post (gateway A's payment page, or nowhere). Each state says what it is in words.
import type { Decimal } from 'decimal.js';
import { formatAmount, longDate } from '../../platform/files/table.ts';
import { escapeHtml, htmlPage } from '../../platform/http/html-page.ts';

export interface PaySummary {
  business: string;
  number: string;
  customer: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  total: Decimal;
  paid: Decimal;
  due: Decimal;
}

export type PayButton =
  | { kind: 'form'; action: string; fields: Array<[string, string]>; amount: Decimal }
  | { kind: 'link'; href: string; amount: Decimal };

export type PayState =
  | { kind: 'not-found' }
  | { kind: 'gone'; why: 'revoked' | 'expired' | 'void'; summary: PaySummary }
  | { kind: 'foreign'; summary: PaySummary }
  | { kind: 'paid'; summary: PaySummary }
  | { kind: 'confirming'; summary: PaySummary }
  | { kind: 'unavailable'; reason: string; summary: PaySummary }
  | { kind: 'pay'; summary: PaySummary; button: PayButton; result?: 'cancelled' | 'failed' | undefined };

export function statusOfPage(state: PayState): number {
  switch (state.kind) {
    case 'not-found':
      return 404;
    case 'gone':
      return 410;
    case 'foreign':
      return 422;
    case 'unavailable':
      return 503;
    default:
      return 200;
  }
}

/** Not framed, not cached, no referrer; styles inline; a form may post only to the gateway. */
export function pageHeaders(formAction: string | null): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; frame-ancestors 'none'; " +
      `base-uri 'none'; form-action ${formAction ?? "'none'"}`,
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  };
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
  main { max-width: 30rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; }
  p.from { color: #5a6272; margin: 0 0 1.25rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 0 0 1.25rem; }
  dt { color: #5a6272; } dd { margin: 0; text-align: right; }
  dd.due { font-weight: 700; font-size: 1.15rem; }
  .note { padding: .75rem; border-radius: 4px; margin-bottom: 1rem; background: #eef4fc; color: #1d3f73; }
  .note.bad { background: #fdecea; color: #8a1c12; }
  .note.good { background: #e8f5ec; color: #1b5e31; }
  .pay { display: inline-block; padding: .7rem 1.4rem; border-radius: 4px; border: 1px solid #1f5fbf;
         background: #1f5fbf; color: #fff; font-size: 1.05rem; text-decoration: none; cursor: pointer; }
`;

function layout(title: string, body: string): string {
  return htmlPage(title, STYLE, body, { noindex: true });
}

function summaryOf(s: PaySummary): string {
  const amount = (v: Decimal) => escapeHtml(formatAmount(v, s.currency));
  return `<h1>Invoice ${escapeHtml(s.number)}</h1>
<p class="from">From ${escapeHtml(s.business)}</p>
<dl>
<dt>Customer</dt><dd id="customer">${escapeHtml(s.customer)}</dd>
<dt>Issued</dt><dd id="issued">${escapeHtml(longDate(s.issueDate))}</dd>
<dt>Due</dt><dd id="due-date">${escapeHtml(longDate(s.dueDate))}</dd>
<dt>Total</dt><dd id="total">${amount(s.total)}</dd>
<dt>Paid</dt><dd id="paid">${amount(s.paid)}</dd>
<dt>Amount due</dt><dd id="amount-due" class="due">${amount(s.due)}</dd>
</dl>`;
}

const note = (text: string, tone = '') =>
  `<div class="note${tone ? ` ${tone}` : ''}" role="status">${escapeHtml(text)}</div>`;

function buttonOf(b: PayButton, currency: string): string {
  const label = `Pay ${formatAmount(b.amount, currency)} now`;
  if (b.kind === 'link')
    return `<a class="pay" id="pay" href="${escapeHtml(b.href)}">${escapeHtml(label)}</a>`;
  const hidden = b.fields
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n');
  return `<form method="post" action="${escapeHtml(b.action)}" id="pay-form">
${hidden}
<button class="pay" id="pay" type="submit">${escapeHtml(label)}</button>
</form>`;
}

const GONE: Record<'revoked' | 'expired' | 'void', string> = {
  revoked: 'This payment link has been cancelled by the business. Please ask them for a new one.',
  expired: 'This payment link has expired. Please ask the business for a new one.',
  void: 'This invoice has been cancelled: nothing is to be paid on it.',
};

export function renderPayPage(state: PayState): string {
  switch (state.kind) {
    case 'not-found':
      return layout(
        'Payment link not found',
        `<h1>Payment link not found</h1>\n${note('There is no payment link at this address. Please check the link you were sent.', 'bad')}`,
      );
    case 'gone':
      return layout(
        'Payment link no longer valid',
        `${summaryOf(state.summary)}\n${note(GONE[state.why], 'bad')}`,
      );
    case 'foreign':
      return layout(
        'Cannot be paid online',
        `${summaryOf(state.summary)}\n${note(
          `This invoice is in ${state.summary.currency}: online payment takes rand (ZAR) only. Please pay it another way.`,
          'bad',
        )}`,
      );
    case 'paid':
      return layout(
        'Paid',
        `${summaryOf(state.summary)}\n${note('This invoice is paid. Thank you!', 'good')}`,
      );
    case 'confirming':
      return layout(
        'Payment received',
        `${summaryOf(state.summary)}\n${note('Payment received, being confirmed. Thank you! You may close this page.', 'good')}`,
      );
    case 'unavailable':
      return layout(
        'Online payment unavailable',
        `${summaryOf(state.summary)}\n${note(`Online payment is unavailable at the moment: ${state.reason}`, 'bad')}`,
      );
    case 'pay': {
      const result =
        state.result === 'cancelled'
          ? note('The payment was cancelled. You can try again.', 'bad')
          : state.result === 'failed'
            ? note('The payment did not go through. You can try again.', 'bad')
            : '';
      return layout(
        `Pay invoice ${state.summary.number}`,
        `${summaryOf(state.summary)}\n${result}\n${buttonOf(state.button, state.summary.currency)}`,
      );
    }
  }
}
