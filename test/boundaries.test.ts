// The module map, checked (docs/architecture.md draws it). Every import of src/ is read with the
// TypeScript compiler's parser (no type checking, so it takes a second) and held to the rules:
//   * a module imports another module through that module's index.ts only (tests, factories and
//     test support files aside: they may reach into what they test);
//   * a module's routes.ts is imported by src/catalogue.ts alone;
//   * the platform imports no module;
//   * no import cycle between modules, and no import from a lower module to a higher one: each
//     module has a layer (LAYERS below) and imports only modules of lower layers.
// A new module takes its place in LAYERS (and in docs/architecture.md) before its first import.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * The layers, lowest first: a module may import the platform and the modules of the layers
 * below its own, never its own layer's other modules or a higher layer's.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // The accounting kernel: posting, the chart, VAT, the checks before posting.
  ['ledger'],
  // What documents name: the companies (seeding their chart), contacts, products and stock.
  ['companies', 'contacts', 'inventory'],
  // Sales documents, the receivable others settle.
  ['invoices'],
  // What builds on sales documents or stands beside them.
  ['bills', 'payroll', 'crm', 'transactions'],
  // What settles or feeds documents: supplier side, bank, online payments.
  ['expenses', 'purchase-orders', 'banking', 'online-payments'],
  // Readers and set-up over everything.
  ['reports', 'sandbox', 'billing'],
];

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const modulesDir = join(src, 'modules');

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every relative import and re-export of a file, resolved, with whether it carries types only. */
function importsOf(file: string): Edge[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: Edge[] = [];
  const add = (spec: ts.Expression | undefined, typeOnly: boolean) => {
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) return;
    out.push({ from: file, to: resolve(dirname(file), spec.text), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const named =
        c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly =
        !!c && (c.isTypeOnly || (!c.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      const named =
        node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(
        node.moduleSpecifier,
        node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)),
      );
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The module a file of src/ belongs to, 'platform', or undefined (the app's own files). */
function ownerOf(file: string): string | undefined {
  const rel = relative(src, file).split('/');
  if (rel[0] === 'modules') return rel[1];
  if (rel[0] === 'platform') return 'platform';
  return undefined;
}

const isTestSide = (file: string) => /\.(test|factories|test-support)\.ts$/.test(file);
const show = (e: Edge) => `${relative(root, e.from)} → ${relative(root, e.to)}`;

const edges = tsFiles(src).flatMap(importsOf);
const moduleNames = readdirSync(modulesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
/** Imports from one module's code (not its tests) to another module. */
const crossModule = edges.filter((e) => {
  const from = ownerOf(e.from);
  const to = ownerOf(e.to);
  return !isTestSide(e.from) && from && from !== 'platform' && to && to !== 'platform' && from !== to;
});

test('every module has a layer, and every layer names modules that exist', () => {
  assert.deepEqual(
    moduleNames.filter((m) => !layerOf.has(m)),
    [],
    'a new module takes its place in LAYERS and docs/architecture.md',
  );
  assert.deepEqual(
    [...layerOf.keys()].filter((m) => !moduleNames.includes(m)),
    [],
  );
});

test('a module imports another module through its index.ts only (tests and factories aside)', () => {
  const around = crossModule.filter((e) => !e.to.endsWith(`${ownerOf(e.to)}/index.ts`));
  assert.deepEqual(around.map(show), []);
});

test('a module imports only modules of lower layers: no cycle, nothing from above', () => {
  const upward = crossModule.filter((e) => layerOf.get(ownerOf(e.to)!)! >= layerOf.get(ownerOf(e.from)!)!);
  assert.deepEqual(
    upward.map((e) => `${show(e)}${e.typeOnly ? ' (types)' : ''}`),
    [],
  );
});

test('no import cycle between modules (the graph of every import of module code)', () => {
  const graph = new Map<string, Set<string>>();
  for (const e of crossModule) {
    const from = ownerOf(e.from)!;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(ownerOf(e.to)!);
  }
  // Depth-first search; a node met again while on the path closes a cycle.
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (m: string) => {
    state.set(m, 'open');
    path.push(m);
    for (const n of graph.get(m) ?? []) {
      if (state.get(n) === 'open') cycles.push([...path.slice(path.indexOf(n)), n].join(' → '));
      else if (!state.has(n)) visit(n);
    }
    path.pop();
    state.set(m, 'done');
  };
  for (const m of graph.keys()) if (!state.has(m)) visit(m);
  assert.deepEqual(cycles, []);
});

test("a module's routes.ts is imported by src/catalogue.ts alone (tests aside)", () => {
  const catalogue = join(src, 'catalogue.ts');
  const others = edges.filter(
    (e) => /\/modules\/[\w-]+\/routes\.ts$/.test(e.to) && e.from !== catalogue && !isTestSide(e.from),
  );
  assert.deepEqual(others.map(show), []);
  for (const m of moduleNames) {
    const index = join(modulesDir, m, 'index.ts');
    const routeImports = importsOf(index).filter((e) => /\.routes\.ts$|\/routes\.ts$/.test(e.to));
    assert.deepEqual(routeImports.map(show), [], `${m}/index.ts exports services and types, not routes`);
  }
});

test('the platform imports no module (tests aside)', () => {
  const intoModules = edges.filter(
    (e) =>
      ownerOf(e.from) === 'platform' && !isTestSide(e.from) && ownerOf(e.to) !== 'platform' && ownerOf(e.to),
  );
  assert.deepEqual(intoModules.map(show), []);
});

test('the checker sees what it checks: the import graph is read', () => {
  // A guard against a parser that finds nothing (and so passes everything).
  assert.ok(crossModule.length > 50, `only ${crossModule.length} imports between modules were found`);
  assert.ok(
    crossModule.some((e) => e.from.includes('/online-payments/') && e.to.endsWith('/invoices/index.ts')),
  );
});
