// A file answered by a route: the handler returns a FileResponse and the catalogue renders it
// after the tenant transaction has committed (a long PDF never holds a database connection),
// then sends it with its content type and a Content-Disposition naming the file.
import { CSV_CONTENT_TYPE, toCsv } from './csv.ts';
import { type FileDocument, safeFilename } from './table.ts';

export const PDF_CONTENT_TYPE = 'application/pdf';

export class FileResponse {
  readonly contentType: string;
  readonly filename: string;
  readonly render: () => Promise<Buffer>;
  /** attachment (saved as a file, the default) or inline (shown where it is opened: an image). */
  readonly disposition: 'attachment' | 'inline';
  constructor(
    contentType: string,
    filename: string,
    render: () => Promise<Buffer>,
    disposition: 'attachment' | 'inline' = 'attachment',
  ) {
    this.contentType = contentType;
    this.filename = filename;
    this.render = render;
    this.disposition = disposition;
  }

  /** attachment; filename="…" (the name is already safe: no quotes, no path). */
  get contentDisposition(): string {
    return `${this.disposition}; filename="${this.filename}"`;
  }
}

export type FileFormat = 'csv' | 'pdf';

/** The media types a route that answers FileFormat documents may send, for its OpenAPI operation. */
export const FILE_MEDIA_TYPES = ['text/csv', 'application/pdf'] as const;

/** The document as a CSV or PDF file response. */
export function documentFile(format: FileFormat, doc: FileDocument): FileResponse {
  const name = `${safeFilename(doc.filename)}.${format}`;
  return format === 'csv'
    ? new FileResponse(CSV_CONTENT_TYPE, name, async () => toCsv(doc))
    : // pdfkit is loaded with the first PDF, not at start-up.
      new FileResponse(PDF_CONTENT_TYPE, name, async () => (await import('./pdf.ts')).toPdf(doc));
}

/**
 * The format a report is answered in: `format` when given, else the media type the Accept
 * header prefers among JSON, CSV and PDF (RFC 9110 §12.5.1, q-values; a tie keeps JSON), else
 * JSON. So `Accept: text/csv` alone is enough, and a client typed for JSON never gets a file.
 */
export function negotiatedFormat(
  format: 'json' | FileFormat | undefined,
  accept: string | undefined,
): 'json' | FileFormat {
  if (format) return format;
  if (!accept) return 'json';
  const offered: Record<string, 'json' | FileFormat> = {
    'application/json': 'json',
    [CSV_CONTENT_TYPE.split(';')[0]!]: 'csv',
    [PDF_CONTENT_TYPE]: 'pdf',
  };
  let best: { format: 'json' | FileFormat; q: number } = { format: 'json', q: -1 };
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? '1',
    );
    const chosen = offered[type!.trim()];
    if (chosen && Number.isFinite(q) && q > 0 && (q > best.q || (q === best.q && chosen === 'json'))) {
      best = { format: chosen, q };
    }
  }
  return best.q < 0 ? 'json' : best.format;
}
