// The OpenAPI document of the whole catalogue, built without a server: what the linters check
// and the TypeScript client is generated from. The one place outside the service that builds it,
// so the document the scripts see is the document the service serves.
import { catalogueDocument } from './catalogue.ts';

/** The catalogue's OpenAPI 3.1 document, with `serverUrl` as its one server. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  return catalogueDocument(serverUrl);
}
