import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_VENDORS_TOKEN, type FakeVendors, fakeVendors } from './fakes/vendors.ts';
import { agree, assign, closeProject, project, vendorsClient } from './fixtures/vendors.ts';
import { EDITOR, type Harness, harness, READER } from './harness.ts';

type Row = Record<string, unknown>;

describe('17 construction: vendors on projects', () => {
  let h: Harness;
  let fake: FakeVendors;

  beforeAll(async () => {
    fake = await fakeVendors();
    h = await harness({ app: { vendors: vendorsClient(fake.url, 1_000) } });
  });
  afterAll(async () => {
    await h.close_();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'ok';
  });

  /** A refused command: its status and code, and nothing written (every table and the outbox). */
  const refused = async (
    method: 'POST',
    url: string,
    data: unknown,
    status: number,
    code: string,
    as: string = EDITOR,
  ) => {
    const before = await h.state();
    const r = await h.call(method, url, as, { data });
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.errors?.[0]?.code).toBe(code);
    expect(await h.state()).toEqual(before);
    return r;
  };

  it('17 CON-163 POST /v1/vendors/{id}/assignments stores the assignment with its role and contact', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    const contactId = firm.contacts[0]?.id as string;
    const a = await h.ok<Row>(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: projectId, role: 'Structural engineer', contact_id: contactId, started_on: '2026-02-01' },
      201,
    );
    expect(a).toMatchObject({
      vendor_id: firm.id,
      project_id: projectId,
      role: 'Structural engineer',
      contact_id: contactId,
      started_on: '2026-02-01',
      ended_on: null,
      state: 'open',
    });
    const row = await h.db
      .selectFrom('vendor_assignments')
      .selectAll()
      .where('id', '=', a.id as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'Structural engineer', contact_id: contactId, vendor_id: firm.id });
    const [event] = (await h.events('vendor_assignment.started')).filter((e) => e.payload.data.assignment_id === a.id);
    expect(event?.payload.data).toMatchObject({
      vendor_id: firm.id,
      project_id: projectId,
      role: 'Structural engineer',
    });
    // The firm was asked with the vendors service token on behalf of the caller.
    const asked = fake.requests.filter((q) => q.url === `/v1/vendors/${firm.id}`);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.at(-1)?.headers['x-platform-on-behalf-of']).toBe(EDITOR);
  });

  it('17 CON-163 an assignment without a contact stores none; started_on defaults to today', async () => {
    const firm = fake.firm();
    const a = await assign(h, firm, await project(h));
    expect(a).toMatchObject({ contact_id: null, started_on: h.now().toISOString().slice(0, 10) });
  });

  it("17 CON-163 a contact that is not one of the firm's is 422 and nothing is written", async () => {
    const firm = fake.firm();
    const other = fake.firm();
    const projectId = await project(h);
    const r = await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: projectId, role: 'architect', contact_id: other.contacts[0]?.id },
      422,
      'validation_failed',
    );
    expect(r.errors?.[0]?.field).toContain('contact_id');
  });

  it('17 CON-163 a firm the vendors service does not know is 404 vendor_not_found and nothing is written', async () => {
    await refused(
      'POST',
      `/v1/vendors/${randomUUID()}/assignments`,
      { project_id: await project(h), role: 'architect' },
      404,
      'vendor_not_found',
    );
  });

  it('17 CON-164 an inactive firm cannot be put on a project: 409 vendor_inactive and nothing is written', async () => {
    const firm = fake.firm({ status: 'inactive' });
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: await project(h), role: 'architect' },
      409,
      'vendor_inactive',
    );
  });

  it('17 CON-164 an inactive firm takes no new fee either: 409 vendor_inactive and nothing is written', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await assign(h, firm, projectId);
    firm.status = 'inactive';
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/fees`,
      { project_id: projectId, description: 'Design', agreed_minor: 5_000 },
      409,
      'vendor_inactive',
    );
  });

  it('17 CON-165 POST .../assignments/{assignment_id}/end takes the firm off the project: the assignment is ended', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    const a = await assign(h, firm, projectId, 'architect', { started_on: '2026-01-10' });
    const ended = await h.ok<Row>('POST', `/v1/vendors/${firm.id}/assignments/${a.id}/end`, { ended_on: '2026-02-20' });
    expect(ended).toMatchObject({ id: a.id, state: 'ended', ended_on: '2026-02-20' });
    const row = await h.db
      .selectFrom('vendor_assignments')
      .select(['ended_on', 'ended_by'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(row.ended_on).toBe('2026-02-20');
    expect(
      (await h.events('vendor_assignment.ended')).filter((e) => e.payload.data.assignment_id === a.id),
    ).toHaveLength(1);
    // The firm is no longer on the project.
    const onProject = await h.call('GET', `/v1/development-projects/${projectId}/vendors`);
    expect((onProject.data as Row[]).map((f) => f.vendor_id)).not.toContain(firm.id);
  });

  it('17 CON-165 ending without a body ends today; ending again changes nothing and publishes nothing', async () => {
    const firm = fake.firm();
    const a = await assign(h, firm, await project(h), 'architect', { started_on: '2026-01-10' });
    const r = await h.call('POST', `/v1/vendors/${firm.id}/assignments/${a.id}/end`, EDITOR, undefined);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.data as Row).ended_on).toBe(h.now().toISOString().slice(0, 10));
    const before = await h.events('vendor_assignment.ended');
    const again = await h.ok<Row>('POST', `/v1/vendors/${firm.id}/assignments/${a.id}/end`, { ended_on: '2026-03-01' });
    expect(again.ended_on).toBe(h.now().toISOString().slice(0, 10));
    expect(await h.events('vendor_assignment.ended')).toHaveLength(before.length);
  });

  it("17 CON-165 an end before the start is 422, another firm's assignment is 404 assignment_not_found; nothing written", async () => {
    const firm = fake.firm();
    const a = await assign(h, firm, await project(h), 'architect', { started_on: '2026-02-10' });
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments/${a.id}/end`,
      { ended_on: '2026-02-09' },
      422,
      'validation_failed',
    );
    await refused('POST', `/v1/vendors/${randomUUID()}/assignments/${a.id}/end`, {}, 404, 'assignment_not_found');
    await refused('POST', `/v1/vendors/${firm.id}/assignments/${randomUUID()}/end`, {}, 404, 'assignment_not_found');
  });

  it('17 CON-166 GET /v1/vendors/{id}/assignments lists every open assignment before every ended one', async () => {
    const firm = fake.firm();
    const ids: string[] = [];
    for (const [i, at] of [
      '2026-03-02T12:00:01Z',
      '2026-03-02T12:00:02Z',
      '2026-03-02T12:00:03Z',
      '2026-03-02T12:00:04Z',
    ].entries()) {
      h.setNow(at);
      ids.push((await assign(h, firm, await project(h), `role ${i}`)).id);
    }
    h.setNow('2026-03-02T12:00:05Z');
    await h.ok('POST', `/v1/vendors/${firm.id}/assignments/${ids[0]}/end`, {});
    await h.ok('POST', `/v1/vendors/${firm.id}/assignments/${ids[2]}/end`, {});
    const r = await h.call('GET', `/v1/vendors/${firm.id}/assignments`, READER);
    expect(r.status).toBe(200);
    const list = r.data as Row[];
    expect(list.map((a) => a.id)).toEqual([ids[1], ids[3], ids[0], ids[2]]);
    const lastOpen = list.map((a) => a.state).lastIndexOf('open');
    const firstEnded = list.map((a) => a.state).indexOf('ended');
    expect(lastOpen).toBeLessThan(firstEnded);
    expect(r.meta?.pagination).toMatchObject({ totalItems: 4, page: 1 });
    // Pages keep the order: two a page.
    const page2 = await h.call('GET', `/v1/vendors/${firm.id}/assignments?pagination[pageSize]=2&pagination[page]=2`);
    expect((page2.data as Row[]).map((a) => a.id)).toEqual([ids[0], ids[2]]);
    h.setNow('2026-03-02T12:00:00Z');
  });

  it('17 CON-167 POST /v1/vendors/{id}/fees agrees a design fee: it appears in GET /v1/vendors/{id}/fees', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await assign(h, firm, projectId);
    const fee = await h.ok<Row>(
      'POST',
      `/v1/vendors/${firm.id}/fees`,
      { project_id: projectId, description: 'Schematic design', agreed_minor: 250_000 },
      201,
    );
    expect(fee).toMatchObject({
      vendor_id: firm.id,
      project_id: projectId,
      agreed_minor: 250_000,
      invoiced_minor: 0,
      remaining_minor: 250_000,
    });
    const r = await h.call('GET', `/v1/vendors/${firm.id}/fees`, READER);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([fee]);
    const byProject = await h.call('GET', `/v1/vendors/${firm.id}/fees?project_id=${randomUUID()}`);
    expect(byProject.data).toEqual([]);
    expect((await h.events('design_fee.agreed')).some((e) => e.payload.data.fee_id === fee.id)).toBe(true);
  });

  it('17 CON-168 a fee for a firm not on the project is 409 vendor_not_on_project and nothing is written', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    const data = { project_id: projectId, description: 'Design', agreed_minor: 10_000 };
    await refused('POST', `/v1/vendors/${firm.id}/fees`, data, 409, 'vendor_not_on_project');
    // On another project only, or taken off this one: still not on it.
    await assign(h, firm, await project(h));
    await refused('POST', `/v1/vendors/${firm.id}/fees`, data, 409, 'vendor_not_on_project');
    const a = await assign(h, firm, projectId);
    await h.ok('POST', `/v1/vendors/${firm.id}/assignments/${a.id}/end`, {});
    await refused('POST', `/v1/vendors/${firm.id}/fees`, data, 409, 'vendor_not_on_project');
  });

  it("17 CON-168 a fee racing the end of the firm's last assignment: either the fee came first, or it is 409 vendor_not_on_project", async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    const a = await assign(h, firm, projectId);
    const [end, fee] = await Promise.all([
      h.call('POST', `/v1/vendors/${firm.id}/assignments/${a.id}/end`, EDITOR, { data: {} }),
      h.call('POST', `/v1/vendors/${firm.id}/fees`, EDITOR, {
        data: { project_id: projectId, description: 'Race', agreed_minor: 1_000 },
      }),
    ]);
    expect(end.status).toBe(200);
    expect([201, 409]).toContain(fee.status);
    const fees = await h.db.selectFrom('design_fees').select('id').where('project_id', '=', projectId).execute();
    if (fee.status === 409) expect(fee.errors?.[0]?.code).toBe('vendor_not_on_project');
    // The fee is stored exactly when it was agreed while the firm was still on the project.
    expect(fees).toHaveLength(fee.status === 201 ? 1 : 0);
  });

  it('17 CON-169 POST .../fees/{fee_id}/invoices records an invoice: it is listed and counts as invoiced', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await assign(h, firm, projectId);
    const fee = await agree(h, firm, projectId, 100_000);
    h.setNow('2026-03-02T12:00:01Z');
    const first = await h.ok<Row>(
      'POST',
      `/v1/vendors/${firm.id}/fees/${fee.id}/invoices`,
      { number: 'INV-001', amount_minor: 30_000, invoiced_on: '2026-02-15' },
      201,
    );
    h.setNow('2026-03-02T12:00:02Z');
    const second = await h.ok<Row>(
      'POST',
      `/v1/vendors/${firm.id}/fees/${fee.id}/invoices`,
      { number: 'INV-002', amount_minor: 20_000, invoiced_on: '2026-02-28' },
      201,
    );
    h.setNow('2026-03-02T12:00:00Z');
    expect(first).toMatchObject({
      fee_id: fee.id,
      vendor_id: firm.id,
      project_id: projectId,
      number: 'INV-001',
      amount_minor: 30_000,
    });
    const list = await h.call('GET', `/v1/vendors/${firm.id}/fees/${fee.id}/invoices`, READER);
    expect(list.status).toBe(200);
    expect(list.data).toEqual([second, first]);
    const fees = await h.call('GET', `/v1/vendors/${firm.id}/fees`);
    expect(fees.data).toEqual([
      expect.objectContaining({ id: fee.id, invoiced_minor: 50_000, remaining_minor: 50_000 }),
    ]);
    const totals = await h.call('GET', `/v1/development-projects/${projectId}/design-fees`);
    expect(totals.data).toEqual([
      { vendor_id: firm.id, fees: 1, agreed_minor: 100_000, invoiced_minor: 50_000, remaining_minor: 50_000 },
    ]);
    const [event] = (await h.events('design_fee.invoice_recorded')).filter(
      (e) => e.payload.data.invoice_id === second.id,
    );
    expect(event?.payload.data).toMatchObject({ amount_minor: 20_000, invoiced_minor: 50_000 });
  });

  it('17 CON-169 an invoice past the agreed fee is 409 fee_exceeded, a number taken is 409 invoice_number_taken; nothing written', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await assign(h, firm, projectId);
    const fee = await agree(h, firm, projectId, 10_000);
    const url = `/v1/vendors/${firm.id}/fees/${fee.id}/invoices`;
    await h.ok('POST', url, { number: 'A-1', amount_minor: 6_000, invoiced_on: '2026-02-01' }, 201);
    await refused('POST', url, { number: 'A-2', amount_minor: 4_001, invoiced_on: '2026-02-02' }, 409, 'fee_exceeded');
    await refused(
      'POST',
      url,
      { number: 'a-1', amount_minor: 1_000, invoiced_on: '2026-02-02' },
      409,
      'invoice_number_taken',
    );
    // Reaching the agreed fee exactly is fine.
    await h.ok('POST', url, { number: 'A-2', amount_minor: 4_000, invoiced_on: '2026-02-02' }, 201);
    await refused(
      'POST',
      `/v1/vendors/${randomUUID()}/fees/${fee.id}/invoices`,
      { number: 'X', amount_minor: 1, invoiced_on: '2026-02-02' },
      404,
      'fee_not_found',
    );
    expect((await h.call('GET', `/v1/vendors/${randomUUID()}/fees/${fee.id}/invoices`)).status).toBe(404);
  });

  it('17 CON-169 two concurrent invoices that fit the fee only one at a time: one is recorded, the other is 409 fee_exceeded', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await assign(h, firm, projectId);
    const fee = await agree(h, firm, projectId, 10_000);
    const url = `/v1/vendors/${firm.id}/fees/${fee.id}/invoices`;
    const answers = await Promise.all(
      ['C-1', 'C-2'].map((number) =>
        h.call('POST', url, EDITOR, { data: { number, amount_minor: 7_000, invoiced_on: '2026-02-02' } }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const row = await h.db
      .selectFrom('design_fees')
      .select('invoiced_minor')
      .where('id', '=', fee.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.invoiced_minor)).toBe(7_000);
  });

  it('17 CON-170 the vendors service failing (500) is 502 vendors_unavailable and nothing is written', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await assign(h, firm, projectId);
    fake.mode = 'fail';
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: projectId, role: 'architect' },
      502,
      'vendors_unavailable',
    );
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/fees`,
      { project_id: projectId, description: 'Design', agreed_minor: 1_000 },
      502,
      'vendors_unavailable',
    );
  });

  it('17 CON-170 the vendors service hanging is 502 vendors_unavailable within the bound and nothing is written', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    fake.mode = 'hang';
    const started = Date.now();
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: projectId, role: 'architect' },
      502,
      'vendors_unavailable',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('17 CON-170 the vendors service refusing the service token (401) is 502 vendors_unavailable, not "no such firm"', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    fake.token = 'another-token';
    try {
      await refused(
        'POST',
        `/v1/vendors/${firm.id}/assignments`,
        { project_id: projectId, role: 'architect' },
        502,
        'vendors_unavailable',
      );
    } finally {
      fake.token = FAKE_VENDORS_TOKEN;
    }
  });

  it('17 CON-070 GET .../{projectId}/vendors lists each firm on the project with its name and open assignments', async () => {
    const projectId = await project(h);
    const a = fake.firm({ name: 'Arup Structures' });
    const b = fake.firm({ name: 'Bauer Architects' });
    const c = fake.firm({ name: 'Gone Ltd' });
    h.setNow('2026-03-02T12:00:01Z');
    const a1 = await assign(h, a, projectId, 'structural engineer');
    h.setNow('2026-03-02T12:00:02Z');
    const b1 = await assign(h, b, projectId, 'architect');
    h.setNow('2026-03-02T12:00:03Z');
    const a2 = await assign(h, a, projectId, 'facade engineer');
    const c1 = await assign(h, c, projectId, 'surveyor');
    await h.ok('POST', `/v1/vendors/${c.id}/assignments/${c1.id}/end`, {});
    h.setNow('2026-03-02T12:00:00Z');
    const r = await h.call('GET', `/v1/development-projects/${projectId}/vendors`, READER);
    expect(r.status).toBe(200);
    const firms = r.data as Row[];
    expect(firms.map((f) => f.vendor_id)).toEqual([a.id, b.id]);
    expect(firms[0]).toMatchObject({ name: 'Arup Structures', status: 'active' });
    expect((firms[0]?.assignments as Row[] | undefined)?.map((x) => x.id)).toEqual([a1.id, a2.id]);
    expect(firms[1]).toMatchObject({
      name: 'Bauer Architects',
      assignments: [expect.objectContaining({ id: b1.id, role: 'architect' })],
    });
    expect(r.meta?.pagination).toMatchObject({ totalItems: 2 });
  });

  it('17 CON-070 with the vendors service down the firms are still listed, with name and status null', async () => {
    const projectId = await project(h);
    const firm = fake.firm();
    await assign(h, firm, projectId);
    fake.mode = 'fail';
    const r = await h.call('GET', `/v1/development-projects/${projectId}/vendors`);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([expect.objectContaining({ vendor_id: firm.id, name: null, status: null })]);
    expect((await h.call('GET', `/v1/development-projects/${randomUUID()}/vendors`)).errors?.[0]?.code).toBe(
      'project_not_found',
    );
  });

  it('17 CON-071 GET .../{projectId}/design-fees returns agreed, invoiced and remaining per firm', async () => {
    const projectId = await project(h);
    const a = fake.firm();
    const b = fake.firm();
    await assign(h, a, projectId);
    await assign(h, b, projectId);
    const fa1 = await agree(h, a, projectId, 100_000);
    await agree(h, a, projectId, 50_000);
    await agree(h, b, projectId, 80_000);
    await h.ok(
      'POST',
      `/v1/vendors/${a.id}/fees/${fa1.id}/invoices`,
      { number: '1', amount_minor: 60_000, invoiced_on: '2026-02-01' },
      201,
    );
    // A fee on another project does not count here.
    const elsewhere = await project(h);
    await assign(h, a, elsewhere);
    await agree(h, a, elsewhere, 999);
    const r = await h.call('GET', `/v1/development-projects/${projectId}/design-fees`, READER);
    expect(r.status).toBe(200);
    const byFirm = Object.fromEntries((r.data as Row[]).map((f) => [f.vendor_id, f]));
    expect(Object.keys(byFirm).sort()).toEqual([a.id, b.id].sort());
    expect(byFirm[a.id]).toEqual({
      vendor_id: a.id,
      fees: 2,
      agreed_minor: 150_000,
      invoiced_minor: 60_000,
      remaining_minor: 90_000,
    });
    expect(byFirm[b.id]).toEqual({
      vendor_id: b.id,
      fees: 1,
      agreed_minor: 80_000,
      invoiced_minor: 0,
      remaining_minor: 80_000,
    });
    expect((await h.call('GET', `/v1/development-projects/${randomUUID()}/design-fees`)).status).toBe(404);
  });

  it('17 CON-034 a completed or cancelled project takes no assignment, end, fee or invoice: 409 project_closed, nothing written', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    const a = await assign(h, firm, projectId);
    const fee = await agree(h, firm, projectId, 10_000);
    await closeProject(h, projectId, 'completed');
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: projectId, role: 'x' },
      409,
      'project_closed',
    );
    await refused('POST', `/v1/vendors/${firm.id}/assignments/${a.id}/end`, {}, 409, 'project_closed');
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/fees`,
      { project_id: projectId, description: 'd', agreed_minor: 1 },
      409,
      'project_closed',
    );
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/fees/${fee.id}/invoices`,
      { number: 'Z', amount_minor: 1, invoiced_on: '2026-02-01' },
      409,
      'project_closed',
    );
    const cancelled = await project(h, 'cancelled');
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: cancelled, role: 'x' },
      409,
      'project_closed',
    );
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: randomUUID(), role: 'x' },
      404,
      'project_not_found',
    );
  });

  it('17 CON-183 a reader may list vendor work but not change it (403, nothing written)', async () => {
    const firm = fake.firm();
    const projectId = await project(h);
    await refused(
      'POST',
      `/v1/vendors/${firm.id}/assignments`,
      { project_id: projectId, role: 'x' },
      403,
      'forbidden',
      READER,
    );
    expect((await h.call('GET', `/v1/vendors/${firm.id}/assignments`, READER)).status).toBe(200);
    expect((await h.call('GET', `/v1/vendors/${firm.id}/fees`, READER)).status).toBe(200);
  });

  it('17 CON-172 construction stores no firm, contact or insurance records: only ids of the vendors service', async () => {
    const tables = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`.execute(h.db);
    const names = tables.rows.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['vendor_assignments', 'design_fees', 'fee_invoices']));
    expect(names.filter((n) => /firm|contact|insurance|certificate|^vendors?$/i.test(n))).toEqual([]);
    const columns = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name IN ('vendor_assignments', 'design_fees', 'fee_invoices')`.execute(
      h.db,
    );
    const held = columns.rows.map((c) => c.column_name);
    expect(held).toEqual(expect.arrayContaining(['vendor_id', 'contact_id']));
    expect(held.filter((c) => /name|email|phone|insur|certificate|coverage|status/i.test(c))).toEqual([]);
    // Every migration on disk agrees: no CREATE TABLE of firms, contacts or insurance.
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../migrations/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      const created = [...text.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)/gi)].map(
        (m) => m[1] as string,
      );
      expect(
        created.filter((n) => /firm|contact|insurance|certificate|^vendors?$/i.test(n)),
        file,
      ).toEqual([]);
    }
  });
});

describe('17 construction: vendors address unset', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.close_();
  });

  it('17 CON-171 the vendors service address unset is 502 vendors_unavailable and nothing is written', async () => {
    const projectId = await project(h);
    for (const [url, data] of [
      [`/v1/vendors/${randomUUID()}/assignments`, { project_id: projectId, role: 'architect' }],
      [`/v1/vendors/${randomUUID()}/fees`, { project_id: projectId, description: 'Design', agreed_minor: 1 }],
    ] as const) {
      const before = await h.state();
      const r = await h.call('POST', url, EDITOR, { data });
      expect(r.status).toBe(502);
      expect(r.errors?.[0]?.code).toBe('vendors_unavailable');
      expect(await h.state()).toEqual(before);
    }
    // Reads of construction's own records still answer.
    expect((await h.call('GET', `/v1/development-projects/${projectId}/vendors`)).status).toBe(200);
  });
});
