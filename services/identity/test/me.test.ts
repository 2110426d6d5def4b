import { randomUUID } from 'node:crypto';
import { POLICIES } from '@platform/policies';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONTROLLER, fid, identityHarness, SERVICE_TOKEN, STAFF, SUPERADMIN } from './harness.ts';

let h: Awaited<ReturnType<typeof identityHarness>>;
beforeAll(async () => {
  h = await identityHarness();
});
afterAll(async () => h?.close());

const SUPERLABEL = 'superlabel@dev.local';
const PAYMENTS = 'service:payments';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type CanEntry = { scope_type: string; scope_id: string; actions: string[] };
type Authz = { fid: string; kind: string; can: CanEntry[] };

const email = (tag = 'me') => `${tag}-${randomUUID().slice(0, 8)}@example.com`;
const errorCode = (r: { body: { payload: { errors: { code: string }[] } } }) => r.body.payload.errors[0]?.code;

/** Headers of a platform service calling with the shared token, for a person or for itself. */
const viaService = (onBehalfOf?: string, token = SERVICE_TOKEN): Record<string, string> => ({
  'x-platform-service-token': token,
  ...(onBehalfOf ? { 'x-platform-on-behalf-of': onBehalfOf } : {}),
});

const state = () => h.state();

async function person(data: Record<string, unknown> = {}) {
  const r = await h.call('POST', '/v1/people', ADMIN, { data: { email: email(), ...data } });
  expect(r.status).toBe(201);
  return r.body.payload.data as { fid: string; email: string };
}

async function grant(target: string, data: Record<string, unknown>) {
  const r = await h.call('POST', `/v1/people/${target}/grants`, ADMIN, { data });
  expect(r.status).toBe(201);
  return r.body.payload.data as { id: string };
}

async function authz(as: string | null, headers: Record<string, string> = {}) {
  const r = await h.call('GET', '/v1/authz/me', as, undefined, headers);
  expect(r.status).toBe(200);
  return r.body.payload.data as Authz;
}

const entry = (a: Authz, scope_type: string, scope_id: string) =>
  a.can.find((e) => e.scope_type === scope_type && e.scope_id === scope_id);

/** What every signed-in person may do, read from a person without grants. */
const anyPersonActions = async () => entry(await authz(STAFF), 'global', '*')?.actions ?? [];

async function roleActions(role: string) {
  const r = await h.call('GET', '/v1/roles', STAFF);
  return (r.body.payload.data as { role: string; actions: string[] }[]).find((x) => x.role === role)?.actions ?? [];
}

/** SIGN-056..058: the shape every authz answer keeps. */
function expectCanShape(a: Authz) {
  expect(Array.isArray(a.can)).toBe(true);
  for (const e of a.can) {
    expect(Object.keys(e).sort()).toEqual(['actions', 'scope_id', 'scope_type']);
    expect(['global', 'building']).toContain(e.scope_type);
    if (e.scope_type === 'global') expect(e.scope_id).toBe('*');
    expect(Array.isArray(e.actions)).toBe(true);
    for (const action of e.actions) expect(typeof action).toBe('string');
  }
}

