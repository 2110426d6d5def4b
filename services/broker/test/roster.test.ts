import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Roster } from '../src/roster.ts';
import type { Db } from '../src/store/db.ts';
import { identityFid } from '../src/tokens.ts';
import { ADMIN, fid, type Harness, harness, STAFF, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close_());

const identity = (email: string) =>
  h.db.selectFrom('identities').selectAll().where('email', '=', email).executeTakeFirst();

describe('the auto-provisioned roster', () => {
  it('BRK-038 a person who called the broker is in GET /v1/people without a prior POST', async () => {
    const email = `walk-in-${tag()}@broker.test`;
    expect((await h.call('GET', '/v1/catalog', email)).status).toBe(200);
    const r = await h.call('GET', `/v1/people?q=${email}`, ADMIN);
    expect(r.status).toBe(200);
    expect(r.data).toHaveLength(1);
    expect(r.data[0]).toMatchObject({ fid: fid(email), email, kind: 'person', name: email.split('@')[0] });
  });

  it('BRK-038 a service credential joins as a service created by its owner', async () => {
    await h.call('GET', '/v1/catalog', STAFF);
    const clientId = `svc-${tag()}`;
    const email = `${clientId}@service.broker`;
    const token = await h.signer?.sign(
      { email, sub: identityFid(email), client_id: clientId, kind: 'service', owner_email: STAFF },
      h.now(),
    );
    expect((await h.call('GET', '/v1/catalog', { token: token?.access_token as string })).status).toBe(200);
    expect(await identity(email)).toMatchObject({
      fid: identityFid(email),
      kind: 'service',
      name: clientId,
      creator_fid: fid(STAFF),
      creator_email: STAFF,
    });
  });

  it('BRK-038 a mailbox named by the service token joins as an agent; the bare service token as a platform service', async () => {
    const mailbox = `agent-${tag()}@mail.broker.test`;
    expect((await h.call('GET', '/v1/catalog', { service: mailbox })).status).toBe(200);
    expect(await identity(mailbox)).toMatchObject({ fid: fid(mailbox), kind: 'agent' });
    expect((await h.call('GET', '/v1/catalog', { service: null })).status).toBe(200);
    expect(await identity('platform@service.platform')).toMatchObject({ fid: 'service:platform', kind: 'service' });
  });

  it('BRK-038 a caller is written once: later requests of this replica do not write again', async () => {
    const email = `once-${tag()}@broker.test`;
    await h.call('GET', '/v1/catalog', email);
    await h.db.deleteFrom('identities').where('email', '=', email).execute();
    await h.call('GET', '/v1/catalog', email);
    expect(await identity(email)).toBeUndefined();
  });

  it('BRK-044 a sighting never overwrites what was posted', async () => {
    const email = `posted-${tag()}@broker.test`;
    const posted = await h.call(
      'POST',
      '/v1/people',
      { service: null },
      { data: { email, name: 'Posted Name', kind: 'person' } },
    );
    expect(posted.status).toBe(201);
    await h.call('GET', '/v1/catalog', email);
    expect(await identity(email)).toMatchObject({ name: 'Posted Name', kind: 'person' });
  });
});

describe('Roster.seen', () => {
  const failing = {
    insertInto: () => {
      throw new Error('database down');
    },
  } as unknown as Db;

  it('BRK-038 a failed write is logged, never thrown, and retried on the next request', async () => {
    const warnings: string[] = [];
    const roster = new Roster(failing, { warn: (_obj, msg) => warnings.push(msg) });
    const p = { id: fid('x@broker.test'), kind: 'person' as const, email: 'x@broker.test', grants: [] };
    await expect(roster.seen(p, h.now())).resolves.toBeUndefined();
    await expect(roster.seen(p, h.now())).resolves.toBeUndefined();
    expect(warnings).toHaveLength(2);
  });

  it('BRK-038 concurrent first requests of one caller share one write', async () => {
    let writes = 0;
    // Kysely keeps private fields: methods run on the real instance.
    const counting = new Proxy(h.db, {
      get(target, prop) {
        if (prop === 'insertInto') writes += 1;
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const roster = new Roster(counting);
    const email = `twice-${tag()}@broker.test`;
    const p = { id: fid(email), kind: 'person' as const, email, grants: [] };
    await Promise.all([roster.seen(p, h.now()), roster.seen(p, h.now()), roster.seen(p, h.now())]);
    await roster.seen(p, h.now());
    expect(writes).toBe(1);
    expect(await identity(email)).toMatchObject({ kind: 'person' });
  });
});
