import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContactData, EDITOR, type Harness, harness, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const peopleOf = async (firmId: string) =>
  (await h.call('GET', `/v1/vendors/${firmId}`, EDITOR)).data.contacts as ContactData[];

describe('contacts', () => {
  it('VEN-020 VEN-023 an added contact appears among the firm people with its active flag', async () => {
    const firm = await h.firm();
    const email = `Pat.${tag()}@Firm.test`;
    const r = await h.call('POST', `/v1/vendors/${firm.id}/contacts`, EDITOR, {
      data: { email, given_name: 'Pat', family_name: 'Lee', phone: '+1 555 0100' },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      vendor_id: firm.id,
      email: email.toLowerCase(),
      given_name: 'Pat',
      family_name: 'Lee',
      phone: '+1 555 0100',
      active: true,
    });
    const people = await peopleOf(firm.id);
    expect(people.map((c) => c.id)).toEqual([r.data.id]);
    expect(people[0].active).toBe(true);
    const stopped = await h.contact(firm.id, { active: false });
    expect(stopped.active).toBe(false);
    expect((await peopleOf(firm.id)).find((c) => c.id === stopped.id)?.active).toBe(false);
  });

  it('VEN-021 the same email at the same firm, in any case, is 409 contact_exists and no contact is written', async () => {
    const firm = await h.firm();
    const c = await h.contact(firm.id);
    const before = await h.state();
    for (const email of [c.email, c.email.toUpperCase()]) {
      const r = await h.call('POST', `/v1/vendors/${firm.id}/contacts`, EDITOR, {
        data: { email, given_name: 'Again', family_name: 'Same' },
      });
      expect(r.status).toBe(409);
      expect(r.errors?.[0].code).toBe('contact_exists');
    }
    expect(await h.state()).toEqual(before);
  });

  it('VEN-022 the same email at another firm is 409 contact_exists and no contact is written', async () => {
    const a = await h.firm();
    const b = await h.firm();
    const c = await h.contact(a.id);
    const before = await h.state();
    const r = await h.call('POST', `/v1/vendors/${b.id}/contacts`, EDITOR, {
      data: { email: c.email.toUpperCase(), given_name: 'Other', family_name: 'Firm' },
    });
    expect(r.status).toBe(409);
    expect(r.errors?.[0].code).toBe('contact_exists');
    expect(await h.state()).toEqual(before);
    expect(await peopleOf(b.id)).toEqual([]);
  });

  it('VEN-022 concurrent adds of one email at two firms: exactly one contact is written', async () => {
    const a = await h.firm();
    const b = await h.firm();
    const email = `race.${tag()}@firm.test`;
    const results = await Promise.all(
      [a, b, a, b].map((f) =>
        h.call('POST', `/v1/vendors/${f.id}/contacts`, EDITOR, {
          data: { email, given_name: 'R', family_name: 'Ace' },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.errors?.[0].code).toBe('contact_exists');
    const people = [...(await peopleOf(a.id)), ...(await peopleOf(b.id))];
    expect(people).toHaveLength(1);
    // Nothing else written: one event for the one contact.
    const added = (await h.events('vendor.contact_added')).filter(
      (e) => e.payload.data.vendor_id === a.id || e.payload.data.vendor_id === b.id,
    );
    expect(added.map((e) => e.payload.data.contact_id)).toEqual([people[0].id]);
  });

  it('VEN-024 VEN-025 VEN-060 concurrent active toggles: every one 200, the flag changes once, one event', async () => {
    const firm = await h.firm();
    const c = await h.contact(firm.id);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('POST', `/v1/vendors/${firm.id}/contacts/${c.id}/active`, EDITOR, { data: { active: false } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(results.every((r) => r.data.active === false)).toBe(true);
    const events = (await h.events('vendor.contact_access_changed')).filter((e) => e.payload.data.contact_id === c.id);
    expect(events.map((e) => e.payload.data.active)).toEqual([false]);
    expect((await peopleOf(firm.id))[0].active).toBe(false);
    const mixed = await Promise.all(
      [true, false, true, false, true].map((active) =>
        h.call('POST', `/v1/vendors/${firm.id}/contacts/${c.id}/active`, EDITOR, { data: { active } }),
      ),
    );
    expect(mixed.every((r) => r.status === 200)).toBe(true);
    const all = (await h.events('vendor.contact_access_changed')).filter((e) => e.payload.data.contact_id === c.id);
    // Every event is a real change: the flags alternate, and the last one is what reads.
    for (let i = 1; i < all.length; i++) expect(all[i].payload.data.active).toBe(!all[i - 1].payload.data.active);
    expect((await peopleOf(firm.id))[0].active).toBe(all.at(-1)?.payload.data.active);
  });

  it('VEN-024 VEN-025 the active toggle stops and allows a contact; reads show the flag', async () => {
    const firm = await h.firm();
    const c = await h.contact(firm.id);
    const stop = await h.call('POST', `/v1/vendors/${firm.id}/contacts/${c.id}/active`, EDITOR, {
      data: { active: false },
    });
    expect(stop.status).toBe(200);
    expect(stop.data).toMatchObject({ id: c.id, active: false });
    expect((await peopleOf(firm.id))[0].active).toBe(false);
    const allow = await h.call('POST', `/v1/vendors/${firm.id}/contacts/${c.id}/active`, EDITOR, {
      data: { active: true },
    });
    expect(allow.status).toBe(200);
    expect((await peopleOf(firm.id))[0].active).toBe(true);
  });

  it('VEN-024 VEN-060 the flag a contact already has is 200, changes nothing and emits nothing', async () => {
    const firm = await h.firm();
    const c = await h.contact(firm.id);
    const before = (await h.state()) as Record<string, unknown>;
    const same = await h.call('POST', `/v1/vendors/${firm.id}/contacts/${c.id}/active`, EDITOR, {
      data: { active: true },
    });
    expect(same.status).toBe(200);
    expect(same.data.active).toBe(true);
    const after = (await h.state()) as Record<string, unknown>;
    expect({ ...after, idempotency_keys: 0 }).toEqual({ ...before, idempotency_keys: 0 });
  });

  it('VEN-020 VEN-024 unknown firm is 404 vendor_not_found, unknown contact or a contact of another firm 404 contact_not_found; bad input 422', async () => {
    const firm = await h.firm();
    const other = await h.firm();
    const c = await h.contact(other.id);
    const before = await h.state();
    const noFirm = await h.call('POST', `/v1/vendors/${randomUUID()}/contacts`, EDITOR, {
      data: { email: `x.${tag()}@firm.test`, given_name: 'X', family_name: 'Y' },
    });
    expect(noFirm.status).toBe(404);
    expect(noFirm.errors?.[0].code).toBe('vendor_not_found');
    const wrongFirm = await h.call('POST', `/v1/vendors/${firm.id}/contacts/${c.id}/active`, EDITOR, {
      data: { active: false },
    });
    expect(wrongFirm.status).toBe(404);
    expect(wrongFirm.errors?.[0].code).toBe('contact_not_found');
    const noContact = await h.call('POST', `/v1/vendors/${firm.id}/contacts/${randomUUID()}/active`, EDITOR, {
      data: { active: false },
    });
    expect(noContact.status).toBe(404);
    for (const data of [
      { email: 'not-an-email', given_name: 'A', family_name: 'B' },
      { email: `a.${tag()}@firm.test`, given_name: '', family_name: 'B' },
      { email: `a.${tag()}@firm.test`, given_name: 'A' },
      { email: `a.${tag()}@firm.test`, given_name: 'A', family_name: 'B', role: 'admin' },
    ]) {
      const r = await h.call('POST', `/v1/vendors/${firm.id}/contacts`, EDITOR, { data });
      expect(r.status, JSON.stringify(data)).toBe(422);
    }
    const notBool = await h.call('POST', `/v1/vendors/${other.id}/contacts/${c.id}/active`, EDITOR, {
      data: { active: 'false' },
    });
    expect(notBool.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });
});