describe('GET /v1/me/profile', () => {
  it('SIGN-048 SIGN-051 answers the signed-in person: fid, email, email_verified and name under payload.data', async () => {
    const r = await h.call('GET', '/v1/me/profile', CONTROLLER);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['header', 'payload']);
    expect(r.body.payload.data).toEqual({
      fid: fid(CONTROLLER),
      email: CONTROLLER,
      email_verified: true,
      name: { first: 'Casey', last: 'Controller' },
    });
  });

  it('SIGN-050 takes no parameters and is 401 without a principal', async () => {
    const r = await h.call('GET', '/v1/me/profile', null);
    expect(r.status).toBe(401);
    expect(errorCode(r)).toBe('unauthenticated');
  });

  it('SIGN-052 unset name parts are empty strings', async () => {
    const none = await person();
    const firstOnly = await person({ name: { first: 'Ola' } });
    const a = await h.call('GET', '/v1/me/profile', none.email);
    const b = await h.call('GET', '/v1/me/profile', firstOnly.email);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.payload.data).toEqual({
      fid: none.fid,
      email: none.email,
      email_verified: false,
      name: { first: '', last: '' },
    });
    expect(b.body.payload.data.name).toEqual({ first: 'Ola', last: '' });
  });

  it('SIGN-051 SIGN-052 a signed-in person the store does not know gets a profile with empty parts', async () => {
    const stranger = email('stranger');
    const r = await h.call('GET', '/v1/me/profile', stranger);
    expect(r.status).toBe(200);
    expect(r.body.payload.data).toEqual({
      fid: fid(stranger),
      email: stranger,
      email_verified: false,
      name: { first: '', last: '' },
    });
  });

  it('SIGN-053 a machine client is refused with 403', async () => {
    const dev = await h.call('GET', '/v1/me/profile', PAYMENTS);
    const token = await h.call('GET', '/v1/me/profile', null, undefined, viaService());
    expect([dev.status, token.status]).toEqual([403, 403]);
  });

  it('SIGN-072 the service token acting for a person answers that person, by fid or by email', async () => {
    const byFid = await h.call('GET', '/v1/me/profile', null, undefined, viaService(fid(CONTROLLER)));
    const byEmail = await h.call('GET', '/v1/me/profile', null, undefined, viaService('Controller@Dev.Local'));
    const direct = await h.call('GET', '/v1/me/profile', CONTROLLER);
    expect([byFid.status, byEmail.status]).toEqual([200, 200]);
    expect(byFid.body.payload.data).toEqual(direct.body.payload.data);
    expect(byEmail.body.payload.data).toEqual(direct.body.payload.data);
  });
});

