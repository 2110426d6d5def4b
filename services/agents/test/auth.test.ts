import { randomUUID } from 'node:crypto';
import { type App, devFid } from '@platform/kit';
import { injectJson } from '@platform/kit/testing';
import { createLocalJWKSet, exportJWK, exportPKCS8, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSigner } from '../../broker/src/tokens.ts';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { agentsConfig } from '../src/config.ts';
import { ROUTES } from '../src/routes/index.ts';
import { childOf } from './agents-fixtures.ts';
import {
  ADMIN,
  type AgentData,
  type As,
  EDITOR,
  fid,
  type Harness,
  harness,
  OWNER,
  STRANGER,
  testEnv,
  VIEWER,
} from './harness.ts';

let h: Harness;
let signer: TokenSigner;
let brokerApp: App;
const BROKER_ISSUER = 'urn:platform:model-broker';

/** The agents app of these tests, on the harness's database, with another authenticator or environment. */
const appWith = async (
  env: Record<string, string | undefined>,
  opts: Parameters<typeof agentsAuthenticator>[1] = {},
) => {
  const config = agentsConfig(testEnv(env));
  const app = (await buildApp({
    database: h.database,
    authenticator: agentsAuthenticator(config, opts),
    callers: callerPolicy(config),
    mailDomain: 'agents.dev.company.com',
    clock: h.now,
    logLevel: 'silent',
  })) as App;
  await app.ready();
  return app;
};

beforeAll(async () => {
  h = await harness();
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  // The broker's own signer: the tokens are exactly the ones it mints.
  signer = await TokenSigner.fromPem(await exportPKCS8(privateKey), BROKER_ISSUER);
  brokerApp = await appWith({}, { brokerJwks: createLocalJWKSet(signer.jwks()) });
});
afterAll(async () => {
  await brokerApp.close();
  await h.close_();
});

const credentialToken = async (email: string, kind: 'personal' | 'service' = 'personal', now = new Date()) =>
  (
    await signer.sign(
      { email, sub: devFid(email), client_id: `cli-${randomUUID().slice(0, 8)}`, kind, owner_email: email },
      now,
    )
  ).access_token;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An agent of OWNER shared with EDITOR (editor) and VIEWER (viewer). */
const sharedAgent = async (fields: Record<string, unknown> = {}) => {
  const a = await h.agent(fields);
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
  return a;
};
const ADMIN_AS_MEMBER: As = { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } };
const code = (r: { body: { payload: { errors?: { code: string }[] } } }) => r.body.payload.errors?.[0]?.code;

