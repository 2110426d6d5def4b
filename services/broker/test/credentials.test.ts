import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFid } from '../src/tokens.ts';
import { exchange, lifetime, mint, testGateway, tokenFor, verifiedClaims } from './credentials-helpers.ts';
import { type As, fid, type Harness, harness, OTHER, STAFF, tag } from './harness.ts';

/** Spec 3, Broker credential and the credentials routes. */
let h: Harness;
let gateway: Awaited<ReturnType<typeof testGateway>>;
const START = '2025-06-16T15:00:00.000Z';

beforeAll(async () => {
  gateway = await testGateway();
  h = await harness({ now: START, authenticators: [gateway.authenticator] });
});
afterAll(() => h.close_());

const person = () => `p-${tag()}@broker.test`;
const mine = async (who: As) => {
  const r = await h.call('GET', '/v1/credentials/mine', who);
  h.expectStatus('list', r, 200);
  return r.data as Record<string, unknown>[];
};
const one = async (who: string, clientId: string) => (await mine(who)).find((c) => c.client_id === clientId);
const act = (who: As, clientId: string, action: string, body?: unknown, key?: string) =>
  h.call('POST', `/v1/credentials/mine/${clientId}/${action}`, who, body, key);

/** Everything a refused credential command could have changed. */
const state = async () => ({
  counts: await h.counts(),
  credentials: (await sql`SELECT * FROM credentials ORDER BY client_id`.execute(h.db)).rows,
});

