import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, type Harness, harness, READER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** An active firm with three people: the portal user, an active colleague and a stopped one. */
async function team() {
  const firm = await h.firm();
  const me = await h.contact(firm.id, { family_name: 'Baker' });
  const colleague = await h.contact(firm.id, { family_name: 'Archer' });
  const stopped = await h.contact(firm.id, { family_name: 'Carter', active: false });
  return { firm, me, colleague, stopped };
}

const PORTAL = '/v1/vendor-portal/contact';

describe('GET /v1/vendor-portal/contact', () => {
  it('VEN-038 VEN-039 VEN-040 VEN-048 a contact with a portal token gets their firm, themselves and their active colleagues', async () => {
    const { firm, me, colleague, stopped } = await team();
    const r = await h.call('GET', PORTAL, { portal: me.email.toUpperCase() });
    expect(r.status).toBe(200);
    expect(r.data.vendor).toMatchObject({ id: firm.id, name: firm.name, status: 'active' });
    expect(r.data.contact).toMatchObject({ id: me.id, email: me.email, vendor_id: firm.id, active: true });
    expect(r.data.colleagues.map((c: { id: string }) => c.id)).toEqual([colleague.id]);
    expect(r.data.colleagues.some((c: { id: string }) => c.id === stopped.id || c.id === me.id)).toBe(false);
  });

  it('VEN-041 a portal user who is no contact of any firm is 403 not_a_vendor_contact', async () => {
    await team();
    const r = await h.call('GET', PORTAL, { portal: `stranger.${tag()}@elsewhere.test` });
    expect(r.status).toBe(403);
    expect(r.errors?.[0].code).toBe('not_a_vendor_contact');
  });

  it('VEN-042 VEN-025 a portal user whose contact is stopped is 403 not_a_vendor_contact, and allowed again after', async () => {
    const { firm, me, stopped } = await team();
    const r = await h.call('GET', PORTAL, { portal: stopped.email });
    expect(r.status).toBe(403);
    expect(r.errors?.[0].code).toBe('not_a_vendor_contact');
    await h.setActive(firm.id, me.id, false);
    const now = await h.call('GET', PORTAL, { portal: me.email });
    expect(now.status).toBe(403);
    expect(now.errors?.[0].code).toBe('not_a_vendor_contact');
  });

  it('VEN-024 a contact allowed to sign in can use the portal', async () => {
    const { firm, stopped } = await team();
    await h.setActive(firm.id, stopped.id, true);
    const r = await h.call('GET', PORTAL, { portal: stopped.email });
    expect(r.status).toBe(200);
    expect(r.data.contact.id).toBe(stopped.id);
  });

  it('VEN-043 a portal user whose firm is inactive is 403 not_a_vendor_contact; reactivated, 200', async () => {
    const { firm, me } = await team();
    await h.setStatus(firm.id, 'inactive');
    const r = await h.call('GET', PORTAL, { portal: me.email });
    expect(r.status).toBe(403);
    expect(r.errors?.[0].code).toBe('not_a_vendor_contact');
    await h.setStatus(firm.id, 'active');
    expect((await h.call('GET', PORTAL, { portal: me.email })).status).toBe(200);
  });

  it('VEN-053 a platform service with the service token acts for the contact named in X-Platform-On-Behalf-Of', async () => {
    const { firm, me, colleague, stopped } = await team();
    const r = await h.call('GET', PORTAL, { service: me.email });
    expect(r.status).toBe(200);
    expect(r.data.vendor.id).toBe(firm.id);
    expect(r.data.contact.id).toBe(me.id);
    expect(r.data.colleagues.map((c: { id: string }) => c.id)).toEqual([colleague.id]);
    const asStopped = await h.call('GET', PORTAL, { service: stopped.email });
    expect(asStopped.status).toBe(403);
    expect(asStopped.errors?.[0].code).toBe('not_a_vendor_contact');
    // A person id the directory cannot turn into an email names no contact.
    const byId = await h.call('GET', PORTAL, { service: randomUUID() });
    expect(byId.status).toBe(403);
    expect(byId.errors?.[0].code).toBe('not_a_vendor_contact');
  });

  it('VEN-048 with DEV_AUTH=1 a dev-header person on the portal is the contact of that email', async () => {
    const { me } = await team();
    const r = await h.call('GET', PORTAL, { dev: me.email });
    expect(r.status).toBe(200);
    expect(r.data.contact.id).toBe(me.id);
    const nobody = await h.call('GET', PORTAL, { dev: `dev.${tag()}@elsewhere.test` });
    expect(nobody.status).toBe(403);
    expect(nobody.errors?.[0].code).toBe('not_a_vendor_contact');
  });

  it('VEN-044 VEN-048 an employee token for the internal application is no proof on the portal (401), even for a contact email', async () => {
    const { me } = await team();
    for (const as of [EDITOR, READER, me.email]) {
      const r = await h.call('GET', PORTAL, as);
      expect(r.status, as).toBe(401);
      expect(r.errors?.[0].code).toBe('unauthenticated');
    }
    expect((await h.call('GET', PORTAL, null)).status).toBe(401);
  });
});