describe('who calls', () => {
  it('18 AGT-311 a gateway JWT acts as the person its email names', async () => {
    const a = await h.agent({ name: 'Gateway made' }, { gateway: ADMIN });
    expect(a.owner_fid).toBe(fid(ADMIN));
    const byHeader = await h.call('GET', `/v1/agents/${a.id}`, { headers: { 'x-dev-principal': ADMIN } });
    expect(byHeader.data.caller_role).toBe('owner');
    const mine = await h.call('GET', `/v1/agents/${a.id}`, { gateway: ADMIN });
    expect(mine.data.caller_role).toBe('owner');
    expect((await h.call('GET', `/v1/agents/${a.id}`, { gateway: ADMIN, aud: 'another-app' })).status).toBe(401);
  });

  it('18 AGT-312 a person’s broker credential token acts as that person', async () => {
    const a = await h.agent({ name: 'Credential reachable' });
    const token = await credentialToken(OWNER);
    const read = await injectJson(brokerApp, 'GET', `/v1/agents/${a.id}`, { headers: bearer(token) });
    expect(read.status).toBe(200);
    expect(read.data.caller_role).toBe('owner');
    const saved = await injectJson(brokerApp, 'PUT', `/v1/agents/${a.id}`, {
      headers: bearer(token),
      body: { data: { name: 'Saved with a credential' } },
      key: randomUUID(),
    });
    expect(saved.status).toBe(200);
    const created = await injectJson(brokerApp, 'POST', '/v1/agents', {
      headers: bearer(token),
      body: { data: { name: 'Made with a credential' } },
      key: randomUUID(),
    });
    expect(created.status).toBe(201);
    expect(created.data.owner_fid).toBe(fid(OWNER));
    const stranger = await injectJson(brokerApp, 'GET', `/v1/agents/${a.id}`, {
      headers: bearer(await credentialToken(STRANGER)),
    });
    expect(stranger.status).toBe(404);
  });

  it('18 AGT-312 a service credential, another key, another issuer or an expired token is 401', async () => {
    const a = await h.agent();
    const url = `/v1/agents/${a.id}`;
    const service = await injectJson(brokerApp, 'GET', url, {
      headers: bearer(await credentialToken(OWNER, 'service')),
    });
    expect(service.status).toBe(401);
    const expired = await credentialToken(OWNER, 'personal', new Date(Date.now() - 2 * 3600_000));
    expect((await injectJson(brokerApp, 'GET', url, { headers: bearer(expired) })).status).toBe(401);
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ email: OWNER, client_id: 'cli-x', credential_kind: 'personal' })
      .setProtectedHeader({ alg: 'ES256', kid: (await exportJWK(publicKey)).x, typ: 'JWT' })
      .setIssuer(BROKER_ISSUER)
      .setAudience('model-broker')
      .setSubject(fid(OWNER))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await injectJson(brokerApp, 'GET', url, { headers: bearer(forged) })).status).toBe(401);
    // Without the broker's keys configured, its tokens sign no one in.
    expect((await injectJson(h.app, 'GET', url, { headers: bearer(await credentialToken(OWNER)) })).status).toBe(401);
  });

  it('18 AGT-313 X-Dev-Principal names the caller only with DEV_AUTH=1', async () => {
    const a = await h.agent();
    expect((await h.call('GET', `/v1/agents/${a.id}`, OWNER)).status).toBe(200);
    const strict = await appWith({ DEV_AUTH: '0' });
    try {
      const r = await injectJson(strict, 'GET', `/v1/agents/${a.id}`, { headers: { 'x-dev-principal': OWNER } });
      expect(r.status).toBe(401);
    } finally {
      await strict.close();
    }
  });

  it('18 AGT-314 AGT-315 AGT-317 the service token is accepted, for the harness’s routes too, without membership', async () => {
    const a = await h.agent({}, STRANGER);
    expect((await h.call('GET', `/v1/agents/${a.id}`, { service: null })).data.caller_role).toBe('editor');
    const saved = await h.call('PUT', `/v1/agents/${a.id}`, { service: null }, { data: { name: 'By the service' } });
    expect(saved.status).toBe(200);
    const log = await h.call(
      'POST',
      `/v1/agents/${a.id}/logs`,
      { service: null },
      {
        data: { kind: 'heartbeat', message: 'alive' },
      },
    );
    expect(log.status).toBeLessThan(300);
    expect((await h.call('GET', `/v1/agents/${a.id}/logs`, { service: null })).status).toBe(200);
  });

  it('18 AGT-316 with X-Platform-Agent-Id the service token acts as that agent’s owner', async () => {
    const caller = await h.agent();
    const other = await h.agent({ name: 'Same owner' });
    const r = await h.call('PUT', `/v1/agents/${other.id}`, { service: caller.id }, { data: { name: 'By my agent' } });
    expect(r.status).toBe(200);
    expect(r.data.caller_role).toBe('owner');
    const [ev] = (await h.events('agent.updated')).filter((e) => e.payload.data.agent_id === other.id);
    expect(ev?.payload.data.actor_fid).toBe(`agent:${caller.id}`);
    const made = await h.agent({ name: 'Made by my agent' }, { service: caller.id });
    expect(made.owner_fid).toBe(fid(OWNER));
    const strangers = await h.agent({}, STRANGER);
    expect((await h.call('GET', `/v1/agents/${strangers.id}`, { service: caller.id })).status).toBe(404);
    const header = await h.call('GET', `/v1/agents/${other.id}`, {
      headers: { 'x-dev-principal': OWNER, 'x-platform-agent-id': caller.id },
    });
    expect(header.status).toBe(403);
    expect(code(header)).toBe('agent_header_not_allowed');
  });

  it('18 AGT-330 the policy still gates the action: a token of another application is refused though its person owns the agent', async () => {
    const a = await h.agent({}, ADMIN);
    const config = agentsConfig(testEnv());
    const other = (await buildApp({
      database: h.database,
      authenticator: {
        authenticate: async () => ({
          id: fid(ADMIN),
          kind: 'person',
          email: ADMIN,
          grants: [],
          via: 'gateway',
          app: 'some-other-app',
        }),
      },
      callers: callerPolicy(config),
      mailDomain: 'agents.dev.company.com',
      logLevel: 'silent',
    })) as App;
    await other.ready();
    try {
      const before = await h.state();
      expect((await injectJson(other, 'GET', `/v1/agents/${a.id}`, {})).status).toBe(401);
      const put = await injectJson(other, 'PUT', `/v1/agents/${a.id}`, {
        body: { data: { name: 'x' } },
        key: randomUUID(),
      });
      expect(put.status).toBe(401);
      expect(await h.state()).toEqual(before);
    } finally {
      await other.close();
    }
  });
});

