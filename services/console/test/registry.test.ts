import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import {
  CATALOG_FILE,
  catalogDifferences,
  catalogText,
  generateCatalog,
  type PipelineFile,
  readPipelines,
} from '../src/registry/catalog.ts';
import { Registry } from '../src/registry/registry.ts';
import { loadScopes, variableNames } from '../src/registry/scopes.ts';

const run = promisify(execFile);

const pipeline = (p: Partial<PipelineFile> & Pick<PipelineFile, 'name' | 'kind'>): PipelineFile => ({
  domain: 'd',
  stages: [{ env: 'dev' }],
  ...p,
});

describe('21 registry: pipeline files to the committed catalog', () => {
  it('21 OPS-066 the committed catalog is the one generated from deploy/pipelines (npm run catalog -w services/console)', () => {
    expect(catalogDifferences(readFileSync(CATALOG_FILE, 'utf8'), generateCatalog(readPipelines()))).toEqual([]);
  });

  it('21 OPS-066 a committed catalog that differs from the generated one fails the check, naming the leaf', async () => {
    const generated = generateCatalog(readPipelines());
    const stale = JSON.parse(catalogText(generated));
    stale.subscriptions[0].services.pop();
    const leaf = `${stale.subscriptions[0].region}/${stale.subscriptions[0].subscription}`;
    expect(catalogDifferences(`${JSON.stringify(stale, null, 2)}\n`, generated)).toEqual([leaf]);
    // The CLI's check, as CI runs it, on the committed file.
    const ok = await run('npx', ['tsx', '--conditions=source', 'src/registry/catalog-cli.ts', '--check'], {
      cwd: join(import.meta.dirname, '..'),
    });
    expect(ok.stdout).toContain('matches');
  }, 60_000);

  it('21 OPS-032 OPS-033 OPS-034 OPS-035 OPS-036 five kinds per subscription; stages without region/subscription in us/core; tags service, app, mcp', () => {
    const c = generateCatalog([
      pipeline({
        name: 'svc',
        kind: 'service',
        stages: [{ env: 'dev' }, { env: 'prod', region: 'eu', subscription: 'core' }],
      }),
      pipeline({ name: 'web', kind: 'app', domain: 'ui' }),
      pipeline({ name: 'mcp', kind: 'gateway' }),
      pipeline({ name: 'job', kind: 'process', stages: [{ env: 'prod', region: 'us' }] }),
    ]);
    expect(c.subscriptions.map((l) => `${l.region}/${l.subscription}`)).toEqual(['eu/core', 'us/core']);
    for (const l of c.subscriptions)
      expect(Object.keys(l)).toEqual(expect.arrayContaining(['services', 'apps', 'gateways', 'processes', 'domains']));
    const us = c.subscriptions.find((l) => l.region === 'us') as (typeof c.subscriptions)[number];
    expect(us.services).toEqual([{ name: 'svc', domain: 'd', tags: ['service', 'dev'] }]);
    expect(us.apps).toEqual([{ name: 'web', domain: 'ui', tags: ['app', 'dev'] }]);
    expect(us.gateways).toEqual([{ name: 'mcp', domain: 'd', tags: ['mcp', 'dev'] }]);
    expect(us.processes).toEqual([{ name: 'job', domain: 'd', tags: ['process', 'prod'] }]);
    expect(us.domains).toEqual([
      { name: 'd', tags: ['domain', 'dev', 'prod'] },
      { name: 'ui', tags: ['domain', 'dev'] },
    ]);
    // The committed catalog: every entry tagged by its kind.
    for (const l of generateCatalog(readPipelines()).subscriptions) {
      for (const e of l.services) expect(e.tags[0]).toBe('service');
      for (const e of l.apps) expect(e.tags[0]).toBe('app');
      for (const e of l.gateways) expect(e.tags[0]).toBe('mcp');
    }
  });

  it('21 OPS-031 scopes name variables for cluster, bus, database and flag server, never values', () => {
    const scopes = loadScopes();
    for (const s of scopes.subscriptions) {
      for (const n of variableNames(s.vars)) expect(n).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(s.vars.cluster.kubeconfig).toBeTruthy();
      expect(s.vars.bus.url).toBeTruthy();
      expect(s.vars.database.url).toBeTruthy();
    }
    const dir = mkdtempSync(join(tmpdir(), 'console-scopes-'));
    const file = join(dir, 'scopes.json');
    const withValue = structuredClone(scopes);
    (withValue.subscriptions[0] as (typeof scopes.subscriptions)[number]).vars.database.url =
      'postgres://ops:secret@db/prod';
    writeFileSync(file, JSON.stringify(withValue));
    expect(() => loadScopes(file)).toThrow(ConfigError);
  });

  it('21 OPS-009 OPS-062 the scope resolver: variables read by name; eu/core unset is not ready and has no flag-server block', () => {
    const catalog = generateCatalog(readPipelines());
    const registry = new Registry(catalog, loadScopes(), {
      US_CORE_DATABASE_URL: 'postgres://127.0.0.1/x',
      US_CORE_BUS_URL: 'nats://127.0.0.1:4222',
      US_CORE_FLAGS_URL: 'http://flags',
    });
    const us = registry.resolve('us', 'core');
    expect(us).toMatchObject({ ready: true, databaseUrl: 'postgres://127.0.0.1/x', flags: { url: 'http://flags' } });
    expect(us.kubeconfig).toBeUndefined();
    const eu = registry.resolve('eu', 'core');
    expect(eu.ready).toBe(false);
    expect(eu.flags).toBeUndefined();
    expect(() => registry.resolve('ap', 'core')).toThrow(/No subscription ap\/core/);
  });
});
