import type { PageRequest } from '@platform/kit';
import type { Db } from './db.ts';

/** SQL of attachments: the link from a task or a document revision to a file in the documents service. */

const COLUMNS = [
  'id',
  'record_type',
  'record_id',
  'document_id',
  'blob_name',
  'filename',
  'content_type',
  'created_by',
  'created_at',
] as const;

export async function insertAttachment(
  db: Db,
  row: {
    id: string;
    record_type: string;
    record_id: string;
    document_id: string;
    blob_name: string;
    filename: string;
    content_type: string;
  },
  actor: string,
  now: Date,
) {
  return db
    .insertInto('attachments')
    .values({ ...row, created_by: actor, created_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function listAttachments(db: Db, recordType: string, recordId: string, page: PageRequest) {
  const base = db.selectFrom('attachments').where('record_type', '=', recordType).where('record_id', '=', recordId);
  const [items, count] = await Promise.all([
    base
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

export async function findAttachment(db: Db, id: string) {
  return db.selectFrom('attachments').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}
export type AttachmentRow = NonNullable<Awaited<ReturnType<typeof findAttachment>>>;
