// `npm run openapi:lint`: the catalogue's OpenAPI document through Redocly (`recommended`,
// redocly.yaml) and Spectral (`spectral:oas`, .spectral.yaml). Any error or warning fails,
// each one listed with its rule and where it is, then the count per rule. Both run offline:
// no telemetry, no update check, no ruleset fetched.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { writeDocumentFile } from './document-file.ts';
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

const document = writeDocumentFile();
let findings: Finding[];
try {
  findings = [...redocly(document.path), ...spectral(document.path)];
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