describe('creating and listing', () => {
  it('BRK-020 BRK-021 BRK-023 rows carry name, kind, expires_at, state and client_id; kind defaults to personal, no expiry', async () => {
    const who = person();
    const { client_id } = await mint(h, who, { name: 'laptop' });
    const rows = await mine(who);
    expect(rows).toEqual([
      {
        client_id,
        name: 'laptop',
        kind: 'personal',
        status: 'enabled',
        expires_at: null,
        expired: false,
        email: who,
        secret_set_at: START,
        created_at: START,
        updated_at: START,
      },
    ]);
    expect(client_id).toMatch(/^bk-[0-9a-f]{24}$/);
    const stored = await sql<{
      expires_at: unknown;
    }>`SELECT expires_at FROM credentials WHERE client_id = ${client_id}`.execute(h.db);
    expect(stored.rows[0]?.expires_at).toBeNull();
  });

  it('BRK-022 BRK-149 kind service, name and expires_at are stored as sent', async () => {
    const who = person();
    const r = await h.call('POST', '/v1/credentials/mine', who, {
      data: { name: 'nightly job', kind: 'service', expires_at: '2026-01-31T00:00:00.000Z' },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ name: 'nightly job', kind: 'service', expires_at: '2026-01-31T00:00:00.000Z' });
    expect(r.data.email).toBe(`${r.data.client_id}@service.broker`);
    expect(await one(who, r.data.client_id)).toMatchObject({
      name: 'nightly job',
      kind: 'service',
      expires_at: '2026-01-31T00:00:00.000Z',
    });
  });

  it('BRK-022 a service credential adds its identity to the roster, created by the owner, in the same command', async () => {
    const who = person();
    const { client_id } = await mint(h, who, { name: 'etl', kind: 'service' });
    const email = `${client_id}@service.broker`;
    const row = await h.db.selectFrom('identities').selectAll().where('email', '=', email).executeTakeFirst();
    expect(row).toMatchObject({
      fid: identityFid(email),
      kind: 'service',
      name: 'etl',
      creator_fid: fid(who),
      creator_email: who,
    });
  });

  it('BRK-024 a far-future expires_at is accepted and stored as sent', async () => {
    const who = person();
    const r = await h.call('POST', '/v1/credentials/mine', who, {
      data: { name: 'forever-ish', expires_at: '9999-12-31T23:59:59.000Z' },
    });
    expect(r.status).toBe(201);
    expect((await one(who, r.data.client_id))?.expires_at).toBe('9999-12-31T23:59:59.000Z');
  });

  it('BRK-150 the secret is in the create response only: not listed, not replayed, not stored', async () => {
    const who = person();
    const key = `create-${tag()}`;
    const body = { data: { name: 'once' } };
    const r = await h.call('POST', '/v1/credentials/mine', who, body, key);
    expect(r.status).toBe(201);
    expect(r.data.secret).toMatch(/^bks_[A-Za-z0-9_-]{43}$/);
    const replay = await h.call('POST', '/v1/credentials/mine', who, body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data.client_id).toBe(r.data.client_id);
    expect(replay.data).not.toHaveProperty('secret');
    expect((await mine(who)).length).toBe(1);
    expect(await one(who, r.data.client_id)).not.toHaveProperty('secret');
    const dump = JSON.stringify([
      (await sql`SELECT * FROM credentials`.execute(h.db)).rows,
      (await sql`SELECT * FROM idempotency_keys`.execute(h.db)).rows,
    ]);
    expect(dump).not.toContain(r.data.secret);
    // The secret still works: what is stored is enough to check it.
    expect((await exchange(h, r.data.client_id, r.data.secret)).status).toBe(200);
  });

  it("BRK-148 GET /v1/credentials/mine lists only the caller's own credentials", async () => {
    const a = person();
    const b = person();
    const ca = await mint(h, a, { name: 'a1' });
    await mint(h, b, { name: 'b1' });
    const listed = await mine(a);
    expect(listed.map((c) => c.client_id)).toEqual([ca.client_id]);
  });

  it('BRK-149 a blank name is 422 invalid_name; a past expires_at is 422 invalid_expires_at; unknown fields 422; nothing written', async () => {
    const who = person();
    await mine(who); // joins the roster first: what follows must add nothing
    const before = await state();
    const blank = await h.call('POST', '/v1/credentials/mine', who, { data: { name: '   ' } });
    expect(blank.status).toBe(422);
    expect(blank.errors[0]).toMatchObject({ code: 'invalid_name', field: '/data/name' });
    const past = await h.call('POST', '/v1/credentials/mine', who, {
      data: { name: 'x', expires_at: '2025-06-16T14:59:59Z' },
    });
    expect(past.status).toBe(422);
    expect(past.errors[0]).toMatchObject({ code: 'invalid_expires_at', field: '/data/expires_at' });
    const extra = await h.call('POST', '/v1/credentials/mine', who, { data: { name: 'x', owner_email: OTHER } });
    expect(extra.status).toBe(422);
    expect(extra.errors[0].field).toBe('body/data/owner_email');
    const badKind = await h.call('POST', '/v1/credentials/mine', who, { data: { name: 'x', kind: 'agent' } });
    expect(badKind.status).toBe(422);
    expect(await state()).toEqual(before);
  });

  it('a command without Idempotency-Key is 400 and one without a caller 401, nothing written', async () => {
    const before = await state();
    const noKey = await h.call('POST', '/v1/credentials/mine', STAFF, { data: { name: 'x' } }, null);
    expect(noKey.status).toBe(400);
    expect(noKey.errors[0].code).toBe('idempotency_key_required');
    const anon = await h.call('POST', '/v1/credentials/mine', null, { data: { name: 'x' } });
    expect(anon.status).toBe(401);
    expect((await h.call('GET', '/v1/credentials/mine', null)).status).toBe(401);
    expect(await state()).toEqual(before);
  });
});

