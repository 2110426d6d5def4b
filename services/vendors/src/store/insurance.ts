import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import { type CertificateStatus, type Coverage, coverageKey } from '../domain/insurance.ts';
import type { Certificate, CertificateInput, CurrentCertificate } from '../schemas/insurance.ts';
import type { Certificates, Db } from './db.ts';

const COLUMNS = [
  'id',
  'firm_id',
  'coverage',
  'coverage_description',
  'policy_number',
  'insurer',
  'starts_on',
  'expires_on',
  'recorded_at',
] as const;
type CertificateRow = Pick<Selectable<Certificates>, (typeof COLUMNS)[number]>;

const toCertificate = (r: CertificateRow): Certificate => ({
  id: r.id,
  vendor_id: r.firm_id,
  // The table's CHECK holds it to the schema's values.
  coverage: r.coverage as Certificate['coverage'],
  coverage_description: r.coverage_description ?? null,
  policy_number: r.policy_number,
  insurer: r.insurer ?? null,
  starts_on: r.starts_on,
  expires_on: r.expires_on,
  recorded_at: isoOrThrow(r.recorded_at),
});

/**
 * Inserts unless the firm already has the coverage (for `other`, the same description ignoring
 * case) + policy number + start date; undefined on that conflict. The database's trigger makes it the current certificate if it is the latest.
 */
export async function insertCertificate(
  trx: Db,
  id: string,
  firmId: string,
  input: CertificateInput,
  by: string,
  now: Date,
): Promise<Certificate | undefined> {
  const row = await trx
    .insertInto('certificates')
    .values({
      id,
      firm_id: firmId,
      coverage: input.coverage,
      coverage_description: input.coverage_description ?? null,
      coverage_key: coverageKey(input.coverage, input.coverage_description),
      policy_number: input.policy_number,
      insurer: input.insurer ?? null,
      starts_on: input.starts_on,
      expires_on: input.expires_on,
      recorded_at: now,
      recorded_by: by,
    })
    .onConflict((oc) => oc.columns(['firm_id', 'coverage', 'coverage_key', 'policy_number', 'starts_on']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toCertificate(row) : undefined;
}

/** Every certificate the firm has given, newest start first, one page, and how many in all. */
export async function certificatesOf(db: Db, firmId: string, page: PageRequest) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('certificates')
      .select(COLUMNS)
      .where('firm_id', '=', firmId)
      .orderBy('starts_on', 'desc')
      .orderBy('recorded_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('certificates')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('firm_id', '=', firmId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toCertificate), total: total.n };
}

/** The firm's insurance now: its latest certificate per coverage line, by coverage. */
export async function currentCertificatesOf(db: Db, firmId: string): Promise<Certificate[]> {
  const r = await sql<CertificateRow>`
    SELECT c.id, c.firm_id, c.coverage, c.coverage_description, c.policy_number, c.insurer, c.starts_on,
      c.expires_on, c.recorded_at
    FROM current_certificates cur JOIN certificates c ON c.id = cur.certificate_id
    WHERE cur.firm_id = ${firmId}::uuid
    ORDER BY cur.coverage, cur.coverage_key`.execute(db);
  return r.rows.map(toCertificate);
}

export interface CurrentFilter {
  coverage?: Coverage;
  status?: CertificateStatus;
  /** YYYY-MM-DD: the day that separates current from expired. */
  today: string;
}

/** The filter's conditions on coverage and expires_on, after `first`. */
const where = (first: RawBuilder<unknown>, f: CurrentFilter) => {
  const parts = [first];
  if (f.coverage) parts.push(sql`coverage = ${f.coverage}`);
  if (f.status === 'current') parts.push(sql`expires_on >= ${f.today}::date`);
  if (f.status === 'expired') parts.push(sql`expires_on < ${f.today}::date`);
  return sql.join(parts, sql` AND `);
};

/**
 * One page of the active firms' current certificates, soonest expiry first, and how many rows
 * the whole list has, in one statement. The page is a range of the partial index on
 * current_certificates (by coverage when filtered), then the page's certificates and firms by
 * primary key; the total is a sum over expiry days of the kept counts, not a count over firms.
 * Neither grows with the number of firms. A page past the end still answers the total (one row
 * of nulls).
 */
/** A row of currentInsuranceQuery: the total, and a certificate with its firm's name (all null past the end). */
type CurrentInsuranceRow = { total: number } & (
  | (CertificateRow & { vendor_name: string })
  | { [K in keyof CertificateRow | 'vendor_name']: null }
);

export const currentInsuranceQuery = (f: CurrentFilter, page: PageRequest) => sql<CurrentInsuranceRow>`
  SELECT t.total, p.*
  FROM (
    SELECT coalesce(sum(certificates), 0)::int AS total FROM current_expiry_counts WHERE ${where(sql`true`, f)}
  ) t
  LEFT JOIN LATERAL (
    SELECT c.id, c.firm_id, c.coverage, c.coverage_description, c.policy_number, c.insurer, c.starts_on,
      c.expires_on, c.recorded_at, f.name AS vendor_name, cur.certificate_id AS sort_id
    FROM (
      SELECT certificate_id, expires_on FROM current_certificates
      WHERE ${where(sql`active`, f)}
      ORDER BY expires_on, certificate_id
      LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}
    ) cur
    JOIN certificates c ON c.id = cur.certificate_id
    JOIN firms f ON f.id = c.firm_id
  ) p ON true
  ORDER BY p.expires_on, p.sort_id`;

export async function currentInsurancePage(
  db: Db,
  f: CurrentFilter,
  page: PageRequest,
): Promise<{ items: CurrentCertificate[]; total: number }> {
  const r = await currentInsuranceQuery(f, page).execute(db);
  const items = r.rows
    .filter((row): row is Extract<CurrentInsuranceRow, { id: string }> => row.id !== null)
    .map((row) => ({ ...toCertificate(row), vendor_name: row.vendor_name }));
  return { items, total: r.rows[0]?.total ?? 0 };
}