describe('GET /v1/authz/me', () => {
  it('SIGN-054 SIGN-055 answers fid, kind and can for the bearer; 401 without one', async () => {
    const r = await h.call('GET', '/v1/authz/me', CONTROLLER);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.payload.data).sort()).toEqual(['can', 'fid', 'kind']);
    expect(r.body.payload.data).toMatchObject({ fid: fid(CONTROLLER), kind: 'person' });
    const none = await h.call('GET', '/v1/authz/me', null);
    expect(none.status).toBe(401);
    expect(errorCode(none)).toBe('unauthenticated');
  });

  it('SIGN-056 SIGN-057 SIGN-058 every entry is {scope_type global|building, scope_id, actions[]}; global is *', async () => {
    const p = await person();
    await grant(p.fid, { role: 'accountant', scope_type: 'global', scope_id: '*' });
    await grant(p.fid, { role: 'controller', scope_type: 'building', scope_id: 'bldg-1' });
    for (const as of [CONTROLLER, ADMIN, SUPERADMIN, SUPERLABEL, STAFF, PAYMENTS, p.email]) {
      expectCanShape(await authz(as));
    }
    const mixed = await authz(p.email);
    expect(mixed.can.map((e) => `${e.scope_type}:${e.scope_id}`)).toEqual(['global:*', 'building:bldg-1']);
  });

  it("SIGN-055 a controller's global entry holds the controller's actions and what every person may do", async () => {
    const a = await authz(CONTROLLER);
    const global = entry(a, 'global', '*');
    expect(a.can).toHaveLength(1);
    expect(global?.actions).toEqual(
      [...new Set([...(await roleActions('controller')), ...(await anyPersonActions())])].sort(),
    );
    expect(global?.actions).toContain('accounting.periods.manage');
    expect(global?.actions).toContain('identity.profile.read');
    expect(global?.actions).not.toContain('identity.people.manage');
  });

  it('SIGN-055 a verified super admin lists every action', async () => {
    const a = await authz(SUPERADMIN);
    expect(entry(a, 'global', '*')?.actions).toEqual(expect.arrayContaining(await roleActions('super_admin')));
  });

  it('a super_admin label that is not verified lists only its accountant actions', async () => {
    const a = await authz(SUPERLABEL);
    expect(a.can).toHaveLength(1);
    const expected = [...new Set([...(await roleActions('accountant')), ...(await anyPersonActions())])].sort();
    expect(entry(a, 'global', '*')?.actions).toEqual(expected);
    expect(expected).not.toContain('identity.people.manage');
    const people = await h.call('GET', '/v1/people', SUPERLABEL);
    expect(people.status).toBe(403);
  });

  it('SIGN-054 SIGN-055 a service principal answers with its id and kind service', async () => {
    const a = await authz(PAYMENTS);
    expect(a.fid).toBe(PAYMENTS);
    expect(a.kind).toBe('service');
    expect(entry(a, 'global', '*')?.actions).toContain('identity.authz.read');
    expect(entry(a, 'global', '*')?.actions).not.toContain('identity.profile.read');
    const platform = await authz(null, viaService());
    expect(platform).toMatchObject({ fid: 'service:platform', kind: 'service' });
    expect(entry(platform, 'global', '*')?.actions).toContain('identity.principals.lookup');
  });

  it('SIGN-059 a grant added in the admin API is listed by the next authz/me; removed, it is omitted', async () => {
    const p = await person();
    const everyone = await anyPersonActions();
    const before = await authz(p.email);
    expect(before.can).toEqual([{ scope_type: 'global', scope_id: '*', actions: everyone }]);
    expect(entry(before, 'global', '*')?.actions).not.toContain('accounting.journal.write');

    const global = await grant(p.fid, { role: 'accountant', scope_type: 'global', scope_id: '*' });
    const building = await grant(p.fid, { role: 'controller', scope_type: 'building', scope_id: 'bldg-9' });
    const granted = await authz(p.email);
    expect(entry(granted, 'global', '*')?.actions).toContain('accounting.journal.write');
    expect(entry(granted, 'building', 'bldg-9')).toEqual({
      scope_type: 'building',
      scope_id: 'bldg-9',
      actions: [...(await roleActions('controller'))].sort(),
    });
    expect(entry(granted, 'global', '*')?.actions).not.toContain('accounting.periods.manage');

    const removeGlobal = await h.call('DELETE', `/v1/people/${p.fid}/grants/${global.id}`, ADMIN);
    expect(removeGlobal.status).toBe(200);
    const afterGlobal = await authz(p.email);
    expect(entry(afterGlobal, 'global', '*')?.actions).toEqual(everyone);
    expect(entry(afterGlobal, 'building', 'bldg-9')?.actions).toContain('accounting.periods.manage');

    const removeBuilding = await h.call('DELETE', `/v1/people/${p.fid}/grants/${building.id}`, ADMIN);
    expect(removeBuilding.status).toBe(200);
    const afterBuilding = await authz(p.email);
    expect(afterBuilding.can).toEqual([{ scope_type: 'global', scope_id: '*', actions: everyone }]);
  });

  it('SIGN-059 a grant takes effect on the people routes at once: platform_admin added, then removed', async () => {
    const p = await person();
    expect((await h.call('GET', '/v1/people', p.email)).status).toBe(403);
    const g = await grant(p.fid, { role: 'platform_admin', scope_type: 'global', scope_id: '*' });
    expect(entry(await authz(p.email), 'global', '*')?.actions).toContain('identity.people.manage');
    expect((await h.call('GET', '/v1/people', p.email)).status).toBe(200);
    expect((await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, ADMIN)).status).toBe(200);
    expect(entry(await authz(p.email), 'global', '*')?.actions).not.toContain('identity.people.manage');
    expect((await h.call('GET', '/v1/people', p.email)).status).toBe(403);
  });
});

