import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_FACETS } from '../src/logs/facets.ts';
import { balanced, scopedQuery } from '../src/logs/query.ts';
import { fakeDatadog } from './fakes/datadog.ts';
import { consoleHarness, type Harness } from './harness.ts';

const KEYS = { apiKey: 'dd-api-key-test', appKey: 'dd-app-key-test' };
const log = (id: string, env: string, message: string) => ({
  id,
  timestamp: '2026-11-26T10:00:00.000Z',
  service: 'construction',
  status: 'info',
  host: 'node-1',
  message,
  tags: [`env:${env}`, 'service:construction'],
});

let dd: Awaited<ReturnType<typeof fakeDatadog>>;
let h: Harness;
let bare: Harness;
let withFile: Harness;

beforeAll(async () => {
  dd = await fakeDatadog(KEYS, [
    log('1', 'dev', 'a happened'),
    log('2', 'prod', 'a in prod'),
    log('3', 'dev', 'b happened'),
  ]);
  h = await consoleHarness({ env: { DD_API_KEY: KEYS.apiKey, DD_APP_KEY: KEYS.appKey, DD_API_URL: dd.url } });
  bare = await consoleHarness({ env: { DD_API_URL: dd.url } });
  const file = join(tmpdir(), `console-facets-${process.pid}.json`);
  writeFileSync(file, JSON.stringify([{ facet: '@tenant', label: 'Tenant' }]));
  withFile = await consoleHarness({ env: { CONSOLE_LOG_FACETS_FILE: file } });
});
afterAll(async () => {
  await Promise.all([h.close(), bare.close(), withFile.close()]);
  await dd.close();
});

const search = (hh: Harness, qs: string) =>
  hh.app.inject({ method: 'GET', url: `/v1/logs/search?${qs}`, headers: hh.headers('viewer') });

describe('21 log search through Datadog Logs API v2', () => {
  it('21 OPS-010 OPS-011 OPS-012 OPS-051 the fake receives exactly env:dev (a OR b), and every row is of dev', async () => {
    const res = await search(h, `query=${encodeURIComponent('a OR b')}&limit=10`);
    expect(res.statusCode).toBe(200);
    expect(dd.searches.at(-1)).toEqual({
      path: '/api/v2/logs/events/search',
      apiKey: KEYS.apiKey,
      appKey: KEYS.appKey,
      body: {
        filter: { query: 'env:dev (a OR b)', from: 'now-15m', to: 'now' },
        sort: '-timestamp',
        page: { limit: 10 },
      },
    });
    const data = res.json().payload.data;
    expect(data.query).toBe('env:dev (a OR b)');
    expect(data.rows.map((r: { id: string }) => r.id)).toEqual(['1', '3']);
    for (const r of data.rows) expect(r.tags).toContain('env:dev');
    expect(data.next).toBeNull();
    expect(h.log.raw.join('\n')).not.toContain(KEYS.apiKey);
    expect(h.log.raw.join('\n')).not.toContain(KEYS.appKey);
  });

  it('21 OPS-012 OPS-051 a query that would step out of its parentheses is 400 and Datadog receives nothing', async () => {
    const n = dd.searches.length;
    for (const q of ['a) OR (env:prod', 'a OR (b', '"a)']) {
      const res = await search(h, `query=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().payload.errors[0].code).toBe('invalid_log_query');
    }
    expect(dd.searches.length).toBe(n);
    expect(balanced('service:"a)" (b OR c)')).toBe(true);
    expect(scopedQuery('prod', '')).toBe('env:prod');
  });

  it("21 OPS-051 Datadog's cursor pages through the environment's rows", async () => {
    const first = await search(h, 'limit=1');
    expect(first.json().payload.data.rows.map((r: { id: string }) => r.id)).toEqual(['1']);
    const next = first.json().payload.data.next;
    expect(next).toBe('1');
    const second = await search(h, `limit=1&cursor=${next}`);
    expect(second.json().payload.data.rows.map((r: { id: string }) => r.id)).toEqual(['3']);
    expect(dd.searches.at(-1)?.body.page).toEqual({ limit: 1, cursor: '1' });
  });

  it('21 OPS-064 without Datadog keys log search is 501 logs_not_configured and nothing is sent', async () => {
    const n = dd.searches.length;
    const res = await search(bare, 'query=a');
    expect(res.statusCode).toBe(501);
    expect(res.json().payload.errors[0].code).toBe('logs_not_configured');
    expect(dd.searches.length).toBe(n);
    const cfg = await bare.app.inject({ method: 'GET', url: '/v1/logs/config', headers: bare.headers('viewer') });
    expect(cfg.json().payload.data).toEqual({
      env: 'dev',
      site: 'datadoghq.com',
      configured: false,
      facets: 'built_in',
    });
  });

  it('21 OPS-013 OPS-010 facets: the built-in list without a facets file, the file when given', async () => {
    const builtIn = await h.app.inject({ method: 'GET', url: '/v1/logs/facets', headers: h.headers('viewer') });
    expect(builtIn.statusCode).toBe(200);
    expect(builtIn.json().payload.data).toEqual(BUILT_IN_FACETS);
    const fromFile = await withFile.app.inject({
      method: 'GET',
      url: '/v1/logs/facets',
      headers: withFile.headers('viewer'),
    });
    expect(fromFile.json().payload.data).toEqual([{ facet: '@tenant', label: 'Tenant' }]);
    const cfg = await h.app.inject({ method: 'GET', url: '/v1/logs/config', headers: h.headers('viewer') });
    expect(cfg.json().payload.data).toEqual({
      env: 'dev',
      site: 'datadoghq.com',
      configured: true,
      facets: 'built_in',
    });
  });

  it('21 OPS-010 no one without a gateway token searches', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/v1/logs/search?query=a' });
    expect(res.statusCode).toBe(401);
  });
});
