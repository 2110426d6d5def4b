import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountingConfig } from '@platform/accounting';
import { agentsConfig } from '@platform/agents';
import { brokerConfig } from '@platform/broker';
import { consoleConfig } from '@platform/console';
import { constructionConfig } from '@platform/construction';
import { documentsConfig } from '@platform/documents';
import { identityConfig } from '@platform/identity';
import { vendorsConfig } from '@platform/vendors';
import { workspaceConfig } from '@platform/workspace';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

/** Every .ts file under the product source folders: packages/*\/src, services/*\/src, apps/*\/src. */
function productSources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts')) files.push(path);
    }
  };
  for (const top of ['packages', 'services', 'apps']) {
    for (const pkg of readdirSync(join(root, top), { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      try {
        walk(join(root, top, pkg.name, 'src'));
      } catch {
        // a package without src/ has no product source
      }
    }
  }
  return files;
}

/** The names a config function reads: it is called on an environment that records each look-up. */
function namesRead(config: (env: Record<string, string | undefined>) => unknown): string[] {
  const seen = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get: (_t, key) => {
      if (typeof key === 'string') seen.add(key);
      return undefined;
    },
  });
  try {
    config(env);
  } catch {
    // a required variable missing: what was read before it still counts
  }
  return [...seen];
}

/**
 * Variables the product reads: each service's config schema (the single source of its settings),
 * direct reads (`env.X`, `process.env.X`, `env['X']`), the variables the broker's catalog names
 * (`base_url_env`, `key_env`), and name prefixes built at run time (`CLIENT_SECRET_${…}`) as `PREFIX_*`.
 */
function variablesTheCodeReads(): Set<string> {
  const names = new Set<string>();
  for (const config of [
    accountingConfig,
    agentsConfig,
    brokerConfig,
    consoleConfig,
    constructionConfig,
    documentsConfig,
    identityConfig,
    vendorsConfig,
    workspaceConfig,
  ])
    for (const n of namesRead(config)) names.add(n);
  for (const file of productSources()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1] as string);
    for (const m of text.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) names.add(m[1] as string);
    for (const m of text.matchAll(/\b(?:base_url_env|key_env):\s*['"]([A-Z][A-Z0-9_]*)['"]/g))
      names.add(m[1] as string);
    for (const m of text.matchAll(/`([A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*)\$\{/g)) names.add(`${m[1]}*`);
  }
  return names;
}

/** Markdown table rows of a text: their first cell's backticked names (`PORT_<SERVICE>` becomes `PORT_*`). */
function firstCellNames(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    out.push(...backtickedNames(line.split('|')[1] ?? ''));
  }
  return out;
}

/** Backticked variable names; `_FILE` after `X` is `X_FILE`, `X=1` is `X`, `X_<Y>` is the pattern `X_*`. */
function backtickedNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    const token = (m[1] as string).replace(/=.*$/, '');
    const suffix = /^_[A-Z0-9_]+$/.test(token) && out.length ? `${out[out.length - 1]}${token}` : undefined;
    if (suffix) out.push(suffix);
    else if (/^[A-Z][A-Z0-9_]*$/.test(token)) out.push(token);
    else if (/^[A-Z][A-Z0-9_]*_<[A-Z_]+>$/.test(token)) out.push(token.replace(/<[A-Z_]+>$/, '*'));
  }
  return out;
}

/** The text from a heading to the next heading of the same or a higher level. */
function section(readme: string, heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}"`);
  const level = (heading.match(/^#+/)?.[0] ?? '#').length;
  const rest = readme.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

/** README's variables: the configuration table, the test and bench table, the trust table and identity's paragraph. */
function variablesTheReadmeNames() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const configuration = section(readme, '## Configuration');
  const [settings = '', testing = ''] = configuration.split(/^Test and benchmark settings:$/m);
  const trust = section(readme, '### How a service trusts the issuer and the gateway');
  const identity = trust.slice(trust.indexOf('Identity itself:')).split('\n\n')[0] ?? '';
  return {
    /** Settings of the product: each must be read by the code. */
    product: new Set([...firstCellNames(settings), ...firstCellNames(trust), ...backtickedNames(identity)]),
    /** Settings of the tests and benchmarks: their readers are mostly outside the product source. */
    testing: new Set(firstCellNames(testing)),
  };
}

const covers = (documented: Set<string>, name: string) =>
  documented.has(name) ||
  [...documented].some((d) => d.endsWith('*') && name.startsWith(d.slice(0, -1)) && name !== d.slice(0, -1));

describe('README configuration', () => {
  it("13.6 the README's configuration table names every variable the code reads", () => {
    const read = variablesTheCodeReads();
    const { product, testing } = variablesTheReadmeNames();
    const documented = new Set([...product, ...testing]);
    const undocumented = [...read].filter((n) => !covers(documented, n)).sort();
    expect.soft(undocumented, "variables the code reads that README.md's tables do not name").toEqual([]);
    const unread = [...product].filter((n) => !read.has(n) && ![...read].some((r) => covers(new Set([n]), r))).sort();
    expect.soft(unread, 'README.md rows for variables no product code reads').toEqual([]);
  });
});
