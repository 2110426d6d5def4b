import { randomUUID } from 'node:crypto';
import { MemoryBus, OutboxPublisher } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, type Harness, harness, READER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const count = async (type: string) => (await h.events(type)).length;

describe('events', () => {
  it('VEN-054 a command writes its event with the change; the publisher takes it to the bus; a refused command leaves none', async () => {
    const bus = new MemoryBus();
    const publisher = new OutboxPublisher(h.db, bus, { pollMs: 1000 });
    const name = `Outbox ${tag()}`;
    const firm = await h.firm({ name });
    const rows = (await h.events('vendor.registered')).filter((e) => e.payload.data.vendor_id === firm.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].subject).toBe('vendors.vendor.registered');
    await publisher.drain();
    const sent = bus.log.filter((m) => (m.data as { data: { vendor_id: string } }).data.vendor_id === firm.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      subject: 'vendors.vendor.registered',
      data: { type: 'vendor.registered', source: 'vendors' },
    });

    // Refused: a duplicate name (409), a non-editor (403), a bad certificate (422): no row, no event.
    const before = await h.state();
    const refused = [
      await h.call('POST', '/v1/vendors', EDITOR, {
        data: { name: name.toUpperCase(), kind: 'supplier', discipline: 'other' },
      }),
      await h.call('POST', `/v1/vendors/${firm.id}/status`, READER, { data: { status: 'inactive' } }),
      await h.call('POST', `/v1/vendors/${firm.id}/insurance`, EDITOR, {
        data: { coverage: 'umbrella', policy_number: 'X', starts_on: '2025-02-01', expires_on: '2025-01-01' },
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 403, 422]);
    expect(await h.state()).toEqual(before);
    expect(await publisher.drain()).toBe(0);
  });

  it('VEN-054 a command that fails writing its event leaves nothing half-done: no change, no event, no key; the same key then succeeds', async () => {
    const firm = await h.firm();
    const contact = await h.contact(firm.id);
    const commands: [string, unknown, string][] = [
      ['/v1/vendors', { data: { name: `Crash ${tag()}`, kind: 'supplier', discipline: 'other' } }, 'vendor.registered'],
      [`/v1/vendors/${firm.id}/status`, { data: { status: 'inactive' } }, 'vendor.status_changed'],
      [
        `/v1/vendors/${firm.id}/contacts`,
        { data: { email: `crash.${tag()}@firm.test`, given_name: 'Cr', family_name: 'Ash' } },
        'vendor.contact_added',
      ],
      [
        `/v1/vendors/${firm.id}/contacts/${contact.id}/active`,
        { data: { active: false } },
        'vendor.contact_access_changed',
      ],
      [
        `/v1/vendors/${firm.id}/insurance`,
        {
          data: {
            coverage: 'umbrella',
            policy_number: `C-${tag()}`,
            starts_on: '2025-01-01',
            expires_on: '2025-12-31',
          },
        },
        'vendor.insurance_recorded',
      ],
    ];
    // The outbox refuses every row: the failure comes after the command's change was written.
    await sql`CREATE FUNCTION crash_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'crash after the change'; END $$`.execute(h.db);
    const keys = commands.map(() => randomUUID());
    const before = await h.state();
    await sql`CREATE TRIGGER crash_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION crash_outbox()`.execute(
      h.db,
    );
    try {
      for (const [i, [url, body]] of commands.entries()) {
        const r = await h.call('POST', url, EDITOR, body, keys[i]);
        expect(r.status, url).toBe(500);
        expect(r.errors?.[0].code).toBe('internal_error');
      }
    } finally {
      await sql`DROP TRIGGER crash_outbox ON outbox`.execute(h.db);
      await sql`DROP FUNCTION crash_outbox()`.execute(h.db);
    }
    expect(await h.state()).toEqual(before);
    for (const [i, [url, body, type]] of commands.entries()) {
      const before = await count(type);
      const r = await h.call('POST', url, EDITOR, body, keys[i]);
      expect([200, 201], url).toContain(r.status);
      expect(r.headers['idempotent-replayed']).toBeUndefined();
      expect(await count(type)).toBe(before + 1);
    }
  });

  it('VEN-057 one vendor.registered per added firm, replays included', async () => {
    const before = await count('vendor.registered');
    const key = randomUUID();
    const body = { data: { name: `Registered ${tag()}`, kind: 'supplier', discipline: 'steel' } };
    expect((await h.call('POST', '/v1/vendors', EDITOR, body, key)).status).toBe(201);
    expect((await h.call('POST', '/v1/vendors', EDITOR, body, key)).headers['idempotent-replayed']).toBe('true');
    const f2 = await h.firm();
    expect(await count('vendor.registered')).toBe(before + 2);
    const last = (await h.events('vendor.registered')).at(-1);
    expect(last?.payload.data).toMatchObject({ vendor_id: f2.id, kind: 'contractor', status: 'active' });
  });

  it('VEN-058 one vendor.status_changed per status command that changes the status', async () => {
    const firm = await h.firm();
    const before = await count('vendor.status_changed');
    await h.setStatus(firm.id, 'inactive');
    await h.setStatus(firm.id, 'active');
    expect(await count('vendor.status_changed')).toBe(before + 2);
    const mine = (await h.events('vendor.status_changed')).filter((e) => e.payload.data.vendor_id === firm.id);
    expect(mine.map((e) => [e.payload.data.previous_status, e.payload.data.status])).toEqual([
      ['active', 'inactive'],
      ['inactive', 'active'],
    ]);
  });

  it('VEN-059 one vendor.contact_added per added contact', async () => {
    const firm = await h.firm();
    const before = await count('vendor.contact_added');
    const a = await h.contact(firm.id);
    const b = await h.contact(firm.id, { active: false });
    expect(await count('vendor.contact_added')).toBe(before + 2);
    const mine = (await h.events('vendor.contact_added')).filter((e) => e.payload.data.vendor_id === firm.id);
    expect(mine.map((e) => e.payload.data)).toEqual([
      expect.objectContaining({ contact_id: a.id, active: true }),
      expect.objectContaining({ contact_id: b.id, active: false }),
    ]);
  });

  it('VEN-060 one vendor.contact_access_changed per active toggle that changes the flag', async () => {
    const firm = await h.firm();
    const c = await h.contact(firm.id);
    const before = await count('vendor.contact_access_changed');
    await h.setActive(firm.id, c.id, false);
    await h.setActive(firm.id, c.id, true);
    expect(await count('vendor.contact_access_changed')).toBe(before + 2);
    const last = (await h.events('vendor.contact_access_changed')).at(-1);
    expect(last?.payload.data).toMatchObject({ vendor_id: firm.id, contact_id: c.id, active: true });
  });

  it('VEN-061 one vendor.insurance_recorded per recorded certificate', async () => {
    const firm = await h.firm();
    const before = await count('vendor.insurance_recorded');
    const c1 = await h.certificate(firm.id);
    await h.certificate(firm.id, { coverage: 'property' });
    expect(await count('vendor.insurance_recorded')).toBe(before + 2);
    const first = (await h.events('vendor.insurance_recorded')).find((e) => e.payload.data.certificate_id === c1.id);
    expect(first?.payload.data).toMatchObject({
      vendor_id: firm.id,
      coverage: 'general_liability',
      starts_on: c1.starts_on,
      expires_on: c1.expires_on,
    });
  });

  it("VEN-055 VEN-056 no vendor event, in the outbox or on the bus, carries a contact's email or name", async () => {
    const t = tag();
    const firm = await h.firm();
    const people = [
      { email: `Quinn.Zephyr.${t}@firm.test`, given_name: `Quinn${t}`, family_name: `Zephyr${t}` },
      { email: `mx.${t}@firm.test`, given_name: `Morgan${t}`, family_name: `Xylo${t}` },
    ];
    const made = [];
    for (const p of people) made.push(await h.contact(firm.id, p));
    await h.setActive(firm.id, made[0].id, false);
    await h.setActive(firm.id, made[0].id, true);
    // Audit context naming the person is not echoed into any event either.
    const why = {
      code: 'portal_access',
      detail: `${people[1].given_name} ${people[1].family_name} <${people[1].email}>`,
    };
    const third = { email: `Why.${t}@firm.test`, given_name: `Wynn${t}`, family_name: `Yates${t}` };
    people.push(third);
    const added = await h.call('POST', `/v1/vendors/${firm.id}/contacts`, EDITOR, { data: third, why });
    expect(added.status).toBe(201);
    const stop = await h.call('POST', `/v1/vendors/${firm.id}/contacts/${made[1].id}/active`, EDITOR, {
      data: { active: false },
      why,
    });
    expect(stop.status).toBe(200);
    await h.call('POST', `/v1/vendors/${firm.id}/status`, EDITOR, { data: { status: 'active' }, why });
    await h.certificate(firm.id);
    await h.setStatus(firm.id, 'inactive');
    const bus = new MemoryBus();
    await new OutboxPublisher(h.db, bus, { pollMs: 1000 }).drain();
    const everything = JSON.stringify([(await h.events()).map((e) => e.payload), bus.log]).toLowerCase();
    expect(everything).toContain(made[0].id);
    for (const p of people) {
      for (const v of [p.email, p.given_name, p.family_name]) expect(everything).not.toContain(v.toLowerCase());
    }
  });
});
