// A local fake of payment gateway A (PayFast-style) on a real loopback port, speaking the
// published protocol (research "Gateway A"):
//   * POST /eng/process: the payer's page. The redirect form (urlencoded) is checked as the
//     gateway checks it: the merchant known, its merchant key, and the signature over the fields
//     in the order received (without `signature`) with the merchant's passphrase. A small HTML
//     page shows the amount, a "Pay now" button (posting to /eng/process/complete) and "Cancel".
//   * POST /eng/process/complete: the payer paid. The ITN goes to the form's notify_url
//     (form-urlencoded, in PayFast's ITN order, signed), then the payer is sent to return_url.
//   * POST /eng/query/validate: `VALID` when the posted string is the parameter string of an ITN
//     this fake sent, else `INVALID` (tests can force INVALID or a 500: the gateway down).
// The one gateway A fake: every test that needs gateway A uses it. Tests also send ITNs straight
// (`sendItn`), signed with the passphrase or with a bad signature, and read `requests`.
import { randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  paramStringOf,
  phpUrlencode,
  signParamString,
} from '../../src/modules/online-payments/gateway-a.protocol.ts';
import { GATEWAY_A_KEYS } from '../../src/modules/online-payments/online.factories.ts';

export interface FakeMerchant {
  merchantId: string;
  merchantKey: string;
  passphrase: string | null;
}

/** An ITN the fake posted: where, the body as sent, its parameter string, what the receiver answered. */
export interface SentItn {
  notifyUrl: string;
  body: string;
  paramString: string;
  fields: Array<[string, string]>;
  status: number;
  /** The receiver's answer body. */
  answer: string;
}

export interface FakeGatewayA {
  url: string;
  merchants: FakeMerchant[];
  sent: SentItn[];
  /** Every request: method, path and status answered. */
  requests: Array<{ method: string; path: string; status: number }>;
  /** The validate endpoint's behaviour: 'normal' (VALID iff sent here), 'INVALID' always, or 500. */
  validate: 'normal' | 'INVALID' | 500;
  /** An ITN's fields in PayFast's order, from what is given (the rest defaulted or empty). */
  itnFields(given: Partial<Record<ItnField, string>>): Array<[string, string]>;
  /**
   * Posts an ITN to notifyUrl, signed with the passphrase (the default merchant's unless given;
   * null: unsigned by a passphrase) or carrying `signature` as given; remembers it as sent.
   */
  sendItn(
    notifyUrl: string,
    fields: Array<[string, string]>,
    options?: { passphrase?: string | null; signature?: string },
  ): Promise<SentItn>;
  close(): Promise<void>;
}

/** The ITN's fields in the order PayFast posts them. */
export const ITN_ORDER = [
  'm_payment_id',
  'pf_payment_id',
  'payment_status',
  'item_name',
  'item_description',
  'amount_gross',
  'amount_fee',
  'amount_net',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'name_first',
  'name_last',
  'email_address',
  'merchant_id',
] as const;
export type ItnField = (typeof ITN_ORDER)[number];

/** The fake's fee: 2.3% of the gross, in cents rounded (R1,150.00 → R26.45). */
export function feeCents(grossCents: number): number {
  return Math.round((grossCents * 23) / 1000);
}

