// The shared file renderers: amounts for people, CSV (quoting, formulas kept as text, several
// tables), PDF (real pages, page breaks that repeat headings, footers, one embedded Unicode font).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractText, getDocumentProxy } from 'unpdf';
import { parseCsv } from '../../../test/support/csv.ts';
import { money } from '../money/money.ts';
import { toCsv } from './csv.ts';
import { BOLD, drawTable, pdfBuffer, printable, textColourOn, toPdf } from './pdf.ts';
import { documentFile } from './response.ts';
import {
  type FileDocument,
  formatAmount,
  formatMoney,
  formatNumber,
  longDate,
  safeFilename,
} from './table.ts';

function doc(rows: number, extra: Partial<FileDocument> = {}): FileDocument {
  return {
    title: 'Test report',
    organisation: 'Protea Holdings (Pty) Ltd',
    period: 'As at 28 February 2026',
    notes: ['Amounts in ZAR.'],
    filename: 'test report/../x',
    generatedAt: new Date('2026-03-01T09:30:00Z'),
    tables: [
      {
        columns: [
          { label: 'Name', width: 3 },
          { label: 'Date', kind: 'date' },
          { label: 'Amount', kind: 'money' },
        ],
        rows: Array.from({ length: rows }, (_, i) => ({
          cells: [`Row ${i + 1}`, '2026-02-01', money(i).plus('0.5')],
        })),
      },
    ],
    ...extra,
  };
}

async function pdfText(bytes: Buffer): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(pdf, { mergePages: false })).text;
}

describe('amounts and names', () => {
  test('formatMoney groups thousands with a space, two decimals, a minus sign', () => {
    assert.equal(formatMoney(money(0)), '0.00');
    assert.equal(formatMoney(money('1234567.891')), '1 234 567.89');
    assert.equal(formatMoney(money('-1234.5')), '-1 234.50');
    assert.equal(formatMoney(money('-0.001')), '0.00');
    assert.equal(formatMoney(money('999.995')), '1 000.00');
  });

  test('formatNumber keeps what decimals it has between a minimum and a maximum; formatAmount adds the currency', () => {
    assert.equal(formatNumber(money('3.0000'), 0, 4), '3');
    assert.equal(formatNumber(money('1234.5000'), 0, 4), '1 234.5');
    assert.equal(formatNumber(money('14.9900'), 2, 4), '14.99');
    assert.equal(formatNumber(money('0.1234'), 2, 4), '0.1234');
    assert.equal(formatNumber(money('2.00005'), 2, 4), '2.0001');
    assert.equal(formatNumber(money('-0.00001'), 0, 4), '0');
    assert.equal(formatAmount(money('1149.99'), 'ZAR'), 'R 1 149.99');
    assert.equal(formatAmount(money('-13.12'), 'ZAR'), '-R 13.12');
    assert.equal(formatAmount(money('1000000'), 'USD'), 'USD 1 000 000.00');
  });

  test('longDate and safeFilename', () => {
    assert.equal(longDate('2026-02-28'), '28 February 2026');
    assert.equal(safeFilename('income statement/../"x".csv'), 'income-statement-..-x-.csv');
    assert.equal(safeFilename('///'), 'file');
  });
});

describe('CSV', () => {
  test('a header row; amounts plain with two decimals; quoting; CRLF; formulas kept as text', () => {
    const text = toCsv({
      ...doc(0),
      tables: [
        {
          columns: [
            { label: 'Name' },
            { label: 'Count', kind: 'number' },
            { label: 'Amount', kind: 'money' },
          ],
          rows: [
            { cells: ['Plain', 3, money('1150')] },
            { cells: ['Comma, "quoted"\nand a line', null, money('-42.5')] },
            { cells: ['=SUM(A1:A9)', -1, money('0')] },
            { cells: ['+27 82 555 0100', null, null] },
            { cells: ['@risk', null, null] },
          ],
        },
      ],
    }).toString('utf8');
    assert.ok(text.endsWith('\r\n'));
    assert.deepEqual(parseCsv(text), [
      ['Name', 'Count', 'Amount'],
      ['Plain', '3', '1150.00'],
      ['Comma, "quoted"\nand a line', '', '-42.50'],
      ["'=SUM(A1:A9)", '-1', '0.00'],
      ["'+27 82 555 0100", '', ''],
      ["'@risk", '', ''],
    ]);
  });

  test('several tables: one block each, an empty line between', () => {
    const two = doc(2, {
      tables: [
        ...doc(1).tables,
        {
          columns: [{ label: 'Field' }, { label: 'Value', kind: 'money' }],
          rows: [{ cells: ['1', money(5)] }],
        },
      ],
    });
    assert.deepEqual(parseCsv(toCsv(two).toString('utf8')), [
      ['Name', 'Date', 'Amount'],
      ['Row 1', '2026-02-01', '0.50'],
      [''],
      ['Field', 'Value'],
      ['1', '5.00'],
    ]);
  });

  test('the file response names the file and renders on demand', async () => {
    const csv = documentFile('csv', doc(1));
    assert.equal(csv.contentType, 'text/csv; charset=utf-8');
    assert.equal(csv.contentDisposition, 'attachment; filename="test-report-..-x.csv"');
    assert.match((await csv.render()).toString('utf8'), /^Name,Date,Amount\r\n/);
    const pdf = documentFile('pdf', doc(1));
    assert.equal(pdf.contentType, 'application/pdf');
    assert.equal((await pdf.render()).subarray(0, 5).toString('latin1'), '%PDF-');
  });
});