describe('SIGN-070 a signed-in person without a grant', () => {
  it('SIGN-070 staff is 403 on every people admin route and nothing is written', async () => {
    const p = await person();
    const g = await grant(p.fid, { role: 'accountant', scope_type: 'global', scope_id: '*' });
    const before = await state();
    const answers = [
      await h.call('GET', '/v1/people', STAFF),
      await h.call('GET', `/v1/people/${p.fid}`, STAFF),
      await h.call('GET', `/v1/people/${p.fid}/grants`, STAFF),
      await h.call('POST', '/v1/people', STAFF, { data: { email: email() } }),
      await h.call('POST', `/v1/people/${p.fid}/name`, STAFF, { data: { first: 'A', last: 'B' } }),
      await h.call('POST', `/v1/people/${p.fid}/password`, STAFF, { data: { password: 'long enough password' } }),
      await h.call('POST', `/v1/people/${p.fid}/grants`, STAFF, {
        data: { role: 'platform_admin', scope_type: 'global', scope_id: '*' },
      }),
      await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, STAFF),
    ];
    expect(answers.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
    expect(answers.map(errorCode)).toEqual(Array(8).fill('forbidden'));
    expect(await state()).toEqual(before);
  });

  it('SIGN-070 an invalid body from staff is still 403, not 422 (who may call is settled first)', async () => {
    const before = await state();
    const r = await h.call('POST', '/v1/people', STAFF, { data: { email: 'not-an-email', extra: 1 } });
    expect(r.status).toBe(403);
    expect(await state()).toEqual(before);
  });
});