const cents = (rand: string) => Math.round(Number(rand) * 100);
const rand = (c: number) =>
  `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function text(res: ServerResponse, status: number, body: string, type = 'text/plain') {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  res.end(body);
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startFakeGatewayA(
  merchants: FakeMerchant[] = [{ ...GATEWAY_A_KEYS }],
): Promise<FakeGatewayA> {
  const requests: FakeGatewayA['requests'] = [];
  const sent: SentItn[] = [];
  // Forms the payer is on, by the reference the "Pay now" button posts back.
  const sessions = new Map<string, Map<string, string>>();

  const itnFields: FakeGatewayA['itnFields'] = (given) => {
    const gross = given.amount_gross ?? '1150.00';
    const fee = given.amount_fee ?? rand(-feeCents(cents(gross)));
    const defaults: Partial<Record<ItnField, string>> = {
      pf_payment_id: String(randomInt(1_000_000, 9_999_999)),
      payment_status: 'COMPLETE',
      item_name: 'Invoice',
      amount_gross: gross,
      amount_fee: fee,
      amount_net: rand(cents(gross) + cents(fee)),
      name_first: 'Thandi',
      name_last: 'Mokoena',
      email_address: 'thandi@example.co.za',
      merchant_id: merchants[0]!.merchantId,
    };
    return ITN_ORDER.map((k): [string, string] => [k, given[k] ?? defaults[k] ?? '']);
  };

  const sendItn: FakeGatewayA['sendItn'] = async (notifyUrl, fields, options = {}) => {
    // The gateway signs every field it posts, empty ones included, as encoded on the wire.
    const paramString = fields.map(([k, v]) => `${k}=${phpUrlencode(v)}`).join('&');
    const passphrase = 'passphrase' in options ? options.passphrase! : merchants[0]!.passphrase;
    const signature = options.signature ?? signParamString(paramString, passphrase);
    const body = `${paramString}&signature=${signature}`;
    const res = await fetch(notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const answer = await res.text();
    const itn: SentItn = { notifyUrl, body, paramString, fields, status: res.status, answer };
    sent.push(itn);
    return itn;
  };

  const fake: FakeGatewayA = {
    url: '',
    merchants,
    sent,
    requests,
    validate: 'normal',
    itnFields,
    sendItn,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /** The payer's page: the form checked as the gateway checks it. */
  const payPage = (raw: string, res: ServerResponse): number => {
    const all = [...new URLSearchParams(raw)];
    const form = new Map(all);
    const fields = all.filter(([k]) => k !== 'signature');
    const merchant = merchants.find((m) => m.merchantId === form.get('merchant_id'));
    if (!merchant || merchant.merchantKey !== form.get('merchant_key')) {
      text(res, 400, 'Merchant is invalid');
      return 400;
    }
    if (form.get('signature') !== signParamString(paramStringOf(fields), merchant.passphrase)) {
      text(res, 400, 'Generated signature does not match submitted signature');
      return 400;
    }
    const ref = randomUUID();
    sessions.set(ref, form);
    const cancel = form.get('cancel_url') ?? '/';
    text(
      res,
      200,
      `<!doctype html><html><head><title>Gateway A</title></head><body>
<h1>Gateway A</h1><p class="item">${esc(form.get('item_name') ?? '')}</p>
<p class="amount">R${esc(form.get('amount') ?? '')}</p>
<form method="post" action="/eng/process/complete"><input type="hidden" name="ref" value="${ref}">
<button type="submit">Pay now</button></form>
<a class="cancel" href="${esc(cancel)}">Cancel</a></body></html>`,
      'text/html',
    );
    return 200;
  };

  /** The payer pressed "Pay now": the ITN to notify_url, then back to return_url. */
  const complete = async (raw: string, res: ServerResponse): Promise<number> => {
    const form = sessions.get(new URLSearchParams(raw).get('ref') ?? '');
    if (!form) {
      text(res, 404, 'No such payment');
      return 404;
    }
    sessions.delete(new URLSearchParams(raw).get('ref')!);
    const merchant = merchants.find((m) => m.merchantId === form.get('merchant_id'))!;
    const pick = (k: string) => form.get(k) ?? '';
    const fields = itnFields({
      m_payment_id: pick('m_payment_id'),
      item_name: pick('item_name'),
      item_description: pick('item_description'),
      amount_gross: pick('amount'),
      custom_str1: pick('custom_str1'),
      custom_str2: pick('custom_str2'),
      email_address: pick('email_address') || 'thandi@example.co.za',
      merchant_id: merchant.merchantId,
    });
    const notifyUrl = form.get('notify_url');
    if (notifyUrl) await sendItn(notifyUrl, fields, { passphrase: merchant.passphrase });
    res.writeHead(302, { location: form.get('return_url') ?? '/' });
    res.end();
    return 302;
  };

  const validate = (raw: string, res: ServerResponse): number => {
    if (fake.validate === 500) {
      text(res, 500, 'Internal Server Error');
      return 500;
    }
    const known = fake.validate === 'normal' && sent.some((s) => s.paramString === raw);
    text(res, 200, known ? 'VALID' : 'INVALID');
    return 200;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'POST') {
      text(res, 404, 'Not found');
      return 404;
    }
    const raw = await bodyOf(req);
    if (path === '/eng/process') return payPage(raw, res);
    if (path === '/eng/process/complete') return complete(raw, res);
    if (path === '/eng/query/validate') return validate(raw, res);
    text(res, 404, 'Not found');
    return 404;
  };

  const server = createServer((req, res) => {
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? '', path: req.url ?? '', status }),
      (err) => {
        requests.push({ method: req.method ?? '', path: req.url ?? '', status: 500 });
        text(res, 500, String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
