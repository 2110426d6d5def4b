import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONTROLLER, fid, identityHarness, STAFF, SUPERADMIN } from './harness.ts';

let h: Awaited<ReturnType<typeof identityHarness>>;
beforeAll(async () => {
  h = await identityHarness();
});
afterAll(async () => h?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PASSWORD = 'correct horse battery staple';

/** A fresh address per call, so tests never depend on each other's people. */
const email = (tag = 'p') => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

const state = () => h.state();

type Event = { type: string; data: Record<string, unknown> };

async function events(type: string): Promise<{ event_type: string; payload: Event }[]> {
  const r = await sql<{ event_type: string; payload: unknown }>`
    SELECT event_type, payload FROM outbox WHERE event_type = ${type} ORDER BY id`.execute(h.database.db);
  return r.rows.map((row) => ({
    event_type: row.event_type,
    payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Event,
  }));
}

async function person(data: Record<string, unknown> = {}, as = ADMIN) {
  const r = await h.call('POST', '/v1/people', as, { data: { email: email(), ...data } });
  expect(r.status).toBe(201);
  return r.body.payload.data as { fid: string; email: string; name: { first: string; last: string } };
}

async function grant(target: string, data: Record<string, unknown>, as = ADMIN) {
  const r = await h.call('POST', `/v1/people/${target}/grants`, as, { data });
  expect(r.status).toBe(201);
  return r.body.payload.data as { id: string; role: string; verified: boolean };
}

const ACCOUNTANT_GLOBAL = { role: 'accountant', scope_type: 'global', scope_id: '*' };
const errorCode = (r: { body: { payload: { errors: { code: string }[] } } }) => r.body.payload.errors[0]?.code;

// 401, 403, 400 without a key, replay and 409 of every command route: routes.test.ts (issue 15.4).

describe('who manages people', () => {
  it('a platform admin and a verified super admin add people; each gets a fresh fid', async () => {
    const a = await h.call('POST', '/v1/people', ADMIN, { data: { email: email() } });
    const s = await h.call('POST', '/v1/people', SUPERADMIN, { data: { email: email() } });
    expect([a.status, s.status]).toEqual([201, 201]);
    expect(a.body.payload.data.fid).toMatch(UUID);
    expect(s.body.payload.data.fid).toMatch(UUID);
    expect(a.body.payload.data.fid).not.toBe(s.body.payload.data.fid);
  });

  it('SIGN-070 a controller is refused every people route with 403 and nothing is written', async () => {
    const p = await person();
    const g = await grant(p.fid, ACCOUNTANT_GLOBAL);
    const before = await state();
    const answers = [
      await h.call('GET', '/v1/people', CONTROLLER),
      await h.call('GET', `/v1/people/${p.fid}`, CONTROLLER),
      await h.call('GET', `/v1/people/${p.fid}/grants`, CONTROLLER),
      await h.call('POST', '/v1/people', CONTROLLER, { data: { email: email() } }),
      await h.call('POST', `/v1/people/${p.fid}/name`, CONTROLLER, { data: { first: 'X', last: 'Y' } }),
      await h.call('POST', `/v1/people/${p.fid}/password`, CONTROLLER, { data: { password: PASSWORD } }),
      await h.call('POST', `/v1/people/${p.fid}/grants`, CONTROLLER, { data: ACCOUNTANT_GLOBAL }),
      await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, CONTROLLER),
    ];
    expect(answers.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
    expect(await state()).toEqual(before);
  });

  it('SIGN-067 without a principal every people route is 401', async () => {
    const p = await person();
    const answers = [
      await h.call('GET', '/v1/people', null),
      await h.call('GET', `/v1/people/${p.fid}`, null),
      await h.call('GET', `/v1/people/${p.fid}/grants`, null),
      await h.call('GET', '/v1/roles', null),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(answers.map(errorCode)).toEqual([
      'unauthenticated',
      'unauthenticated',
      'unauthenticated',
      'unauthenticated',
    ]);
  });
});

describe('POST /v1/people', () => {
  it('answers the person with an empty name, no password and the email as sent', async () => {
    const address = email();
    const r = await h.call('POST', '/v1/people', ADMIN, { data: { email: address } });
    expect(r.status).toBe(201);
    const p = r.body.payload.data;
    expect(Object.keys(p).sort()).toEqual(
      ['created_at', 'email', 'email_verified', 'fid', 'has_password', 'name', 'updated_at'].sort(),
    );
    expect(p).toMatchObject({
      email: address,
      email_verified: false,
      name: { first: '', last: '' },
      has_password: false,
    });
    const read = await h.call('GET', `/v1/people/${p.fid}`, ADMIN);
    expect(read.status).toBe(200);
    expect(read.body.payload.data).toEqual(p);
  });

  it('keeps a given name and email_verified', async () => {
    const p = await person({ email_verified: true, name: { first: 'Marie' } });
    const read = await h.call('GET', `/v1/people/${p.fid}`, ADMIN);
    expect(read.body.payload.data).toMatchObject({ email_verified: true, name: { first: 'Marie', last: '' } });
  });

  it('a created person is one row, one event and one idempotency record', async () => {
    const before = await state();
    await person();
    const after = await state();
    expect(after).toEqual({
      people: (before.people ?? 0) + 1,
      grants: before.grants,
      outbox: (before.outbox ?? 0) + 1,
      idempotency_keys: (before.idempotency_keys ?? 0) + 1,
    });
    expect(Object.values(after).every(Number.isInteger)).toBe(true);
  });

  it('409 email_taken for an email already held, whatever its case; nothing written', async () => {
    const tag = randomUUID().slice(0, 8);
    await person({ email: `Taken-${tag}@Example.com` });
    const before = await state();
    const same = await h.call('POST', '/v1/people', ADMIN, { data: { email: `Taken-${tag}@Example.com` } });
    const lower = await h.call('POST', '/v1/people', ADMIN, { data: { email: `taken-${tag}@example.com` } });
    const upper = await h.call('POST', '/v1/people', SUPERADMIN, { data: { email: `TAKEN-${tag}@EXAMPLE.COM` } });
    expect([same.status, lower.status, upper.status]).toEqual([409, 409, 409]);
    expect([same, lower, upper].map(errorCode)).toEqual(['email_taken', 'email_taken', 'email_taken']);
    expect(await state()).toEqual(before);
  });

  it('409 email_taken for a seeded dev principal', async () => {
    const r = await h.call('POST', '/v1/people', ADMIN, { data: { email: 'Controller@dev.local' } });
    expect(r.status).toBe(409);
    expect(errorCode(r)).toBe('email_taken');
  });

  it('422 for a bad email, an unknown property, a missing email or a flat body; nothing written', async () => {
    const before = await state();
    const bodies = [
      { data: { email: 'not-an-email' } },
      { data: { email: '' } },
      { data: {} },
      { data: { email: email(), nickname: 'x' } },
      { data: { email: email(), name: { first: 'A', middle: 'B' } } },
      { data: { email: email(), email_verified: 'true' } },
      { data: { email: email() }, extra: true },
      { email: email() },
    ];
    for (const body of bodies) {
      const r = await h.call('POST', '/v1/people', ADMIN, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(errorCode(r)).toBe('validation_failed');
    }
    expect(await state()).toEqual(before);
  });

  it('the created event names the fid and never the email', async () => {
    const p = await person();
    const mine = (await events('person.created')).filter((e) => e.payload.data.fid === p.fid);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.payload.data).toEqual({ fid: p.fid });
    expect(JSON.stringify(mine[0])).not.toContain(p.email);
  });
});

describe('GET /v1/people and /v1/people/{fid}', () => {
  it('PLT-005 PLT-006 PLT-007 pages through people filtered by part of an email', async () => {
    const tag = `pg${randomUUID().slice(0, 8)}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await person({ email: `${tag}-${i}@example.com` })).email);
    const page = async (n: number) => {
      const r = await h.call('GET', `/v1/people?email=${tag}&pagination[page]=${n}&pagination[pageSize]=2`, ADMIN);
      expect(r.status).toBe(200);
      return r.body.payload;
    };
    const [one, two, three, four] = [await page(1), await page(2), await page(3), await page(4)];
    expect(one.meta.pagination).toEqual({ mode: 'page', page: 1, pageSize: 2, totalItems: 5, totalPages: 3 });
    expect([one.data.length, two.data.length, three.data.length, four.data.length]).toEqual([2, 2, 1, 0]);
    const emails = [...one.data, ...two.data, ...three.data].map((p: { email: string }) => p.email);
    expect(emails).toEqual([...made].sort());
  });

  it('the email filter ignores case and takes % and _ literally', async () => {
    const tag = `cf${randomUUID().slice(0, 8)}`;
    const p = await person({ email: `${tag}@example.com` });
    const upper = await h.call('GET', `/v1/people?email=${tag.toUpperCase()}`, ADMIN);
    expect(upper.body.payload.data.map((x: { fid: string }) => x.fid)).toEqual([p.fid]);
    const percent = await h.call('GET', `/v1/people?email=${encodeURIComponent(`${tag.slice(0, 4)}%`)}`, ADMIN);
    const underscore = await h.call('GET', `/v1/people?email=${tag.slice(0, 3)}_`, ADMIN);
    expect(percent.body.payload.data).toEqual([]);
    expect(underscore.body.payload.data).toEqual([]);
  });

  it('the page size defaults to 25 and may be 100; over 100, zero or page 0 is 422', async () => {
    const plain = await h.call('GET', '/v1/people', ADMIN);
    expect(plain.status).toBe(200);
    expect(plain.body.payload.meta.pagination).toMatchObject({ page: 1, pageSize: 25 });
    const max = await h.call('GET', '/v1/people?pagination[pageSize]=100', SUPERADMIN);
    expect(max.status).toBe(200);
    expect(max.body.payload.meta.pagination.pageSize).toBe(100);
    for (const q of [
      'pagination[pageSize]=101',
      'pagination[pageSize]=0',
      'pagination[page]=0',
      'pagination[page]=x',
    ]) {
      const r = await h.call('GET', `/v1/people?${q}`, ADMIN);
      expect(r.status, q).toBe(422);
    }
  });

  it('404 for an unknown person on every route that names one; nothing written', async () => {
    const nobody = randomUUID();
    const before = await state();
    const answers = [
      await h.call('GET', `/v1/people/${nobody}`, ADMIN),
      await h.call('GET', `/v1/people/${nobody}/grants`, ADMIN),
      await h.call('POST', `/v1/people/${nobody}/name`, ADMIN, { data: { first: 'A', last: 'B' } }),
      await h.call('POST', `/v1/people/${nobody}/password`, ADMIN, { data: { password: PASSWORD } }),
      await h.call('POST', `/v1/people/${nobody}/grants`, ADMIN, { data: ACCOUNTANT_GLOBAL }),
      await h.call('DELETE', `/v1/people/${nobody}/grants/${randomUUID()}`, ADMIN),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(await state()).toEqual(before);
  });

  it('422 for a person id that is not a UUID', async () => {
    const r = await h.call('GET', '/v1/people/not-a-uuid', ADMIN);
    expect(r.status).toBe(422);
  });
});

describe('name and password', () => {
  it('sets both name parts and an empty part reads ""; the update event names fid and field only', async () => {
    const p = await person();
    const set = await h.call('POST', `/v1/people/${p.fid}/name`, ADMIN, { data: { first: 'Ada', last: 'Lovelace' } });
    expect(set.status).toBe(200);
    expect(set.body.payload.data.name).toEqual({ first: 'Ada', last: 'Lovelace' });
    const clear = await h.call('POST', `/v1/people/${p.fid}/name`, SUPERADMIN, { data: { first: 'Ada', last: '' } });
    expect(clear.body.payload.data.name).toEqual({ first: 'Ada', last: '' });
    const read = await h.call('GET', `/v1/people/${p.fid}`, ADMIN);
    expect(read.body.payload.data.name).toEqual({ first: 'Ada', last: '' });
    const mine = (await events('person.updated')).filter((e) => e.payload.data.fid === p.fid);
    expect(mine.map((e) => e.payload.data)).toEqual([
      { fid: p.fid, fields: ['name'] },
      { fid: p.fid, fields: ['name'] },
    ]);
    expect(JSON.stringify(mine)).not.toContain(p.email);
  });

  it('422 for a name missing a part or with an unknown property; nothing written', async () => {
    const p = await person();
    const before = await state();
    for (const data of [{ first: 'A' }, { first: 'A', last: 'B', middle: 'C' }, { first: 'x'.repeat(101), last: '' }]) {
      const r = await h.call('POST', `/v1/people/${p.fid}/name`, ADMIN, { data });
      expect(r.status, JSON.stringify(data)).toBe(422);
    }
    expect(await state()).toEqual(before);
  });

  it('a password of 12 characters is set; shorter is 422 and writes nothing', async () => {
    const p = await person();
    const before = await state();
    for (const password of ['', 'short', '12345678901']) {
      const r = await h.call('POST', `/v1/people/${p.fid}/password`, ADMIN, { data: { password } });
      expect(r.status, password).toBe(422);
      expect(errorCode(r)).toBe('validation_failed');
    }
    const extra = await h.call('POST', `/v1/people/${p.fid}/password`, ADMIN, {
      data: { password: PASSWORD, confirm: PASSWORD },
    });
    expect(extra.status).toBe(422);
    expect(await state()).toEqual(before);
    const ok = await h.call('POST', `/v1/people/${p.fid}/password`, ADMIN, { data: { password: '123456789012' } });
    expect(ok.status).toBe(200);
    expect(ok.body.payload.data.has_password).toBe(true);
  });

  it('the password hash never appears in any answer or event', async () => {
    const p = await person();
    const set = await h.call('POST', `/v1/people/${p.fid}/password`, ADMIN, { data: { password: PASSWORD } });
    expect(set.status).toBe(200);
    const row = await sql<{ password_hash: string }>`SELECT password_hash FROM people WHERE fid = ${p.fid}`.execute(
      h.database.db,
    );
    const hash = row.rows[0]?.password_hash as string;
    expect(hash.startsWith('scrypt$')).toBe(true);
    const answers = [
      set,
      await h.call('GET', `/v1/people/${p.fid}`, ADMIN),
      await h.call('GET', `/v1/people?email=${encodeURIComponent(p.email)}`, ADMIN),
      await h.call('POST', `/v1/people/${p.fid}/name`, ADMIN, { data: { first: 'Pat', last: '' } }),
      await h.call('GET', '/v1/me/profile', p.email),
    ];
    for (const r of answers) {
      expect(r.status).toBe(200);
      const text = JSON.stringify(r.body);
      expect(text).not.toContain('password_hash');
      expect(text).not.toContain('scrypt');
      expect(text).not.toContain(hash.split('$')[5]);
      expect(text).not.toContain(PASSWORD);
    }
    const listed = answers[2]?.body.payload.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].has_password).toBe(true);
    const mine = (await events('person.password_set')).filter((e) => e.payload.data.fid === p.fid);
    expect(mine.map((e) => e.payload.data)).toEqual([{ fid: p.fid }]);
    expect(JSON.stringify(mine)).not.toContain('scrypt');
  });
});

describe('grants', () => {
  it('adding answers 201 with the grant; the person lists it; the event names ids, never the email', async () => {
    const p = await person();
    const r = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, { data: ACCOUNTANT_GLOBAL });
    expect(r.status).toBe(201);
    const g = r.body.payload.data;
    expect(g).toMatchObject({ principal_id: p.fid, ...ACCOUNTANT_GLOBAL, verified: false });
    expect(g.id).toMatch(UUID);
    const list = await h.call('GET', `/v1/people/${p.fid}/grants`, ADMIN);
    expect(list.body.payload.data).toEqual([g]);
    const mine = (await events('grant.added')).filter((e) => e.payload.data.principal_id === p.fid);
    expect(mine.map((e) => e.payload.data)).toEqual([
      { grant_id: g.id, principal_id: p.fid, role: 'accountant', scope_type: 'global', scope_id: '*' },
    ]);
    expect(JSON.stringify(mine)).not.toContain(p.email);
  });

  it('a building grant names its building', async () => {
    const p = await person();
    const g = await grant(p.fid, { role: 'controller', scope_type: 'building', scope_id: 'bldg-42' });
    expect(g).toMatchObject({ role: 'controller', scope_type: 'building', scope_id: 'bldg-42' });
  });

  it('409 grant_exists for the same role at the same scope; nothing written', async () => {
    const p = await person();
    await grant(p.fid, ACCOUNTANT_GLOBAL);
    const before = await state();
    const r = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, { data: ACCOUNTANT_GLOBAL });
    expect(r.status).toBe(409);
    expect(errorCode(r)).toBe('grant_exists');
    expect(await state()).toEqual(before);
  });

  it('the same role at another scope is another grant', async () => {
    const p = await person();
    await grant(p.fid, ACCOUNTANT_GLOBAL);
    await grant(p.fid, { role: 'accountant', scope_type: 'building', scope_id: 'b-1' });
    await grant(p.fid, { role: 'accountant', scope_type: 'building', scope_id: 'b-2' });
    const list = await h.call('GET', `/v1/people/${p.fid}/grants`, ADMIN);
    expect(list.body.payload.data).toHaveLength(3);
  });

  it('422 unknown_role and invalid_scope; nothing written', async () => {
    const p = await person();
    const before = await state();
    const cases: [Record<string, unknown>, string][] = [
      [{ role: 'wizard', scope_type: 'global', scope_id: '*' }, 'unknown_role'],
      [{ role: 'accountant', scope_type: 'global', scope_id: 'bldg-1' }, 'invalid_scope'],
      [{ role: 'accountant', scope_type: 'building', scope_id: '*' }, 'invalid_scope'],
    ];
    for (const [data, code] of cases) {
      const r = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, { data });
      expect(r.status, JSON.stringify(data)).toBe(422);
      expect(errorCode(r)).toBe(code);
    }
    expect(await state()).toEqual(before);
  });

  it('422 validation_failed for a grant body outside the schema; nothing written', async () => {
    const p = await person();
    const before = await state();
    const bodies = [
      { role: 'accountant', scope_type: 'legal_entity', scope_id: 'le-1' },
      { role: 'Accountant', scope_type: 'global', scope_id: '*' },
      { role: 'accountant', scope_type: 'global' },
      { role: 'accountant', scope_type: 'global', scope_id: '*', note: 'x' },
      { role: 'accountant', scope_type: 'global', scope_id: '*', verified: 'true' },
    ];
    for (const data of bodies) {
      const r = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, { data });
      expect(r.status, JSON.stringify(data)).toBe(422);
      expect(errorCode(r)).toBe('validation_failed');
    }
    expect(await state()).toEqual(before);
  });

  it('a platform admin may not grant super_admin or a verified grant: 403, nothing written', async () => {
    const p = await person();
    const before = await state();
    const superAdmin = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, {
      data: { role: 'super_admin', scope_type: 'global', scope_id: '*' },
    });
    const verified = await h.call('POST', `/v1/people/${p.fid}/grants`, ADMIN, {
      data: { ...ACCOUNTANT_GLOBAL, verified: true },
    });
    expect([superAdmin.status, verified.status]).toEqual([403, 403]);
    expect(await state()).toEqual(before);
  });

  it('a verified super admin may grant super_admin and verified grants', async () => {
    const p = await person();
    const superAdmin = await grant(p.fid, { role: 'super_admin', scope_type: 'global', scope_id: '*' }, SUPERADMIN);
    const verified = await grant(p.fid, { ...ACCOUNTANT_GLOBAL, verified: true }, SUPERADMIN);
    expect(superAdmin).toMatchObject({ role: 'super_admin', verified: false });
    expect(verified).toMatchObject({ role: 'accountant', verified: true });
  });

  it('removing answers 200 with the removed grant, then 404; the event names ids, never the email', async () => {
    const p = await person();
    const g = await grant(p.fid, ACCOUNTANT_GLOBAL);
    const removed = await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, ADMIN);
    expect(removed.status).toBe(200);
    expect(removed.body.payload.data).toEqual(g);
    const list = await h.call('GET', `/v1/people/${p.fid}/grants`, ADMIN);
    expect(list.body.payload.data).toEqual([]);
    const before = await state();
    const again = await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, ADMIN);
    expect(again.status).toBe(404);
    expect(await state()).toEqual(before);
    const mine = (await events('grant.removed')).filter((e) => e.payload.data.principal_id === p.fid);
    expect(mine.map((e) => e.payload.data)).toEqual([
      { grant_id: g.id, principal_id: p.fid, role: 'accountant', scope_type: 'global', scope_id: '*' },
    ]);
    expect(JSON.stringify(mine)).not.toContain(p.email);
  });

  it("a grant removed under another person's fid is 404 and stays", async () => {
    const owner = await person();
    const other = await person();
    const g = await grant(owner.fid, ACCOUNTANT_GLOBAL);
    const before = await state();
    const r = await h.call('DELETE', `/v1/people/${other.fid}/grants/${g.id}`, ADMIN);
    expect(r.status).toBe(404);
    expect(await state()).toEqual(before);
  });

  it('a platform admin may not remove a super_admin or verified grant; a verified super admin may', async () => {
    const p = await person();
    const superAdmin = await grant(p.fid, { role: 'super_admin', scope_type: 'global', scope_id: '*' }, SUPERADMIN);
    const verified = await grant(p.fid, { ...ACCOUNTANT_GLOBAL, verified: true }, SUPERADMIN);
    const before = await state();
    for (const g of [superAdmin, verified]) {
      const r = await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, ADMIN);
      expect(r.status).toBe(403);
    }
    expect(await state()).toEqual(before);
    for (const g of [superAdmin, verified]) {
      const r = await h.call('DELETE', `/v1/people/${p.fid}/grants/${g.id}`, SUPERADMIN);
      expect(r.status).toBe(200);
    }
  });

  it("the seeded dev principals' grants are listed", async () => {
    const r = await h.call('GET', `/v1/people/${fid(CONTROLLER)}/grants`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.body.payload.data).toMatchObject([
      { principal_id: fid(CONTROLLER), role: 'controller', scope_type: 'global', scope_id: '*', verified: false },
    ]);
  });
});

describe('GET /v1/roles', () => {
  it('any signed-in person or service reads the role matrix', async () => {
    for (const as of [STAFF, CONTROLLER, 'service:payments']) {
      const r = await h.call('GET', '/v1/roles', as);
      expect(r.status, as).toBe(200);
    }
  });

  it('lists every role with a description and its actions; super_admin holds every action', async () => {
    const r = await h.call('GET', '/v1/roles', STAFF);
    const roles = r.body.payload.data as { role: string; description: string; actions: string[] }[];
    expect(roles.map((x) => x.role).sort()).toEqual(
      ['accountant', 'controller', 'platform_admin', 'senior_accountant', 'super_admin'].sort(),
    );
    const by = Object.fromEntries(roles.map((x) => [x.role, x]));
    for (const x of roles) expect(x.description.length).toBeGreaterThan(0);
    expect(by.platform_admin?.actions).toEqual(
      expect.arrayContaining(['identity.people.read', 'identity.people.manage', 'identity.grants.manage']),
    );
    expect(by.accountant?.actions).toContain('accounting.journal.write');
    expect(by.accountant?.actions).not.toContain('identity.people.manage');
    const everything = new Set(roles.flatMap((x) => x.actions));
    for (const a of everything) expect(by.super_admin?.actions).toContain(a);
    expect(by.super_admin?.actions).toContain('identity.principals.lookup');
  });
});

describe('grants and fids in either case', () => {
  it('SIGN-059 a grant added under an upper-case fid is the same person’s grant and shows in the next authz/me', async () => {
    const p = await h.call('POST', '/v1/people', ADMIN, { data: { email: `case-${Date.now()}@example.com` } });
    const upper = String(p.body.payload.data.fid).toUpperCase();
    const g = { data: { role: 'accountant', scope_type: 'global', scope_id: '*' } };
    expect((await h.call('POST', `/v1/people/${upper}/grants`, ADMIN, g)).status).toBe(201);
    expect((await h.call('POST', `/v1/people/${p.body.payload.data.fid}/grants`, ADMIN, g)).status).toBe(409);
    const listed = await h.call('GET', `/v1/people/${p.body.payload.data.fid}/grants`, ADMIN);
    expect(listed.body.payload.data).toHaveLength(1);
  });

  it('SIGN-056 SIGN-059 super_admin is granted globally or not at all; a building super_admin is refused', async () => {
    const p = await h.call('POST', '/v1/people', ADMIN, { data: { email: `bsa-${Date.now()}@example.com` } });
    const r = await h.call('POST', `/v1/people/${p.body.payload.data.fid}/grants`, SUPERADMIN, {
      data: { role: 'super_admin', scope_type: 'building', scope_id: 'bldg-1', verified: true },
    });
    expect(r.status).toBe(422);
    expect(r.body.payload.errors[0].code).toBe('invalid_scope');
  });

  it('a platform admin may not set the password of a Super Admin', async () => {
    const r = await h.call('POST', `/v1/people/${fid(SUPERADMIN)}/password`, ADMIN, {
      data: { password: 'a long enough password' },
    });
    expect(r.status).toBe(403);
  });
});
