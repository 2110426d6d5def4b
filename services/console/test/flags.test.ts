import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../src/registry/catalog.ts';
import { Registry } from '../src/registry/registry.ts';
import { loadScopes } from '../src/registry/scopes.ts';
import { type FlagServerFront, flagServerFront, type RealUnleash, type Seen, startUnleash } from './fakes/unleash.ts';
import { type Caller, consoleHarness, type Harness } from './harness.ts';

/**
 * Feature flags against the REAL unleash-server 7.5.1 (a fresh database on the local PostgreSQL
 * per run, its admin token made by initApiTokens), behind a front that records what the console
 * sent and adds Enterprise's service accounts (404 in the open-source server).
 */
let unleash: RealUnleash;
let front: FlagServerFront;
let h: Harness;
let urlUnset: Harness;
let seen0 = 0;
const F = '/v1/environments/us/core/flags';
const FEAT = `${F}/projects/default/features`;
const sent = (): Seen[] => front.seen.slice(seen0);

beforeAll(async () => {
  unleash = await startUnleash();
  front = await flagServerFront(unleash);
  h = await consoleHarness({ env: { US_CORE_FLAGS_URL: front.url, US_CORE_FLAGS_TOKEN: front.token } });
  urlUnset = await consoleHarness({ env: { US_CORE_FLAGS_TOKEN: front.token } });
  front.serviceAccounts.seed('Deployer', 'deployer');
  // An application the SDKs would have registered, with details to keep.
  const app = await fetch(`${unleash.url}/api/admin/metrics/applications/billing`, {
    method: 'POST',
    headers: { authorization: unleash.token, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'Billing', url: 'https://billing.example', color: '#336699', icon: 'money' }),
  });
  expect(app.status).toBe(202);
}, 180_000);
afterAll(async () => {
  await Promise.allSettled([h?.close(), urlUnset?.close(), front?.close()]);
  await unleash?.stop();
}, 60_000);
beforeEach(() => {
  seen0 = front.seen.length;
});

const get = (who: Caller, url: string, hh = h) => hh.app.inject({ method: 'GET', url, headers: hh.headers(who) });
const send = (who: Caller, method: 'POST' | 'PATCH', url: string, data: unknown, hh = h) =>
  hh.app.inject({
    method,
    url,
    headers: hh.writeHeaders(who),
    payload: { data, why: { code: 'ops', detail: 'test' } },
  });

