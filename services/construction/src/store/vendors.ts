import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import { assignmentState } from '../domain/vendors.ts';
import type { Assignment, Fee, FirmFees, Invoice, ProjectFirm } from '../schemas/vendors.ts';
import type { Db, DesignFees, FeeInvoices, VendorAssignments } from './db.ts';

const offset = (page: PageRequest) => (page.page - 1) * page.pageSize;

const toAssignment = (r: Selectable<VendorAssignments>): Assignment => ({
  id: r.id,
  vendor_id: r.vendor_id,
  project_id: r.project_id,
  role: r.role,
  contact_id: r.contact_id,
  started_on: r.started_on,
  ended_on: r.ended_on,
  state: assignmentState(r.ended_on),
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

const toFee = (r: Selectable<DesignFees>): Fee => ({
  id: r.id,
  vendor_id: r.vendor_id,
  project_id: r.project_id,
  description: r.description,
  agreed_minor: Number(r.agreed_minor),
  invoiced_minor: Number(r.invoiced_minor),
  remaining_minor: Number(r.agreed_minor) - Number(r.invoiced_minor),
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

const toInvoice = (r: Selectable<FeeInvoices>, fee: { vendor_id: string; project_id: string }): Invoice => ({
  id: r.id,
  fee_id: r.fee_id,
  vendor_id: fee.vendor_id,
  project_id: fee.project_id,
  number: r.number,
  amount_minor: Number(r.amount_minor),
  invoiced_on: r.invoiced_on,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

/** Whether the project exists (reads answer 404 project_not_found otherwise). */
export async function projectExists(db: Db, id: string) {
  const row = await db.selectFrom('development_projects').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function insertAssignment(
  trx: Db,
  a: Pick<VendorAssignments, 'id' | 'vendor_id' | 'project_id' | 'role' | 'contact_id' | 'started_on'>,
  by: string,
  now: Date,
) {
  const row = await trx
    .insertInto('vendor_assignments')
    .values({ ...a, created_by: by, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAssignment(row);
}

/** The firm's assignment (another firm's is not found), locked until the command ends. */
export async function lockAssignment(trx: Db, vendorId: string, id: string) {
  const row = await trx
    .selectFrom('vendor_assignments')
    .selectAll()
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row ? toAssignment(row) : undefined;
}

export async function findAssignment(db: Db, vendorId: string, id: string) {
  const row = await db
    .selectFrom('vendor_assignments')
    .select('project_id')
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .executeTakeFirst();
  return row;
}

export async function endAssignment(trx: Db, id: string, endedOn: string, by: string, now: Date) {
  const row = await trx
    .updateTable('vendor_assignments')
    .set({ ended_on: endedOn, ended_by: by, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAssignment(row);
}

/** A firm's assignments: every open one before every ended one (CON-166), then in the order made. */
export async function listAssignments(db: Db, vendorId: string, projectId: string | undefined, page: PageRequest) {
  let q = db.selectFrom('vendor_assignments').where('vendor_id', '=', vendorId);
  if (projectId !== undefined) q = q.where('project_id', '=', projectId);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy(sql`(ended_on IS NOT NULL)`)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.pageSize)
      .offset(offset(page))
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toAssignment), total: Number(count.n) };
}

/** Whether the firm is on the project now (an open assignment). */
export async function isOnProject(db: Db, vendorId: string, projectId: string) {
  const row = await db
    .selectFrom('vendor_assignments')
    .select('id')
    .where('vendor_id', '=', vendorId)
    .where('project_id', '=', projectId)
    .where('ended_on', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertFee(
  trx: Db,
  f: Pick<DesignFees, 'id' | 'vendor_id' | 'project_id' | 'description' | 'agreed_minor'>,
  by: string,
  now: Date,
) {
  const row = await trx
    .insertInto('design_fees')
    .values({ ...f, created_by: by, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toFee(row);
}

/** The firm's fee (another firm's is not found); `lock` holds it until the command ends. */
export async function findFee(db: Db, vendorId: string, id: string, lock = false) {
  let q = db.selectFrom('design_fees').selectAll().where('id', '=', id).where('vendor_id', '=', vendorId);
  if (lock) q = q.forNoKeyUpdate();
  const row = await q.executeTakeFirst();
  return row ? toFee(row) : undefined;
}

export async function listFees(db: Db, vendorId: string, projectId: string | undefined, page: PageRequest) {
  let q = db.selectFrom('design_fees').where('vendor_id', '=', vendorId);
  if (projectId !== undefined) q = q.where('project_id', '=', projectId);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('created_at').orderBy('id').limit(page.pageSize).offset(offset(page)).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toFee), total: Number(count.n) };
}

/** Records an invoice and counts it on its fee; undefined when the fee already has that number (ignoring case). */
export async function insertInvoice(
  trx: Db,
  fee: Fee,
  i: Pick<FeeInvoices, 'id' | 'number' | 'amount_minor' | 'invoiced_on'>,
  by: string,
  now: Date,
) {
  const row = await trx
    .insertInto('fee_invoices')
    .values({ ...i, fee_id: fee.id, created_by: by, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await trx
    .updateTable('design_fees')
    .set((eb) => ({ invoiced_minor: eb('invoiced_minor', '+', i.amount_minor) }))
    .where('id', '=', fee.id)
    .execute();
  return toInvoice(row, fee);
}

/** A fee's invoices, latest invoice date first. */
export async function listInvoices(db: Db, fee: Fee, page: PageRequest) {
  const q = db.selectFrom('fee_invoices').where('fee_id', '=', fee.id);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('invoiced_on', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(offset(page))
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((r) => toInvoice(r, fee)), total: Number(count.n) };
}

/**
 * The firms on a project (those with an open assignment), in the order they came on, each with
 * its open assignments; names are the caller's to fill in from the vendors service.
 */
export async function projectFirms(db: Db, projectId: string, page: PageRequest) {
  const open = db.selectFrom('vendor_assignments').where('project_id', '=', projectId).where('ended_on', 'is', null);
  const [firms, count] = await Promise.all([
    open
      .select(['vendor_id', (eb) => eb.fn.min('created_at').as('first')])
      .groupBy('vendor_id')
      .orderBy('first')
      .orderBy('vendor_id')
      .limit(page.pageSize)
      .offset(offset(page))
      .execute(),
    open.select(sql<string>`count(DISTINCT vendor_id)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const ids = firms.map((f) => f.vendor_id);
  const rows =
    ids.length === 0
      ? []
      : await open.selectAll().where('vendor_id', 'in', ids).orderBy('created_at').orderBy('id').execute();
  const items: Omit<ProjectFirm, 'name' | 'status'>[] = ids.map((vendor_id) => ({
    vendor_id,
    assignments: rows
      .filter((r) => r.vendor_id === vendor_id)
      .map((r) => ({ id: r.id, role: r.role, contact_id: r.contact_id, started_on: r.started_on })),
  }));
  return { items, total: Number(count.n) };
}

/** Agreed, invoiced and remaining per firm over the project's design fees (CON-071), in firm id order. */
export async function projectFeeTotals(db: Db, projectId: string, page: PageRequest) {
  const fees = db.selectFrom('design_fees').where('project_id', '=', projectId);
  const [rows, count] = await Promise.all([
    fees
      .select([
        'vendor_id',
        sql<string>`count(*)`.as('fees'),
        sql<string>`sum(agreed_minor)`.as('agreed'),
        sql<string>`sum(invoiced_minor)`.as('invoiced'),
      ])
      .groupBy('vendor_id')
      .orderBy('vendor_id')
      .limit(page.pageSize)
      .offset(offset(page))
      .execute(),
    fees.select(sql<string>`count(DISTINCT vendor_id)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  const items: FirmFees[] = rows.map((r) => ({
    vendor_id: r.vendor_id,
    fees: Number(r.fees),
    agreed_minor: Number(r.agreed),
    invoiced_minor: Number(r.invoiced),
    remaining_minor: Number(r.agreed) - Number(r.invoiced),
  }));
  return { items, total: Number(count.n) };
}