describe('life cycle', () => {
  it('BRK-025 BRK-031 disable shows disabled, enable shows enabled again', async () => {
    const who = person();
    const { client_id } = await mint(h, who);
    const off = await act(who, client_id, 'disable');
    expect(off.status).toBe(200);
    expect(off.data.status).toBe('disabled');
    expect((await one(who, client_id))?.status).toBe('disabled');
    const on = await act(who, client_id, 'enable');
    expect(on.status).toBe(200);
    expect(on.data.status).toBe('enabled');
    expect((await one(who, client_id))?.status).toBe('enabled');
  });

  it('BRK-026 BRK-027 BRK-032 a disabled credential issues no tokens; after enable the same secret exchanges', async () => {
    const who = person();
    const c = await mint(h, who);
    await act(who, c.client_id, 'disable');
    const exchanged = await exchange(h, c.client_id, c.secret);
    expect(exchanged.status).toBe(401);
    expect(exchanged.body).toEqual({ error: 'invalid_client', error_description: 'The credential is disabled' });
    const issued = await act(who, c.client_id, 'token');
    expect(issued.status).toBe(409);
    expect(issued.errors[0].code).toBe('credential_disabled');
    expect(JSON.stringify(issued.body)).not.toContain('access_token');
    await act(who, c.client_id, 'enable');
    const again = await exchange(h, c.client_id, c.secret);
    expect(again.status).toBe(200);
    expect(typeof again.body.access_token).toBe('string');
  });

  it('BRK-028 a token issued before disable authenticates after disable, until it expires', async () => {
    const who = person();
    const { client_id, token } = await tokenFor(h, who);
    await act(who, client_id, 'disable');
    const r = await h.call('GET', '/v1/credentials/mine', { token });
    expect(r.status).toBe(200);
    expect(r.data.map((c: { client_id: string }) => c.client_id)).toEqual([client_id]);
    try {
      h.setNow('2025-06-16T15:59:59.000Z');
      expect((await h.call('GET', '/v1/credentials/mine', { token })).status).toBe(200);
      // Past the hour and the verifier's few seconds of clock tolerance.
      h.setNow('2025-06-16T16:00:10.000Z');
      const late = await h.call('GET', '/v1/credentials/mine', { token });
      expect(late.status).toBe(401);
    } finally {
      h.setNow(START);
    }
  });

  it('BRK-029 rename is refused while disabled and the name is unchanged', async () => {
    const who = person();
    const { client_id } = await mint(h, who, { name: 'before' });
    await act(who, client_id, 'disable');
    const before = await state();
    const r = await act(who, client_id, 'rename', { data: { name: 'after' } });
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('credential_disabled');
    expect((await one(who, client_id))?.name).toBe('before');
    expect(await state()).toEqual(before);
  });

  it('BRK-030 rotate is refused while disabled and the secret is unchanged', async () => {
    const who = person();
    const c = await mint(h, who);
    await act(who, c.client_id, 'disable');
    const before = await state();
    const r = await act(who, c.client_id, 'rotate');
    expect(r.status).toBe(409);
    expect(r.errors[0].code).toBe('credential_disabled');
    expect(JSON.stringify(r.body)).not.toContain('bks_');
    expect(await state()).toEqual(before);
    await act(who, c.client_id, 'enable');
    expect((await exchange(h, c.client_id, c.secret)).status).toBe(200);
  });

  it('BRK-033 an expired credential cannot exchange', async () => {
    const who = person();
    const c = await mint(h, who, { name: 'short', expires_at: '2025-06-17T00:00:00Z' });
    expect((await exchange(h, c.client_id, c.secret)).status).toBe(200);
    try {
      h.setNow('2025-06-17T00:00:00.000Z');
      const r = await exchange(h, c.client_id, c.secret);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_client', error_description: 'The credential has expired' });
      expect((await one(who, c.client_id))?.expired).toBe(true);
      const issued = await act(who, c.client_id, 'token');
      expect(issued.status).toBe(409);
      expect(issued.errors[0].code).toBe('credential_expired');
    } finally {
      h.setNow(START);
    }
  });

  it('BRK-151 rotate shows a new secret once; the old secret stops at once and the new one exchanges', async () => {
    const who = person();
    const c = await mint(h, who);
    const key = `rotate-${tag()}`;
    const r = await act(who, c.client_id, 'rotate', undefined, key);
    expect(r.status).toBe(200);
    expect(r.data.secret).toMatch(/^bks_/);
    expect(r.data.secret).not.toBe(c.secret);
    expect(r.data.client_id).toBe(c.client_id);
    const replay = await act(who, c.client_id, 'rotate', undefined, key);
    expect(replay.status).toBe(200);
    expect(replay.data).not.toHaveProperty('secret');
    expect(replay.data).not.toHaveProperty('token');
    expect(await one(who, c.client_id)).not.toHaveProperty('secret');
    expect((await exchange(h, c.client_id, c.secret)).status).toBe(401);
    expect((await exchange(h, c.client_id, r.data.secret)).status).toBe(200);
    const keys = JSON.stringify((await sql`SELECT * FROM idempotency_keys`.execute(h.db)).rows);
    expect(keys).not.toContain(r.data.secret);
    expect(keys).not.toContain(r.data.token.access_token);
  });

  it('BRK-152 rotate returns a token valid for one hour when the credential has not expired', async () => {
    const who = person();
    const c = await mint(h, who);
    const r = await act(who, c.client_id, 'rotate');
    expect(r.data.token).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      expires_at: '2025-06-16T16:00:00.000Z',
    });
    expect(lifetime(r.data.token.access_token)).toBe(3600);
    const claims = await verifiedClaims(h, r.data.token.access_token);
    expect(claims.email).toBe(who);
    expect(claims.client_id).toBe(c.client_id);
  });

  it('BRK-153 rotate of an expired credential gives a new secret and no token', async () => {
    const who = person();
    const c = await mint(h, who, { name: 'old', expires_at: '2025-06-16T16:00:00Z' });
    try {
      h.setNow('2025-06-20T00:00:00.000Z');
      const r = await act(who, c.client_id, 'rotate');
      expect(r.status).toBe(200);
      expect(r.data.secret).toMatch(/^bks_/);
      expect(r.data.token).toBeNull();
      expect(r.data.expired).toBe(true);
    } finally {
      h.setNow(START);
    }
  });

  it('BRK-154 rename takes body name and the credential then shows it (a service identity is renamed too)', async () => {
    const who = person();
    const { client_id } = await mint(h, who, { name: 'first', kind: 'service' });
    const r = await act(who, client_id, 'rename', { data: { name: '  second  ' } });
    expect(r.status).toBe(200);
    expect(r.data.name).toBe('second');
    expect((await one(who, client_id))?.name).toBe('second');
    const identity = await h.db
      .selectFrom('identities')
      .select('name')
      .where('email', '=', `${client_id}@service.broker`)
      .executeTakeFirst();
    expect(identity?.name).toBe('second');
    const missing = await act(who, client_id, 'rename', { data: {} });
    expect(missing.status).toBe(422);
    expect(missing.errors[0].field).toBe('body/data/name');
  });

  it('BRK-155 POST .../token issues a one-hour token and shows no secret', async () => {
    const who = person();
    const c = await mint(h, who);
    const key = `token-${tag()}`;
    const r = await act(who, c.client_id, 'token', undefined, key);
    expect(r.status).toBe(200);
    expect(r.data.client_id).toBe(c.client_id);
    expect(r.data.token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(lifetime(r.data.token.access_token)).toBe(3600);
    expect(JSON.stringify(r.body)).not.toContain(c.secret);
    expect(r.data).not.toHaveProperty('secret');
    expect((await verifiedClaims(h, r.data.token.access_token)).email).toBe(who);
    const replay = await act(who, c.client_id, 'token', undefined, key);
    expect(replay.data).toEqual({ client_id: c.client_id });
  });

  it("another person's credential, or an unknown one, is 404 credential_not_found and unchanged", async () => {
    const owner = person();
    const c = await mint(h, owner, { name: 'mine' });
    for (const action of ['disable', 'enable', 'rotate', 'token']) {
      const r = await act(OTHER, c.client_id, action);
      expect(r.status).toBe(404);
      expect(r.errors[0].code).toBe('credential_not_found');
    }
    const rename = await act(OTHER, c.client_id, 'rename', { data: { name: 'stolen' } });
    expect(rename.status).toBe(404);
    expect((await act(owner, 'bk-000000000000000000000000', 'disable')).status).toBe(404);
    expect(await one(owner, c.client_id)).toMatchObject({ name: 'mine', status: 'enabled' });
    expect((await exchange(h, c.client_id, c.secret)).status).toBe(200);
  });
});

