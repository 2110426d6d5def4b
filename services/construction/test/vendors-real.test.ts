import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { App } from '@platform/kit';
import { injectJson, testDatabase } from '@platform/kit/testing';
import {
  buildApp as buildVendors,
  MIGRATIONS as VENDORS_MIGRATIONS,
  vendorsAuthenticator,
  callerPolicy as vendorsCallers,
  vendorsConfig,
} from '@platform/vendors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, vendorsClient } from './fixtures/vendors.ts';
import { EDITOR, type Harness, harness } from './harness.ts';

/**
 * Construction against the real vendors app listening on a port: the service token and
 * X-Platform-On-Behalf-Of contract end to end (VENDORS_SERVICE_TOKEN on its side,
 * CONSTRUCTION_VENDORS_SERVICE_TOKEN on this one).
 */
const TOKEN = `vendors-token-${randomUUID()}`;
const VENDORS_EDITOR = 'buyer@vendors.test';

describe('17 construction against the real vendors service', () => {
  let vendors: App;
  let vendorsDb: Awaited<ReturnType<typeof testDatabase>>;
  let url: string;
  let h: Harness;
  let wrongToken: Harness;

  const asVendorsEditor = (method: 'POST', path: string, data: unknown) =>
    injectJson(vendors, method, path, {
      headers: { 'x-dev-principal': VENDORS_EDITOR },
      body: { data },
      key: randomUUID(),
    });

  beforeAll(async () => {
    vendorsDb = await testDatabase('vendors', VENDORS_MIGRATIONS);
    const config = vendorsConfig({ VENDORS_SERVICE_TOKEN: TOKEN, VENDORS_EDITORS: VENDORS_EDITOR, DEV_AUTH: '1' });
    vendors = (await buildVendors({
      database: vendorsDb as never,
      authenticator: vendorsAuthenticator(config),
      callers: vendorsCallers(config),
      logLevel: 'silent',
    })) as App;
    await vendors.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(vendors.server.address() as AddressInfo).port}`;
    h = await harness({ app: { vendors: vendorsClient(url, 5_000, TOKEN) } });
    wrongToken = await harness({ app: { vendors: vendorsClient(url, 5_000, `${TOKEN}-not`) } });
  });
  afterAll(async () => {
    await wrongToken.close_();
    await h.close_();
    await vendors.close();
    await vendorsDb.drop();
  });

  it('17 CON-163 CON-164 CON-070 a firm of the real vendors service is put on a project with its contact; inactive 409; unknown 404', async () => {
    const firm = await asVendorsEditor('POST', '/v1/vendors', {
      name: `Studio ${randomUUID().slice(0, 6)}`,
      kind: 'consultant',
      discipline: 'architecture',
    });
    expect(firm.status, JSON.stringify(firm.body)).toBe(201);
    const firmId = (firm.data as { id: string }).id;
    const contact = await asVendorsEditor('POST', `/v1/vendors/${firmId}/contacts`, {
      email: 'pm@studio.test',
      given_name: 'Pat',
      family_name: 'Lee',
    });
    expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    const contactId = (contact.data as { id: string }).id;

    const projectId = await project(h);
    const a = await h.call('POST', `/v1/vendors/${firmId}/assignments`, EDITOR, {
      data: { project_id: projectId, role: 'architect', contact_id: contactId },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(a.data).toMatchObject({ vendor_id: firmId, role: 'architect', contact_id: contactId });

    const listed = await h.call('GET', `/v1/development-projects/${projectId}/vendors`);
    expect(listed.data).toEqual([
      expect.objectContaining({ vendor_id: firmId, name: (firm.data as { name: string }).name, status: 'active' }),
    ]);

    const off = await asVendorsEditor('POST', `/v1/vendors/${firmId}/status`, { status: 'inactive' });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const before = await h.state();
    const refused = await h.call('POST', `/v1/vendors/${firmId}/assignments`, EDITOR, {
      data: { project_id: projectId, role: 'architect' },
    });
    expect(refused.status).toBe(409);
    expect(refused.errors?.[0]?.code).toBe('vendor_inactive');
    const unknown = await h.call('POST', `/v1/vendors/${randomUUID()}/assignments`, EDITOR, {
      data: { project_id: projectId, role: 'architect' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.errors?.[0]?.code).toBe('vendor_not_found');
    expect(await h.state()).toEqual(before);
  });

  it('17 CON-170 a service token the vendors service does not accept is 502 vendors_unavailable, nothing written', async () => {
    const firm = await asVendorsEditor('POST', '/v1/vendors', {
      name: `Other ${randomUUID().slice(0, 6)}`,
      kind: 'consultant',
      discipline: 'architecture',
    });
    const projectId = await project(wrongToken);
    const before = await wrongToken.state();
    const r = await wrongToken.call('POST', `/v1/vendors/${(firm.data as { id: string }).id}/assignments`, EDITOR, {
      data: { project_id: projectId, role: 'architect' },
    });
    expect(r.status).toBe(502);
    expect(r.errors?.[0]?.code).toBe('vendors_unavailable');
    expect(await wrongToken.state()).toEqual(before);
  });
});