type Op = 'get' | 'put' | 'delete' | 'members' | 'share' | 'unshare';
const send = (op: Op, id: string, as: As) => {
  switch (op) {
    case 'get':
      return h.call('GET', `/v1/agents/${id}`, as);
    case 'put':
      return h.call('PUT', `/v1/agents/${id}`, as, { data: { name: `Saved ${randomUUID()}` } });
    case 'delete':
      return h.call('DELETE', `/v1/agents/${id}`, as);
    case 'members':
      return h.call('GET', `/v1/agents/${id}/members`, as);
    case 'share':
      return h.call('PUT', `/v1/agents/${id}/members/${fid('third@agents.test')}`, as, { data: { role: 'viewer' } });
    case 'unshare':
      return h.call('DELETE', `/v1/agents/${id}/members/${fid(EDITOR)}`, as);
  }
};

const CALLERS: [string, As][] = [
  ['nobody', null],
  ['a stranger', STRANGER],
  ['a viewer', VIEWER],
  ['an editor', EDITOR],
  ['the owner', OWNER],
  ['an admin', ADMIN],
  ['an admin with X-Platform-As-Member', ADMIN_AS_MEMBER],
];
// status (or status:code) per caller, in CALLERS' order.
const TOP: Record<Op, string[]> = {
  get: ['401', '404', '200', '200', '200', '200', '404'],
  put: ['401', '404', '403:insufficient_role', '200', '200', '403:insufficient_role', '404'],
  delete: ['401', '404', '403:insufficient_role', '403:insufficient_role', '200', '403:insufficient_role', '404'],
  members: ['401', '404', '200', '200', '200', '200', '404'],
  share: ['401', '404', '403:insufficient_role', '200', '200', '403:insufficient_role', '404'],
  unshare: ['401', '404', '403:insufficient_role', '200', '200', '403:insufficient_role', '404'],
};
// A swarm member follows its top agent: the same roles, then its own conflicts.
const CHILD: Record<Op, string[]> = {
  get: ['401', '404', '200', '200', '200', '200', '404'],
  put: [
    '401',
    '404',
    '403:insufficient_role',
    '409:ephemeral_agent',
    '409:ephemeral_agent',
    '403:insufficient_role',
    '404',
  ],
  delete: [
    '401',
    '404',
    '403:insufficient_role',
    '403:insufficient_role',
    '409:ephemeral_agent',
    '403:insufficient_role',
    '404',
  ],
  members: ['401', '404', '409:child_agent', '409:child_agent', '409:child_agent', '409:child_agent', '404'],
  share: ['401', '404', '403:insufficient_role', '409:child_agent', '409:child_agent', '403:insufficient_role', '404'],
  unshare: [
    '401',
    '404',
    '403:insufficient_role',
    '409:child_agent',
    '409:child_agent',
    '403:insufficient_role',
    '404',
  ],
};

