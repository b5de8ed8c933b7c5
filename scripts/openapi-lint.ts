// `npm run openapi:lint`: the catalogue's OpenAPI document through Redocly (`recommended`,
// redocly.yaml) and Spectral (`spectral:oas`, .spectral.yaml). Any error or warning fails,
// each one listed with its rule and where it is, then the count per rule. Both run offline:
// no telemetry, no update check, no ruleset fetched. One finding is weighed here rather than
// switched off: two paths Redocly calls ambiguous that a UUID parameter tells apart (below).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openApiDocument } from '../src/openapi-document.ts';
import { DOCUMENT_SERVER_URL, writeDocumentFile } from './document-file.ts';
import { packageBin } from './package-bin.ts';

const ROOT = join(import.meta.dirname, '..');
/** A linter that has not answered in this time is stuck (e.g. waiting on the network). */
const TIMEOUT_MS = 120_000;

interface Finding {
  tool: 'redocly' | 'spectral';
  severity: 'error' | 'warning';
  rule: string;
  /** A JSON pointer into the document. */
  where: string;
  message: string;
}

const OFFLINE_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

function run(tool: string, args: string[]): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: OFFLINE_ENV,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`${tool} did not finish: ${result.error.message}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

function parsed<T>(tool: string, out: { stdout: string; stderr: string }): T {
  try {
    return JSON.parse(out.stdout) as T;
  } catch {
    throw new Error(`${tool} did not answer JSON:\n${out.stdout}\n${out.stderr}`);
  }
}

function redocly(file: string): Finding[] {
  const out = run('redocly', [
    packageBin('@redocly/cli', 'redocly'),
    'lint',
    file,
    '--config',
    join(ROOT, 'redocly.yaml'),
    '--format=json',
  ]);
  const report = parsed<{
    problems: Array<{
      ruleId: string;
      severity: string;
      message: string;
      location: Array<{ pointer?: string }>;
    }>;
  }>('redocly', out);
  return report.problems
    .filter((p) => p.severity === 'error' || p.severity === 'warn')
    .map((p) => ({
      tool: 'redocly',
      severity: p.severity === 'error' ? 'error' : 'warning',
      rule: p.ruleId,
      where: p.location[0]?.pointer ?? '#',
      message: p.message,
    }));
}

/** Spectral's severities: 0 error, 1 warning, 2 information, 3 hint. */
function spectral(file: string): Finding[] {
  const out = run('spectral', [
    packageBin('@stoplight/spectral-cli', 'spectral'),
    'lint',
    file,
    '--ruleset',
    join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
  ]);
  // With nothing to report, Spectral writes a sentence instead of an empty array.
  const results = out.stdout.trim().startsWith('[')
    ? parsed<Array<{ code: string; severity: number; message: string; path: Array<string | number> }>>(
        'spectral',
        out,
      )
    : [];
  return results
    .filter((r) => r.severity <= 1)
    .map((r) => ({
      tool: 'spectral',
      severity: r.severity === 0 ? 'error' : 'warning',
      rule: r.code,
      where: `#/${r.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
      message: r.message,
    }));
}

/**
 * Whether two templated paths Redocly calls ambiguous are told apart after all: at some segment
 * one has a literal and the other a parameter every operation declares a UUID, which the literal
 * is not (`/api/bills/credit-notes/{id}` beside `/api/bills/{id}/payments`: `credit-notes` is
 * never a bill's id). Our router matches literals first; a client sends a UUID or nothing.
 */
function toldApartByUuid(openApi: ReturnType<typeof openApiDocument>, a: string, b: string): boolean {
  const paths = openApi.paths as Record<string, Record<string, { parameters?: unknown[] }>>;
  const uuidParam = (path: string, name: string) =>
    Object.values(paths[path] ?? {}).every((op) =>
      (op.parameters ?? []).some((p) => {
        const param = p as { in?: string; name?: string; schema?: { format?: string } };
        return param.in === 'path' && param.name === name && param.schema?.format === 'uuid';
      }),
    );
  const sa = a.split('/');
  const sb = b.split('/');
  const isParam = (s: string) => s.startsWith('{') && s.endsWith('}');
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return sa.some((segment, i) => {
    const other = sb[i];
    if (other === undefined) return false;
    if (isParam(segment) && !isParam(other)) return !UUID.test(other) && uuidParam(a, segment.slice(1, -1));
    if (isParam(other) && !isParam(segment)) return !UUID.test(segment) && uuidParam(b, other.slice(1, -1));
    return false;
  });
}

const openApi = openApiDocument(DOCUMENT_SERVER_URL);
const document = writeDocumentFile(openApi);
let findings: Finding[];
try {
  findings = [...redocly(document.path), ...spectral(document.path)].filter((f) => {
    if (f.rule !== 'no-ambiguous-paths') return true;
    const [a, b] = [...f.message.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    return !(a && b && toldApartByUuid(openApi, a, b));
  });
} finally {
  document.remove();
}

for (const f of findings) {
  process.stdout.write(`${f.tool} ${f.severity} ${f.rule} ${f.where}\n    ${f.message}\n`);
}
if (findings.length === 0) {
  process.stdout.write('OpenAPI document: Redocly (recommended) and Spectral (spectral:oas) find nothing\n');
} else {
  const counts = new Map<string, number>();
  for (const f of findings) {
    const key = `${f.tool} ${f.severity} ${f.rule}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  process.stdout.write(`\n${findings.length} finding(s) in the OpenAPI document:\n`);
  for (const [key, n] of [...counts].sort()) process.stdout.write(`  ${String(n).padStart(4)}  ${key}\n`);
  process.exitCode = 1;
}
