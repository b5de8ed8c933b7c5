// The catalogue's OpenAPI document written to a temporary file, for tools that read files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiDocument } from '../src/openapi-document.ts';

/**
 * The server the checked document names: PUBLIC_BASE_URL's default for a local install. The
 * contract does not depend on it (the generated types carry no server).
 */
export const DOCUMENT_SERVER_URL = 'http://localhost:3000';

export interface DocumentFile {
  path: string;
  /** Removes the file and its directory. */
  remove(): void;
}

export function writeDocumentFile(document = openApiDocument(DOCUMENT_SERVER_URL)): DocumentFile {
  const dir = mkdtempSync(join(tmpdir(), 'bp-openapi-'));
  const path = join(dir, 'openapi.json');
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