describe('every role case', () => {
  it('18 AGT-319 AGT-320 AGT-322 AGT-324 AGT-325 AGT-327 AGT-328 AGT-329 AGT-101 on a top-level agent: 404 without access, 403 insufficient_role below the role; refusals write nothing', async () => {
    for (const op of Object.keys(TOP) as Op[]) {
      for (const [i, [who, as]] of CALLERS.entries()) {
        const a = await sharedAgent();
        const before = await h.state();
        const r = await send(op, a.id, as);
        const expected = TOP[op][i] as string;
        const got = r.status >= 400 && code(r) && expected.includes(':') ? `${r.status}:${code(r)}` : String(r.status);
        expect(`${op} by ${who}: ${got}`).toBe(`${op} by ${who}: ${expected}`);
        if (r.status >= 400) expect(await h.state()).toEqual(before);
      }
    }
  });

  it('18 AGT-326 AGT-119 a swarm member follows its top ancestor: exactly the access held there', async () => {
    for (const op of Object.keys(CHILD) as Op[]) {
      for (const [i, [who, as]] of CALLERS.entries()) {
        const top = await sharedAgent();
        const child = await childOf(h, top);
        const before = await h.state();
        const r = await send(op, child.id, as);
        const expected = CHILD[op][i] as string;
        const got = r.status >= 400 && code(r) && expected.includes(':') ? `${r.status}:${code(r)}` : String(r.status);
        expect(`${op} on a child by ${who}: ${got}`).toBe(`${op} on a child by ${who}: ${expected}`);
        if (r.status >= 400) expect(await h.state()).toEqual(before);
        if (op === 'get' && r.status === 200) {
          expect(r.data.caller_role).toBe(({ 2: 'viewer', 3: 'editor', 4: 'owner', 5: null } as const)[i as 2]);
        }
      }
    }
  });

  it('18 AGT-323 only the owner archives: an editor’s archive is 403 insufficient_role and the status is unchanged', async () => {
    const a = await sharedAgent();
    const before = await h.state();
    const r = await h.call('POST', `/v1/agents/${a.id}/archive`, EDITOR, { data: {} });
    expect(r.status).toBe(403);
    expect(code(r)).toBe('insufficient_role');
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/agents/${a.id}`, OWNER)).data.status).toBe('active');
  });

  it('18 AGT-321 AGT-319 an editor changes tools and instructions', async () => {
    const a = await sharedAgent({ tools: ['send_email'] });
    const r = await h.call('PUT', `/v1/agents/${a.id}`, EDITOR, { data: { instructions: 'x', tools: ['send_sms'] } });
    expect(r.status).toBe(200);
    expect(r.data.tools).toEqual(['send_sms']);
  });

  it('18 AGT-327 a caller with no role gets 404 on every route of the agent that reads it without required query fields', async () => {
    const a: AgentData = await sharedAgent();
    // Routes whose query has required fields answer 422 to a bare URL before any agent is looked up.
    const reads = ROUTES.filter(
      (r) => r.method === 'GET' && r.url.startsWith('/v1/agents/:id') && !(r.query?.required?.length > 0),
    );
    expect(reads.length).toBeGreaterThan(2);
    for (const r of reads) {
      const url = r.url.replace(':id', a.id);
      const res = await h.call('GET', url, STRANGER);
      expect(`${url}: ${res.status}`).toBe(`${url}: 404`);
    }
  });
});