describe('21 feature flags on the real unleash-server', () => {
  it('21 OPS-054 OPS-021 an engineer creates a flag and a strategy; they reach the subscription flag server', async () => {
    const created = await send('engineer', 'POST', FEAT, {
      name: 'checkout-v2',
      description: 'New checkout',
      type: 'experiment',
      impressionData: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().payload.data).toMatchObject({
      name: 'checkout-v2',
      type: 'experiment',
      impressionData: true,
    });
    const strategy = await send('engineer', 'POST', `${FEAT}/checkout-v2/environments/development/strategies`, {
      name: 'flexibleRollout',
      title: 'Half',
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout-v2' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    expect(strategy.statusCode).toBe(201);
    expect(sent().map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'POST /api/admin/projects/default/features 201',
      'POST /api/admin/projects/default/features/checkout-v2/environments/development/strategies 200',
    ]);
    expect(sent().every((s) => s.authorization === front.token)).toBe(true);
  });

  it('21 OPS-052 a viewer reads flags, a flag, strategies, values, applications, service accounts and keys', async () => {
    for (const url of [
      FEAT,
      `${FEAT}/checkout-v2`,
      `${FEAT}/checkout-v2/environments/development/strategies`,
      `${F}/applications`,
      `${F}/service-accounts`,
      `${F}/keys`,
    ]) {
      const res = await get('viewer', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().payload.data, url).toBeDefined();
    }
    const list = await get('viewer', FEAT);
    expect(list.json().payload.data.map((f: { name: string }) => f.name)).toContain('checkout-v2');
  });

  it('21 OPS-022 OPS-023 OPS-024 a details write reads first, keeps unsent fields and sends the read version', async () => {
    const res = await send('engineer', 'PATCH', `${FEAT}/checkout-v2`, { description: 'Checkout, second try' });
    expect(res.statusCode).toBe(200);
    const [read, write] = sent();
    expect(`${read.method} ${read.path}`).toBe('GET /api/admin/projects/default/features/checkout-v2');
    expect(`${write.method} ${write.path}`).toBe('PUT /api/admin/projects/default/features/checkout-v2');
    expect(read.etag).toMatch(/^W\/"/);
    expect(write.ifMatch).toBe(read.etag);
    expect(write.body).toEqual({
      description: 'Checkout, second try',
      type: 'experiment',
      stale: false,
      archived: false,
      impressionData: true,
    });
    const after = await get('viewer', `${FEAT}/checkout-v2`);
    expect(after.json().payload.data).toMatchObject({
      description: 'Checkout, second try',
      type: 'experiment',
      impressionData: true,
    });
  });

  it('21 OPS-022 OPS-023 OPS-024 a strategy write keeps the parameters, constraints and title not sent', async () => {
    const list = await get('viewer', `${FEAT}/checkout-v2/environments/development/strategies`);
    const id = list.json().payload.data[0].id as string;
    seen0 = front.seen.length;
    const res = await send('engineer', 'PATCH', `${FEAT}/checkout-v2/environments/development/strategies/${id}`, {
      parameters: { rollout: '30' },
    });
    expect(res.statusCode).toBe(200);
    const [read, write] = sent();
    expect(read.method).toBe('GET');
    expect(write.method).toBe('PUT');
    expect(write.path).toBe(read.path);
    expect(write.ifMatch).toBe(read.etag);
    expect(write.body).toMatchObject({
      name: 'flexibleRollout',
      title: 'Half',
      parameters: { rollout: '30', stickiness: 'userId', groupId: 'checkout-v2' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
    const after = await get('viewer', `${FEAT}/checkout-v2/environments/development/strategies`);
    expect(after.json().payload.data[0]).toMatchObject({
      title: 'Half',
      parameters: { rollout: '30', stickiness: 'userId', groupId: 'checkout-v2' },
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }],
    });
  });

  it('21 OPS-022 OPS-023 OPS-024 a values write lays each variant over the read one of its name, the strategy kept', async () => {
    const list = await get('viewer', `${FEAT}/checkout-v2/environments/development/strategies`);
    const id = list.json().payload.data[0].id as string;
    const VALUES = `${FEAT}/checkout-v2/environments/development/strategies/${id}/values`;
    const first = await send('engineer', 'PATCH', VALUES, {
      variants: [
        {
          name: 'blue',
          weight: 500,
          weightType: 'variable',
          stickiness: 'default',
          payload: { type: 'string', value: 'b' },
        },
        { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
      ],
    });
    expect(first.statusCode, JSON.stringify(sent().slice(-2))).toBe(200);
    seen0 = front.seen.length;
    const res = await send('engineer', 'PATCH', VALUES, {
      variants: [{ name: 'green', payload: { type: 'string', value: 'g' } }],
    });
    expect(res.statusCode).toBe(200);
    const [read, write] = sent();
    expect(`${read.method} ${write.method}`).toBe('GET PUT');
    expect(write.path).toBe(read.path);
    expect(write.ifMatch).toBe(read.etag);
    expect(write.body).toMatchObject({
      name: 'flexibleRollout',
      title: 'Half',
      parameters: { rollout: '30', stickiness: 'userId', groupId: 'checkout-v2' },
      variants: [
        { name: 'blue', payload: { type: 'string', value: 'b' } },
        { name: 'green', stickiness: 'default', payload: { type: 'string', value: 'g' } },
      ],
    });
    const after = await get('viewer', VALUES);
    expect(after.statusCode).toBe(200);
    const variants = after.json().payload.data.variants as { name: string; payload?: { value: string } }[];
    expect(variants.map((v) => [v.name, v.payload?.value])).toEqual([
      ['blue', 'b'],
      ['green', 'g'],
    ]);
  });

  it('21 OPS-022 OPS-023 an application write keeps the url, color and icon not sent', async () => {
    const res = await send('engineer', 'PATCH', `${F}/applications/billing`, { description: 'Billing and invoices' });
    expect(res.statusCode).toBe(200);
    const [read, write] = sent();
    expect(`${read.method} ${read.path}`).toBe('GET /api/admin/metrics/applications/billing');
    expect(`${write.method} ${write.path}`).toBe('POST /api/admin/metrics/applications/billing');
    expect(write.body).toEqual({
      description: 'Billing and invoices',
      url: 'https://billing.example',
      color: '#336699',
      icon: 'money',
    });
  });

  it("21 OPS-025 OPS-060 a duplicate flag is the server's 409 unchanged, logged before the attempt", async () => {
    const writes0 = h.log.writes().length;
    const res = await send('engineer', 'POST', FEAT, { name: 'checkout-v2', type: 'release' });
    expect(res.statusCode).toBe(409);
    const answer = sent().at(-1);
    expect(answer?.status).toBe(409);
    const error = res.json().payload.errors[0];
    expect(error.code).toBe('flag_server_conflict');
    expect(error.value).toEqual(answer?.answer);
    expect(error.value).toMatchObject({ name: 'NameExistsError' });
    expect(h.log.writes().slice(writes0)).toMatchObject([
      {
        actor: 'engineer@ops.test',
        action: 'flag.feature.create',
        target: 'us/core/flags/default/checkout-v2',
        why: { code: 'ops', detail: 'test' },
      },
    ]);
  });

  it("21 OPS-026 OPS-054 the service-account server's 422 comes back unchanged; an engineer's write reaches it", async () => {
    const bad = await send('engineer', 'POST', `${F}/service-accounts`, { name: 'Bot', username: 'bot', rootRole: 99 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload.errors[0].code).toBe('flag_server_unprocessable');
    expect(bad.json().payload.errors[0].value).toEqual(sent().at(-1)?.answer);
    const ok = await send('engineer', 'POST', `${F}/service-accounts`, { name: 'Bot', username: 'bot', rootRole: 2 });
    expect(ok.statusCode).toBe(201);
    const id = ok.json().payload.data.id as number;
    seen0 = front.seen.length;
    const renamed = await send('engineer', 'PATCH', `${F}/service-accounts/${id}`, { name: 'Release bot' });
    expect(renamed.statusCode).toBe(200);
    const [read, write] = sent();
    expect(write.ifMatch).toBe(read.etag);
    expect(write.body).toEqual({ name: 'Release bot', username: 'bot', rootRole: 2 });
  });

  it("21 OPS-024 OPS-025 the version travels: a change between the read and the write is the server's 409, unchanged", async () => {
    const list = await get('viewer', `${F}/service-accounts`);
    const id = list.json().payload.data.find((a: { username: string }) => a.username === 'deployer').id as number;
    seen0 = front.seen.length;
    front.before = (s) => {
      if (s.method === 'PUT') front.serviceAccounts.rename(id, 'Renamed meanwhile');
    };
    try {
      const res = await send('engineer', 'PATCH', `${F}/service-accounts/${id}`, { rootRole: 2 });
      expect(res.statusCode).toBe(409);
      const [read, write] = sent();
      expect(write.ifMatch).toBe(read.etag);
      expect(write.status).toBe(409);
      expect(res.json().payload.errors[0]).toMatchObject({ code: 'flag_server_conflict', value: write.answer });
    } finally {
      front.before = undefined;
    }
  });

  it('21 OPS-027 OPS-028 no list carries a key: API keys and service accounts without secrets', async () => {
    const keys = await get('viewer', `${F}/keys`);
    expect(keys.statusCode).toBe(200);
    // Unleash's own list does carry the secret; the console's does not.
    expect(JSON.stringify(sent().at(-1)?.answer)).toContain(front.token);
    expect(keys.body).not.toContain(front.token);
    expect(keys.json().payload.data).toEqual([
      expect.objectContaining({ tokenName: 'console-admin', type: 'admin', environment: '*' }),
    ]);
    expect(keys.json().payload.data[0]).not.toHaveProperty('secret');
    const accounts = await get('viewer', `${F}/service-accounts`);
    const seeded = JSON.stringify(sent().at(-1)?.answer);
    expect(seeded).toContain('"secret"');
    expect(accounts.body).not.toContain('"secret"');
    expect(accounts.json().payload.data[0]).toMatchObject({ username: 'deployer', tokens: [{ description: 'ci' }] });
  });

  it("21 OPS-055 OPS-029 OPS-030 a key read is an engineer's, logged with the reader and never the key", async () => {
    const viewer = await get('viewer', `${F}/keys/console-admin`);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.body).not.toContain(front.token);
    expect(sent()).toEqual([]);
    const writes0 = h.log.writes().length;
    const raw0 = h.log.raw.length;
    const res = await get('engineer', `${F}/keys/console-admin`);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.data).toMatchObject({ name: 'console-admin', tokens: [{ secret: front.token }] });
    expect(h.log.writes().slice(writes0)).toMatchObject([
      { actor: 'engineer@ops.test', action: 'flag.key.read', target: 'us/core/flags/keys/console-admin' },
    ]);
    expect(h.log.raw.slice(raw0).join('\n')).not.toContain(front.token);
    expect(h.log.raw.join('\n')).not.toContain(front.token);
    const missing = await get('engineer', `${F}/keys/nobody`);
    expect(missing.statusCode).toBe(404);
  });

  it("21 OPS-053 a viewer's write of each kind is 403 and nothing reaches the flag server", async () => {
    const writes: ['POST' | 'PATCH', string, unknown][] = [
      ['POST', FEAT, { name: 'nope' }],
      ['PATCH', `${FEAT}/checkout-v2`, { description: 'x' }],
      ['POST', `${FEAT}/checkout-v2/environments/development/strategies`, { name: 'default' }],
      ['PATCH', `${FEAT}/checkout-v2/environments/development/strategies/x`, { title: 'x' }],
      ['PATCH', `${FEAT}/checkout-v2/environments/development/strategies/x/values`, { variants: [{ name: 'blue' }] }],
      ['PATCH', `${F}/applications/billing`, { description: 'x' }],
      ['POST', `${F}/service-accounts`, { name: 'x', username: 'x', rootRole: 2 }],
      ['PATCH', `${F}/service-accounts/1`, { name: 'x' }],
    ];
    for (const [method, url, data] of writes) {
      const res = await send('viewer', method, url, data);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().payload.errors[0].code).toBe('insufficient_role');
    }
    expect(sent()).toEqual([]);
  });

  it("21 OPS-021 each subscription's flag routes reach its own flag server and no other", async () => {
    const euFront = await flagServerFront(unleash);
    const scopes = loadScopes();
    const eu = scopes.subscriptions.find((x) => x.region === 'eu');
    if (!eu) throw new Error('the committed scopes lack eu/core');
    eu.vars.flags = { url: 'EU_CORE_FLAGS_URL', token: 'EU_CORE_FLAGS_TOKEN' };
    const both = await consoleHarness({
      registry: (config) => new Registry(loadCatalog(), scopes, config.env),
      env: {
        US_CORE_FLAGS_URL: front.url,
        US_CORE_FLAGS_TOKEN: front.token,
        EU_CORE_FLAGS_URL: euFront.url,
        EU_CORE_FLAGS_TOKEN: euFront.token,
      },
    });
    try {
      const res = await get('viewer', '/v1/environments/eu/core/flags/projects/default/features', both);
      expect(res.statusCode).toBe(200);
      expect(euFront.seen.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /api/admin/projects/default/features']);
      expect(sent()).toEqual([]);
      const us = await get('viewer', '/v1/environments/us/core/flags/applications', both);
      expect(us.statusCode).toBe(200);
      expect(sent().map((x) => x.path)).toEqual(['/api/admin/metrics/applications']);
      expect(euFront.seen).toHaveLength(1);
    } finally {
      await both.close();
      await euFront.close();
    }
  });

  it('21 OPS-062 OPS-063 OPS-021 no flag-server block, or its URL unset: 501 and nothing reaches any server', async () => {
    const eu = '/v1/environments/eu/core/flags';
    for (const [who, res] of [
      ['viewer', await get('viewer', `${eu}/projects/default/features`)],
      ['viewer', await get('viewer', `${eu}/keys`)],
      ['engineer', await send('engineer', 'POST', `${eu}/projects/default/features`, { name: 'x' })],
      ['engineer', await get('engineer', `${eu}/keys/console-admin`)],
      ['viewer', await get('viewer', `${FEAT}`, urlUnset)],
      ['engineer', await send('engineer', 'PATCH', `${FEAT}/checkout-v2`, { description: 'x' }, urlUnset)],
    ] as const) {
      expect(res.statusCode, who).toBe(501);
      expect(res.json().payload.errors[0].code).toBe('flags_not_configured');
    }
    expect(sent()).toEqual([]);
  });
});