describe('who may manage credentials', () => {
  /** Every managing route, run by `as` against `clientId`. */
  const eachRoute = (clientId: string) =>
    [
      ['POST', '/v1/credentials/mine', { data: { name: 'new' } }],
      ['POST', `/v1/credentials/mine/${clientId}/rotate`, undefined],
      ['POST', `/v1/credentials/mine/${clientId}/rename`, { data: { name: 'renamed' } }],
      ['POST', `/v1/credentials/mine/${clientId}/token`, undefined],
      ['POST', `/v1/credentials/mine/${clientId}/disable`, undefined],
      ['POST', `/v1/credentials/mine/${clientId}/enable`, undefined],
    ] as const;

  it('BRK-164 create, rotate, rename, token, disable and enable accept the access-gateway session', async () => {
    const who = person();
    const session = await gateway.session(who);
    const created = await h.call('POST', '/v1/credentials/mine', session, { data: { name: 'gw' } });
    expect(created.status).toBe(201);
    expect(created.data.email).toBe(who);
    for (const [method, url, body] of eachRoute(created.data.client_id)) {
      const r = await h.call(method, url, session, body);
      expect([url, r.status]).toEqual([url, url.endsWith('/mine') ? 201 : 200]);
    }
    expect((await mine(session)).length).toBe(2);
  });

  it('BRK-177 staff may mint their own credential', async () => {
    const r = await h.call('POST', '/v1/credentials/mine', STAFF, { data: { name: 'staff laptop' } });
    expect(r.status).toBe(201);
    expect(r.data.email).toBe(STAFF);
    expect((await mine(STAFF)).map((c) => c.client_id)).toContain(r.data.client_id);
  });

  it('BRK-165 those routes accept the dev header', async () => {
    const who = person();
    const { client_id } = await mint(h, who);
    for (const [method, url, body] of eachRoute(client_id)) {
      const r = await h.call(method, url, who, body);
      expect([url, r.status]).toEqual([url, url.endsWith('/mine') ? 201 : 200]);
    }
  });

  it('BRK-166 those routes refuse a broker JWT (403 session_required) and nothing changes', async () => {
    const who = person();
    const { client_id, token } = await tokenFor(h, who);
    const before = await state();
    for (const [method, url, body] of eachRoute(client_id)) {
      const r = await h.call(method, url, { token }, body);
      expect([url, r.status, r.errors[0].code]).toEqual([url, 403, 'session_required']);
    }
    expect(await state()).toEqual(before);
  });

  it('BRK-167 those routes refuse the service token, with or without a person on behalf of, and nothing changes', async () => {
    const who = person();
    const { client_id } = await mint(h, who);
    const before = await state();
    for (const as of [{ service: who }, { service: null }]) {
      for (const [method, url, body] of eachRoute(client_id)) {
        const r = await h.call(method, url, as, body);
        expect([url, r.status]).toEqual([url, 403]);
      }
    }
    expect(await state()).toEqual(before);
  });

  it('BRK-186 a call with a credential token acts as the email in the token', async () => {
    const who = person();
    const { client_id, token } = await tokenFor(h, who);
    await mint(h, OTHER, { name: 'not listed' });
    const r = await h.call('GET', '/v1/credentials/mine', { token });
    expect(r.status).toBe(200);
    expect(r.data.map((c: { client_id: string }) => c.client_id)).toEqual([client_id]);
    // A service credential's token is its own identity, which owns no credentials.
    const service = await tokenFor(h, who, { name: 'svc', kind: 'service' });
    const asService = await h.call('GET', '/v1/credentials/mine', { token: service.token });
    expect(asService.status).toBe(200);
    expect(asService.data).toEqual([]);
  });

  it("BRK-168 other broker routes accept the broker JWT as that person: GET /v1/usage answers as the token's person", async () => {
    const who = person();
    const { token } = await tokenFor(h, who);
    const report = { data: { provider: 'openai', model: 'gpt-4.1-mini', input_tokens: 1000, output_tokens: 10 } };
    h.expectStatus('report', await h.call('POST', '/v1/usage', who, report), 201);
    h.expectStatus('report other', await h.call('POST', '/v1/usage', OTHER, report), 201);
    const r = await h.call('GET', '/v1/usage?group=call', { token });
    expect(r.status).toBe(200);
    expect(r.data.map((c: { actor_fid: string }) => c.actor_fid)).toEqual([fid(who)]);
    const others = await h.call('GET', `/v1/usage?person=${encodeURIComponent(OTHER)}`, { token });
    expect(others.status).toBe(403);
  });
});