describe('SIGN-072 the shared service token', () => {
  it('SIGN-072 acting for a person by fid or email: authz/me answers as that person', async () => {
    const p = await person();
    await grant(p.fid, { role: 'accountant', scope_type: 'global', scope_id: '*' });
    const direct = await authz(p.email);
    const byFid = await authz(null, viaService(p.fid));
    const byUpperFid = await authz(null, viaService(p.fid.toUpperCase()));
    const byEmail = await authz(null, viaService(p.email.toUpperCase()));
    // Actions never taken through the token are left out (for everyone: workspace.act_as_owner).
    const notViaToken = new Set(
      Object.values(POLICIES).flatMap((policy) =>
        Object.entries(policy.actions)
          .filter(([, rule]) => rule.notViaServiceToken)
          .map(([action]) => `${policy.service}.${action}`),
      ),
    );
    const throughToken = direct.can.map((e) => ({ ...e, actions: e.actions.filter((a) => !notViaToken.has(a)) }));
    expect(throughToken).not.toEqual(direct.can);
    for (const a of [byFid, byUpperFid, byEmail]) {
      expect(a.fid).toBe(p.fid);
      expect(a.kind).toBe('person');
      expect(a.can).toEqual(throughToken);
    }
  });

  it('people and grants never change through the shared service token, even for a platform admin', async () => {
    const before = await state();
    const r = await h.call('POST', '/v1/people', null, { data: { email: email() } }, viaService(fid(ADMIN)));
    expect(r.status).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('SIGN-072 acting for a person without the grant is 403 and writes nothing', async () => {
    const before = await state();
    const r = await h.call('POST', '/v1/people', null, { data: { email: email() } }, viaService(fid(STAFF)));
    expect(r.status).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('SIGN-072 a wrong token is 401 with or without a person named, and never falls back to the dev header', async () => {
    const answers = [
      await h.call('GET', '/v1/authz/me', null, undefined, viaService(undefined, 'wrong-token')),
      await h.call('GET', '/v1/authz/me', null, undefined, viaService(fid(CONTROLLER), 'wrong-token')),
      await h.call('GET', '/v1/me/profile', CONTROLLER, undefined, viaService(fid(CONTROLLER), 'wrong-token')),
      await h.call('GET', '/v1/authz/me', null, undefined, viaService(undefined, '')),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(answers.map(errorCode)).toEqual(Array(4).fill('unauthenticated'));
  });

  it('SIGN-072 naming someone who is neither a fid nor an email is 401', async () => {
    const r = await h.call('GET', '/v1/authz/me', null, undefined, viaService('not a person'));
    expect(r.status).toBe(401);
  });
});

describe('GET /v1/principals/lookup', () => {
  const lookup = (query: string, as: string | null = null, headers: Record<string, string> = viaService()) =>
    h.call('GET', `/v1/principals/lookup?${query}`, as, undefined, headers);

  it('the service token finds a person by id with their grants', async () => {
    const r = await lookup(`id=${fid(CONTROLLER)}`);
    expect(r.status).toBe(200);
    expect(r.body.payload.data).toEqual({
      id: fid(CONTROLLER),
      kind: 'person',
      email: CONTROLLER,
      grants: [{ role: 'controller', scope_type: 'global', scope_id: '*', verified: false }],
    });
  });

  it('the service token finds a person by email in any case, and an upper-case id', async () => {
    const byId = await lookup(`id=${fid(SUPERADMIN)}`);
    const byEmail = await lookup(`email=${encodeURIComponent('SuperAdmin@Dev.Local')}`);
    const byUpperId = await lookup(`id=${fid(SUPERADMIN).toUpperCase()}`);
    expect([byId.status, byEmail.status, byUpperId.status]).toEqual([200, 200, 200]);
    expect(byEmail.body.payload.data).toEqual(byId.body.payload.data);
    expect(byUpperId.body.payload.data).toEqual(byId.body.payload.data);
    expect(byId.body.payload.data.grants).toEqual([
      { role: 'super_admin', scope_type: 'global', scope_id: '*', verified: true },
    ]);
  });

  it('a service id answers kind service; a person added by the admin API is found with a new grant', async () => {
    const svc = await lookup(`id=${PAYMENTS}`);
    expect(svc.status).toBe(200);
    expect(svc.body.payload.data).toEqual({ id: PAYMENTS, kind: 'service', grants: [] });
    const p = await person();
    await grant(p.fid, { role: 'accountant', scope_type: 'building', scope_id: 'b-77' });
    const found = await lookup(`email=${encodeURIComponent(p.email)}`);
    expect(found.body.payload.data).toEqual({
      id: p.fid,
      kind: 'person',
      email: p.email,
      grants: [{ role: 'accountant', scope_type: 'building', scope_id: 'b-77', verified: false }],
    });
  });

  it('404 for an unknown id or email', async () => {
    const answers = [
      await lookup(`id=${randomUUID()}`),
      await lookup(`email=${encodeURIComponent(email('nobody'))}`),
      await lookup('id=not-a-fid'),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404]);
  });

  it('422 for both id and email, for neither, or for an email that is not one', async () => {
    const both = await lookup(`id=${fid(CONTROLLER)}&email=${encodeURIComponent(CONTROLLER)}`);
    const neither = await lookup('');
    const bad = await lookup('email=nobody-at-all');
    expect([both.status, neither.status, bad.status]).toEqual([422, 422, 422]);
    expect([errorCode(both), errorCode(neither), errorCode(bad)]).toEqual([
      'invalid_lookup',
      'invalid_lookup',
      'invalid_email',
    ]);
  });

  it('people, the service token acting for a person, and other service principals get 403', async () => {
    const q = `id=${fid(CONTROLLER)}`;
    const answers = [
      await lookup(q, ADMIN, {}),
      await lookup(q, CONTROLLER, {}),
      await lookup(q, STAFF, {}),
      await lookup(q, null, viaService(fid(ADMIN))),
      await lookup(q, PAYMENTS, {}),
    ];
    expect(answers.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
  });

  it('401 without a principal', async () => {
    const r = await lookup(`id=${fid(CONTROLLER)}`, null, {});
    expect(r.status).toBe(401);
  });

  it('the fid of a dev principal is the stable dev fid', async () => {
    const r = await lookup(`email=${encodeURIComponent(STAFF)}`);
    expect(r.body.payload.data.id).toBe(fid(STAFF));
    expect(r.body.payload.data.id).toMatch(UUID);
    expect(r.body.payload.data.grants).toEqual([]);
  });
});
