import type { PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import { type UploadPurpose, utcDay } from '../domain/recorder-files.ts';
import type { Db, FileUploads } from './db.ts';

/** Every statement of the recorder and file routes (issue 19): sign-in days, devices, adoption, uploads. */

/** Records the UTC day of a successful recorder mint; true when it is the person's first that day. */
export async function recordSignIn(trx: Db, personId: string, now: Date): Promise<boolean> {
  const row = await trx
    .insertInto('recorder_sign_ins')
    .values({ person_id: personId, day: utcDay(now), first_at: now })
    .onConflict((oc) => oc.columns(['person_id', 'day']).doNothing())
    .returning('person_id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface DeviceRecord {
  serial: string;
  person_id: string;
  registered_at: string;
}

const toDevice = (r: { serial: string; person_id: string; registered_at: Date | string }): DeviceRecord => ({
  serial: r.serial,
  person_id: r.person_id,
  registered_at: new Date(r.registered_at).toISOString(),
});

/** The device a serial is registered as, locked for the rest of the transaction. */
export async function findDevice(trx: Db, serial: string): Promise<DeviceRecord | undefined> {
  const row = await trx
    .selectFrom('recorder_devices')
    .select(['serial', 'person_id', 'registered_at'])
    .where('serial', '=', serial)
    .forUpdate()
    .executeTakeFirst();
  return row ? toDevice(row) : undefined;
}

/** Registers a serial to a person; undefined when a concurrent registration took it first. */
export async function insertDevice(trx: Db, serial: string, personId: string, now: Date) {
  const row = await trx
    .insertInto('recorder_devices')
    .values({ serial, person_id: personId, registered_at: now })
    .onConflict((oc) => oc.column('serial').doNothing())
    .returning(['serial', 'person_id', 'registered_at'])
    .executeTakeFirst();
  return row ? toDevice(row) : undefined;
}

export interface AdoptionRow {
  person_id: string;
  sign_in_days: number;
  uploaded_recordings: number;
}

/**
 * Per person over [since, until): the sign-in days whose first mint falls in the window, and the
 * recordings they uploaded (evidence of source recorder or phone, by author, created in the
 * window). Counts only; people with neither are not listed. Ordered by person id.
 */
export async function adoption(
  db: Db,
  w: { since: Date; until: Date },
  page: PageRequest,
): Promise<{ items: AdoptionRow[]; total: number }> {
  const { rows } = await sql<AdoptionRow & { total: string | number }>`
    WITH s AS (
      SELECT person_id, count(*)::int AS n FROM recorder_sign_ins
      WHERE first_at >= ${w.since} AND first_at < ${w.until}
      GROUP BY person_id
    ), r AS (
      SELECT author AS person_id, count(*)::int AS n FROM evidence
      WHERE source IN ('recorder', 'phone') AND created_at >= ${w.since} AND created_at < ${w.until}
      GROUP BY author
    )
    SELECT coalesce(s.person_id, r.person_id) AS person_id,
           coalesce(s.n, 0) AS sign_in_days,
           coalesce(r.n, 0) AS uploaded_recordings,
           count(*) OVER () AS total
    FROM s FULL JOIN r ON r.person_id = s.person_id
    ORDER BY 1
    LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}
  `.execute(db);
  if (rows.length === 0 && page.page > 1) {
    const again = await adoption(db, w, { page: 1, pageSize: 1 });
    return { items: [], total: again.total };
  }
  return {
    items: rows.map((r) => ({
      person_id: r.person_id,
      sign_in_days: Number(r.sign_in_days),
      uploaded_recordings: Number(r.uploaded_recordings),
    })),
    total: rows.length > 0 ? Number(rows[0].total) : 0,
  };
}

export interface FileUploadRecord {
  id: string;
  requested_by: string;
  project_id: string | null;
  purpose: UploadPurpose;
  filename: string;
  content_type: string;
  storage_account: string;
  container: string;
  blob_name: string;
  expires_at: string;
  renewals: number;
  document_id: string | null;
  registered_at: string | null;
  created_at: string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

const toUpload = (r: Selectable<FileUploads>): FileUploadRecord => ({
  id: r.id,
  requested_by: r.requested_by,
  project_id: r.project_id,
  purpose: r.purpose as UploadPurpose,
  filename: r.filename,
  content_type: r.content_type,
  storage_account: r.storage_account,
  container: r.container,
  blob_name: r.blob_name,
  expires_at: iso(r.expires_at),
  renewals: Number(r.renewals),
  document_id: r.document_id,
  registered_at: r.registered_at === null ? null : iso(r.registered_at),
  created_at: iso(r.created_at),
});

export async function insertFileUpload(
  trx: Db,
  u: Omit<FileUploadRecord, 'renewals' | 'document_id' | 'registered_at' | 'created_at'>,
  now: Date,
): Promise<FileUploadRecord> {
  const row = await trx
    .insertInto('file_uploads')
    .values({ ...u, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUpload(row);
}

/** One upload, locked for the rest of the transaction when asked (renewals and registration). */
export async function findFileUpload(db: Db, id: string, opts: { lock?: boolean } = {}) {
  let q = db.selectFrom('file_uploads').selectAll().where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toUpload(row) : undefined;
}

/** A renewal: the same blob, signed again until `expiresAt`. */
export async function renewFileUpload(trx: Db, id: string, expiresAt: Date): Promise<FileUploadRecord> {
  const row = await trx
    .updateTable('file_uploads')
    .set((eb) => ({ expires_at: expiresAt, renewals: eb('renewals', '+', 1) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUpload(row);
}

/** Records the document registered from the upload. */
export async function recordFileDocument(trx: Db, id: string, documentId: string, now: Date) {
  const row = await trx
    .updateTable('file_uploads')
    .set({ document_id: documentId, registered_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUpload(row);
}
