// PDF answers in tests: the type and file name checked, the text of each page extracted with
// unpdf (pdf.js, offline), as a person reading the file would see it.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';

/** The text of each page of a PDF; `password` opens an encrypted one (pdf.js refuses it without). */
export async function pdfPages(bytes: Uint8Array, password?: string): Promise<string[]> {
  assert.equal(Buffer.from(bytes.subarray(0, 5)).toString('latin1'), '%PDF-');
  const pdf = await getDocumentProxy(new Uint8Array(bytes), password === undefined ? {} : { password });
  const { text } = await extractText(pdf, { mergePages: false });
  return text;
}

/** A PDF answer: 200, application/pdf, an attachment named like `filename`; its pages' text. */
export async function pdfOf(res: LightMyRequestResponse, filename: RegExp): Promise<string[]> {
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  assert.equal(res.headers['content-type'], 'application/pdf');
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="[\w.-]+\.pdf"$/);
  assert.match(String(res.headers['content-disposition']), filename);
  return pdfPages(res.rawPayload);
}
