// Gateway A's protocol (PayFast-style, as published): the signed redirect form that sends the
// payer to the gateway's payment page, and the signature of an ITN.
//
// The signature is the MD5 (lower-case hex) of the fields `name=urlencode(value)` joined with
// `&`, in the form's documented order (the ITN: in the order received), without `signature`,
// with `&passphrase=urlencode(passphrase)` appended when the merchant set one. urlencode is
// PHP's: RFC 1738 style, a space as `+`, every byte but letters, digits and `-_.` escaped as
// %XX in capitals. An ITN's signature is checked over its raw body as received (cut before
// `&signature=`), never over values decoded and encoded again.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { GatewayAKeys } from './gateways.service.ts';

/** PHP's urlencode(): what the gateway signs. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

/** The signature of a parameter string (fields already encoded and joined), with the passphrase. */
export function signParamString(paramString: string, passphrase: string | null): string {
  return md5(passphrase ? `${paramString}&passphrase=${phpUrlencode(passphrase.trim())}` : paramString);
}

/** The parameter string of fields in order: empty values left out, values trimmed. */
export function paramStringOf(fields: Array<[string, string]>): string {
  return fields
    .filter(([, v]) => v.trim() !== '')
    .map(([k, v]) => `${k}=${phpUrlencode(v.trim())}`)
    .join('&');
}

/** The redirect form's fields in the gateway's documented order (its signature depends on it). */
const FORM_ORDER = [
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'name_first',
  'name_last',
  'email_address',
  'cell_number',
  'm_payment_id',
  'amount',
  'item_name',
  'item_description',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'email_confirmation',
  'confirmation_address',
  'payment_method',
] as const;

export type FormField = (typeof FORM_ORDER)[number];

export interface PaymentFormInput {
  returnUrl: string;
  cancelUrl: string;
  notifyUrl: string;
  /** Our reference of the payment: the payment link's id (echoed back in the ITN). */
  mPaymentId: string;
  /** Rand, two decimals (e.g. "1150.00"). */
  amount: string;
  itemName: string;
  itemDescription?: string;
  emailAddress?: string;
  /** Echoed back in the ITN: the tenant (custom_str1) and the invoice (custom_str2). */
  customStr1?: string;
  customStr2?: string;
}

export interface PaymentForm {
  /** Where the form posts: the gateway's payment page. */
  action: string;
  /** The fields to post, in order, the signature last. */
  fields: Array<[string, string]>;
}

/** The signed form that sends the payer to the gateway's payment page (`{base}/eng/process`). */
export function paymentForm(baseUrl: string, keys: GatewayAKeys, input: PaymentFormInput): PaymentForm {
  const given: Partial<Record<FormField, string>> = {
    merchant_id: keys.merchantId,
    merchant_key: keys.merchantKey,
    return_url: input.returnUrl,
    cancel_url: input.cancelUrl,
    notify_url: input.notifyUrl,
    email_address: input.emailAddress ?? '',
    m_payment_id: input.mPaymentId,
    amount: input.amount,
    // The gateway limits item_name to 100 characters.
    item_name: input.itemName.slice(0, 100),
    item_description: (input.itemDescription ?? '').slice(0, 255),
    custom_str1: input.customStr1 ?? '',
    custom_str2: input.customStr2 ?? '',
  };
  const fields = FORM_ORDER.flatMap((k): Array<[string, string]> => {
    const v = given[k];
    return v !== undefined && v.trim() !== '' ? [[k, v.trim()]] : [];
  });
  return {
    action: `${baseUrl}/eng/process`,
    fields: [...fields, ['signature', signParamString(paramStringOf(fields), keys.passphrase)]],
  };
}

/**
 * An ITN's raw body split at its signature: the parameter string the gateway signed (everything
 * before `&signature=`, as received) and the signature it sent. null when there is none.
 */
export function splitItn(rawBody: string): { paramString: string; signature: string } | null {
  const at = rawBody.indexOf('&signature=');
  if (at < 0) return null;
  const rest = rawBody.slice(at + '&signature='.length);
  const signature = decodeURIComponent(rest.split('&')[0]!.replace(/\+/g, ' '));
  return { paramString: rawBody.slice(0, at), signature };
}

/** Whether an ITN's raw body carries a valid signature for the passphrase (constant time). */
export function itnSignatureValid(rawBody: string, passphrase: string | null): boolean {
  const split = splitItn(rawBody);
  if (!split || !/^[0-9a-f]{32}$/i.test(split.signature)) return false;
  const expected = Buffer.from(signParamString(split.paramString, passphrase), 'hex');
  const given = Buffer.from(split.signature.toLowerCase(), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
