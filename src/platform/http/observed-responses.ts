// Test instrumentation (OBSERVED_RESPONSES_DIR, set by `npm test`): one JSON line per answered
// request of a catalogue operation: its method, its catalogue path, the status, and for a 4xx
// or 5xx whether the body validates against the schema the OpenAPI document declares for that
// status and media type. test/observed-responses.check.ts reads the lines after the suite and
// fails on statuses an operation does not declare and on error bodies that do not match.
import { appendFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Json = Record<string, unknown>;

export interface ObservedResponse {
  method: string;
  /** The catalogue's path: /api/invoices/{id}. */
  path: string;
  status: number;
  /** The response's media type, without parameters. */
  mediaType?: string;
  /**
   * 4xx/5xx only: whether the body matches the declared schema of this status and media type;
   * null when the status is not declared (the check reports that by itself).
   */
  validates?: boolean | null;
  /** Why it does not validate, and the body that did not (cut short). */
  problem?: string;
  body?: string;
  /** The test file (or program) that made the request. */
  source: string;
}

const METHODS = new Set(['GET', 'PUT', 'POST', 'PATCH', 'DELETE']);
const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The file this process writes: one per process, so parallel test files never interleave. */
export function observedResponsesFile(dir: string): string {
  return join(dir, `responses-${process.pid}.jsonl`);
}

/** Fastify's /api/invoices/:id → the catalogue's /api/invoices/{id}. */
export function cataloguePath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:(\w+)/g, '{$1}');
}

/** A JSON pointer's segment, escaped, then made safe for a URI fragment (`{id}`). */
const pointerSegment = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));

/**
 * Validates error bodies against the document: Ajv 2020 (the document's dialect) holds the whole
 * document, so a response schema's `#/components/...` references resolve as they do for clients.
 */
export async function responseValidator(document: Json) {
  // CommonJS modules: their exports object is the default import.
  const [{ default: ajvModule }, { default: formatsModule }] = await Promise.all([
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
  ]);
  const { Ajv2020 } = ajvModule;
  const addFormats = formatsModule.default;
  // strict off: the document carries OpenAPI keywords (examples, contentMediaType, x-*) that are
  // not validation keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  const base = 'https://business-platform.invalid/openapi.json';
  ajv.addSchema(document, base);
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;

  const shared = ((document.components as Json | undefined)?.responses ?? {}) as Record<string, Json>;

  /**
   * The declared response of a status (exact, else its range 4XX, else default) and the JSON
   * pointer segments to it: a response shared by several operations is a $ref into
   * components.responses, followed here.
   */
  function declared(method: string, path: string, status: number): [string, Json, string[]] | undefined {
    const responses = (paths[path]?.[method.toLowerCase()]?.responses ?? {}) as Record<string, Json>;
    for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
      const response = responses[key];
      if (!response) continue;
      const ref = typeof response.$ref === 'string' ? response.$ref : undefined;
      if (ref?.startsWith('#/components/responses/')) {
        const name = ref.slice('#/components/responses/'.length);
        return [key, shared[name] ?? {}, ['components', 'responses', name]];
      }
      return [key, response, ['paths', path, method.toLowerCase(), 'responses', key]];
    }
    return undefined;
  }

  return {
    isOperation: (method: string, path: string) => Boolean(paths[path]?.[method.toLowerCase()]),
    check(
      method: string,
      path: string,
      status: number,
      mediaType: string | undefined,
      body: string,
    ): { validates: boolean | null; problem?: string } {
      const found = declared(method, path, status);
      if (!found) return { validates: null };
      const [key, response, at] = found;
      const content = (response.content ?? {}) as Record<string, unknown>;
      if (!mediaType || !(mediaType in content)) {
        return {
          validates: false,
          problem: `media type ${mediaType ?? '(none)'} is not declared for ${key} (declared: ${Object.keys(content).join(', ') || 'none'})`,
        };
      }
      // A JSON media type's body is parsed; any other (an HTML page) is checked as the text it is.
      let value: unknown = body;
      if (/[/+]json$/.test(mediaType)) {
        try {
          value = JSON.parse(body);
        } catch {
          return { validates: false, problem: 'the body is not JSON' };
        }
      }
      const pointer = [...at, 'content', mediaType, 'schema'].map(pointerSegment).join('/');
      const validate = ajv.getSchema(`${base}#/${pointer}`);
      if (!validate) return { validates: false, problem: `no schema at ${pointer}` };
      if (validate(value)) return { validates: true };
      return { validates: false, problem: ajv.errorsText(validate.errors, { dataVar: 'body' }) };
    },
  };
}

const bodies = new WeakMap<FastifyRequest, string>();

/**
 * Records every answer of a catalogue operation to `dir`. `document` builds the OpenAPI document
 * (once, at the first answer to record).
 */
export function observeResponses(app: FastifyInstance, dir: string, document: () => Json) {
  const file = observedResponsesFile(dir);
  const source = relative(ROOT, process.argv[1] ?? 'unknown');
  let validator: ReturnType<typeof responseValidator> | undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      bodies.set(request, payload.toString());
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route || !METHODS.has(request.method)) return;
    const line: ObservedResponse = {
      method: request.method,
      path: cataloguePath(route),
      status: reply.statusCode,
      source,
    };
    try {
      validator ??= responseValidator(document());
      const v = await validator;
      // Routes a test adds (not in the document) do not count.
      if (!v.isOperation(line.method, line.path)) return;
      const mediaType =
        String(reply.getHeader('content-type') ?? '')
          .split(';')[0]
          ?.trim() || undefined;
      if (mediaType) line.mediaType = mediaType;
      if (line.status >= 400) {
        const body = bodies.get(request) ?? '';
        const { validates, problem } = v.check(line.method, line.path, line.status, mediaType, body);
        line.validates = validates;
        if (problem) Object.assign(line, { problem, body: body.slice(0, 500) });
      }
    } catch (err) {
      // A recorder that fails must fail the check, not fall silent.
      Object.assign(line, { validates: false, problem: `the recorder failed: ${String(err)}` });
    }
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}