describe('PDF', () => {
  test('a one-page document: organisation, title, period, notes, rows, footer', async () => {
    const [page, ...rest] = await pdfText(await toPdf(doc(3)));
    assert.deepEqual(rest, []);
    for (const s of [
      'Protea Holdings (Pty) Ltd',
      'Test report',
      'As at 28 February 2026',
      'Amounts in ZAR.',
      'Row 3',
      '2.50',
      'Page 1 of 1',
      '2026-03-01 09:30 UTC',
    ]) {
      assert.ok(page!.includes(s), `${s} in ${page}`);
    }
  });

  test('a long table breaks over pages, repeating the heading and the column labels', async () => {
    const pages = await pdfText(await toPdf(doc(400)));
    assert.ok(pages.length >= 6, `${pages.length} pages`);
    for (const [i, page] of pages.entries()) {
      assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`));
      assert.ok(page.includes('Protea Holdings (Pty) Ltd'));
      assert.ok(page.includes('Amount'));
    }
    const all = pages.join('\n');
    for (let i = 1; i <= 400; i++)
      assert.ok(
        all.includes(`Row ${i}\n`) || all.includes(`Row ${i} `) || all.endsWith(`Row ${i}`),
        `row ${i}`,
      );
    assert.ok(all.includes('399.50'));
  });

  test('the helpers draw a table into any document (invoices, payslips)', async () => {
    const bytes = await pdfBuffer((pdf) => {
      pdf.font(BOLD).fontSize(16).text('Tax invoice INV-0001');
      drawTable(pdf, doc(2).tables[0]!);
    });
    const [page] = await pdfText(bytes);
    assert.ok(page!.includes('Tax invoice INV-0001'));
    assert.ok(page!.includes('Row 2'));
  });

  test('a wrapping column prints all of its text over several lines; the heading band takes a colour', async () => {
    const long =
      'Site visit: inspection of the three cold rooms, the compressor housings and the loading bay doors, ' +
      'with a written report for each and photographs on request';
    const bytes = await pdfBuffer((pdf) => {
      drawTable(
        pdf,
        {
          columns: [
            { label: 'Description', width: 2, wrap: true },
            { label: 'Amount', kind: 'money' },
          ],
          rows: [{ cells: [long, money('1149.99')] }, { cells: ['Next row', money(1)] }],
        },
        { headingFill: '#1f4e79' },
      );
    });
    const [page] = await pdfText(bytes);
    // Wherever the lines break.
    assert.ok(page!.replace(/\s+/g, ' ').includes(long), page);
    assert.ok(page!.includes('Next row'));
    assert.ok(page!.includes('1 149.99'));
    assert.equal(textColourOn('#1f4e79'), '#ffffff');
    assert.equal(textColourOn('#f2f2f2'), '#000000');
  });

  test('text the font has prints as written, composed; what it lacks is replaced, not printed wrongly', () => {
    assert.equal(printable('debit − credit'), 'debit − credit');
    assert.equal(printable('Café – Crème brûlée “ok” €5'), 'Café – Crème brûlée “ok” €5');
    assert.equal(printable('Ṱhohoyanḓou, Łódź, Ελλάδα, Україна'), 'Ṱhohoyanḓou, Łódź, Ελλάδα, Україна');
    // A letter and its combining mark (T + U+032D) become the letter the font has (U+1E70).
    assert.equal(printable('T\u032dhohoyand\u032dou'), 'Ṱhohoyanḓou');
    assert.equal(printable('Ubuntu 🙂 Ltd'), 'Ubuntu ? Ltd');
    assert.equal(printable('zero\u200bwidth\ufeff'), 'zerowidth');
    assert.equal(printable('two\r\nlines\tand a tab\u0007'), 'two\nlines and a tab?');
  });

  test('every PDF embeds DejaVu Sans (a subset) and names no standard font; Unicode names read back', async () => {
    const unicode = doc(2, {
      organisation: 'Ṱhohoyanḓou Traders',
      period: 'Łódź branch, as at 28 February 2026',
    });
    unicode.tables[0]!.rows[0]!.cells[0] = 'Ṱhohoyanḓou depot (Łódź)';
    const report = await toPdf(unicode);
    const drawn = await pdfBuffer((pdf) => {
      pdf.text('Default font: Łódź');
      pdf.font(BOLD).text('Bold: Ṱhohoyanḓou');
    });
    for (const bytes of [report, drawn]) {
      const raw = bytes.toString('latin1');
      assert.match(raw, /\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
      assert.match(raw, /\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold\b/);
      assert.match(raw, /\/FontFile2/, 'the TrueType font is embedded');
      assert.doesNotMatch(raw, /Helvetica|Times-|Courier|Symbol|ZapfDingbats|\/Subtype \/Type1/);
    }
    const [page] = await pdfText(report);
    for (const s of ['Ṱhohoyanḓou Traders', 'Łódź branch', 'Ṱhohoyanḓou depot (Łódź)'])
      assert.ok(page!.includes(s), `${s} in ${page}`);
    const [other] = await pdfText(drawn);
    assert.ok(other!.includes('Default font: Łódź') && other!.includes('Bold: Ṱhohoyanḓou'), other);
  });
});
