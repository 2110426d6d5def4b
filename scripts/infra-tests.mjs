#!/usr/bin/env node
// Prints the test files whose run can differ on the real PostgreSQL and NATS: those that reach,
// through their imports, code reading TEST_POSTGRES_URL or TEST_NATS_URL. CI's second pass runs
// only these; a file that touches neither would run the same embedded test twice.
//
// Imports are followed statically: relative paths, and `@platform/<package>[/<sub>]` to the
// package's "source" export. Through a barrel (`export * from`) only the modules that declare
// an imported name are followed, so importing a fake clock from the kit's testing barrel does
// not count as importing its database helper.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = /\bTEST_(POSTGRES|NATS)_URL\b/;

/** `@platform/<name>` → its package directory and "source" exports. */
const packages = new Map();
for (const group of ['packages', 'services', 'apps']) {
  for (const dir of readdirSync(join(root, group))) {
    const file = join(root, group, dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    packages.set(pkg.name, { dir: join(root, group, dir), exports: pkg.exports ?? {} });
  }
}

function resolveSpecifier(from, spec) {
  if (spec.startsWith('.')) {
    const base = resolve(dirname(from), spec);
    for (const candidate of [base, `${base}.ts`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return undefined;
  }
  const match = /^(@platform\/[^/]+)(\/.*)?$/.exec(spec);
  if (!match) return undefined;
  const pkg = packages.get(match[1]);
  if (!pkg) return undefined;
  const entry = pkg.exports[match[2] ? `.${match[2]}` : '.'];
  const source = typeof entry === 'string' ? entry : entry?.source;
  return source ? join(pkg.dir, source) : undefined;
}

const sources = new Map();
const read = (file) => {
  if (!sources.has(file)) sources.set(file, readFileSync(file, 'utf8'));
  return sources.get(file);
};

/** Each import of a file: the specifier and the names it takes (undefined: all of them). */
function importsOf(file) {
  const text = read(file);
  const found = [];
  const statement = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(statement)) {
    if (m[1]) continue;
    const clause = m[2];
    const braces = /\{([\s\S]*)\}/.exec(clause);
    const names =
      braces && !/\*|^\s*\w+\s*,/.test(clause)
        ? braces[1]
            .split(',')
            .map((n) => n.trim())
            .filter((n) => n && !n.startsWith('type '))
            .map((n) => n.split(/\s+as\s+/)[0].trim())
        : undefined;
    if (names && names.length === 0) continue;
    found.push({ spec: m[3], names });
  }
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) found.push({ spec: m[1] });
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1] });
  return found;
}

const declares = (file, name) =>
  new RegExp(`export\\s+(?:async\\s+)?(?:function\\*?|const|let|class|enum)\\s+${name}\\b`).test(read(file)) ||
  new RegExp(`export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`).test(read(file));

/** The files an import of these names from `target` brings in, seen through barrels. */
function targetsOf(target, names) {
  const stars = [...read(target).matchAll(/export\s+\*\s+from\s+['"]([^'"]+)['"]/g)];
  if (!names || stars.length === 0) return [target];
  const out = [target];
  for (const star of stars) {
    const file = resolveSpecifier(target, star[1]);
    if (!file) continue;
    const wanted = names.filter((n) => declares(file, n) || read(file).includes('export *'));
    if (wanted.length > 0) out.push(...targetsOf(file, wanted));
  }
  return out;
}

const memo = new Map();
function touchesInfra(file, stack = new Set()) {
  if (memo.has(file)) return memo.get(file);
  if (stack.has(file)) return false;
  stack.add(file);
  let hit = MARKER.test(read(file));
  for (const { spec, names } of hit ? [] : importsOf(file)) {
    const target = resolveSpecifier(file, spec);
    if (!target) continue;
    // The barrel itself is read only for its own code, not for every module it re-exports.
    for (const next of targetsOf(target, names)) {
      const own = next === target && names && /export\s+\*\s+from/.test(read(target));
      if (own ? MARKER.test(read(target)) : touchesInfra(next, stack)) {
        hit = true;
        break;
      }
    }
    if (hit) break;
  }
  stack.delete(file);
  memo.set(file, hit);
  return hit;
}

function testFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts') && /\/test\//.test(path)) out.push(path);
  }
  return out;
}

const all = ['packages', 'services', 'apps'].flatMap((g) => testFiles(join(root, g))).sort();
const chosen = all.filter((f) => touchesInfra(f));
if (process.argv.includes('--summary')) {
  console.error(`${chosen.length} of ${all.length} test files reach real infrastructure`);
}
for (const file of chosen) console.log(relative(root, file));
