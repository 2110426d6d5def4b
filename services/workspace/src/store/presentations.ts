import { isoOrThrow, type PageRequest } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { OutlineEntry, RevisionOrigin, RevisionStatus, Slide, Source } from '../domain/presentations.ts';
import type { Presentation, Revision } from '../schemas/presentations.ts';
import type { Db, PresentationRevisions, Presentations } from './db.ts';

/** Customer presentations and their revisions (migration 0010). */

const PRESENTATION_COLUMNS = [
  'id',
  'project_id',
  'title',
  'outline',
  'sources',
  'latest_revision',
  'shared_revision',
  'shared_by',
  'shared_at',
  'share_id',
  'created_by',
  'created_at',
  'updated_at',
] as const;
type PresentationRow = Pick<Selectable<Presentations>, (typeof PRESENTATION_COLUMNS)[number]>;

const REVISION_COLUMNS = [
  'presentation_id',
  'revision',
  'origin',
  'status',
  'slides',
  'failure_reason',
  'attempts',
  'document_id',
  'content_type',
  'size_bytes',
  'sha256',
  'created_by',
  'created_at',
  'rendered_at',
] as const;
type RevisionRow = Pick<Selectable<PresentationRevisions>, (typeof REVISION_COLUMNS)[number]>;

const iso = (d: Date | string | null) => (d === null ? null : isoOrThrow(d));

export const toPresentation = (r: PresentationRow): Presentation => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  outline: r.outline as unknown as OutlineEntry[],
  sources: r.sources as unknown as Source[],
  latest_revision: Number(r.latest_revision),
  shared_revision: r.shared_revision === null ? null : Number(r.shared_revision),
  shared_by: r.shared_by,
  shared_at: iso(r.shared_at),
  share_id: r.share_id,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export const toRevision = (r: RevisionRow, sharedRevision: number | null): Revision => ({
  presentation_id: r.presentation_id,
  revision: Number(r.revision),
  // The columns' CHECKs hold these to the listed values.
  origin: r.origin as RevisionOrigin,
  status: r.status as RevisionStatus,
  slides: (r.slides as unknown as Slide[] | null) ?? null,
  failure_reason: r.failure_reason,
  attempts: Number(r.attempts),
  document_id: r.document_id,
  content_type: r.content_type,
  size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
  sha256: r.sha256,
  shared: sharedRevision !== null && Number(r.revision) === sharedRevision,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  rendered_at: iso(r.rendered_at),
});

export async function insertPresentation(
  trx: Db,
  p: { id: string; project_id: string; title: string; outline: OutlineEntry[]; sources: Source[]; created_by: string },
  now: Date,
): Promise<Presentation> {
  const row = await trx
    .insertInto('presentations')
    .values({
      ...p,
      outline: JSON.stringify(p.outline),
      sources: JSON.stringify(p.sources),
      created_at: now,
      updated_at: now,
    })
    .returning(PRESENTATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toPresentation(row);
}

/** The presentation on this project; `lock` holds its row until the transaction ends (revision numbers). */
export async function findPresentation(
  db: Db,
  projectId: string,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<Presentation | undefined> {
  let q = db
    .selectFrom('presentations')
    .select(PRESENTATION_COLUMNS)
    .where('id', '=', id)
    .where('project_id', '=', projectId);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toPresentation(row) : undefined;
}

export async function listPresentations(
  db: Db,
  projectId: string,
  page: PageRequest,
): Promise<{ items: Presentation[]; total: number }> {
  const q = db.selectFrom('presentations').where('project_id', '=', projectId);
  const rows = await q
    .select(PRESENTATION_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { items: rows.map(toPresentation), total: Number(total?.n ?? 0) };
}

/** Every revision of the presentation, newest first. */
export async function listRevisions(db: Db, p: Presentation): Promise<Revision[]> {
  const rows = await db
    .selectFrom('presentation_revisions')
    .select(REVISION_COLUMNS)
    .where('presentation_id', '=', p.id)
    .orderBy('revision', 'desc')
    .execute();
  return rows.map((r) => toRevision(r, p.shared_revision));
}

export async function findRevision(db: Db, p: Presentation, revision: number): Promise<Revision | undefined> {
  const row = await db
    .selectFrom('presentation_revisions')
    .select(REVISION_COLUMNS)
    .where('presentation_id', '=', p.id)
    .where('revision', '=', revision)
    .executeTakeFirst();
  return row ? toRevision(row, p.shared_revision) : undefined;
}

/** The highest rendered revision (undefined when none rendered). */
export async function latestRendered(db: Db, p: Presentation): Promise<Revision | undefined> {
  const row = await db
    .selectFrom('presentation_revisions')
    .select(REVISION_COLUMNS)
    .where('presentation_id', '=', p.id)
    .where('status', '=', 'rendered')
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRevision(row, p.shared_revision) : undefined;
}

/** What a render produced: the stored file, or why it failed. */
export type RenderOutcome =
  | { status: 'rendered'; document_id: string; content_type: string; size_bytes: number; sha256: string }
  | { status: 'failed'; failure_reason: string };

const outcomeColumns = (o: RenderOutcome, now: Date) =>
  o.status === 'rendered'
    ? {
        status: 'rendered',
        document_id: o.document_id,
        content_type: o.content_type,
        size_bytes: o.size_bytes,
        sha256: o.sha256,
        failure_reason: null,
        rendered_at: now,
      }
    : {
        status: 'failed',
        document_id: null,
        content_type: null,
        size_bytes: null,
        sha256: null,
        failure_reason: o.failure_reason,
        rendered_at: null,
      };

/** Writes revision latest + 1 (under the presentation's row lock) and moves latest_revision to it. */
export async function insertRevision(
  trx: Db,
  p: Presentation,
  r: { origin: RevisionOrigin; slides: Slide[] | null; created_by: string; outcome: RenderOutcome },
  now: Date,
): Promise<Revision> {
  const revision = p.latest_revision + 1;
  const row = await trx
    .insertInto('presentation_revisions')
    .values({
      presentation_id: p.id,
      revision,
      origin: r.origin,
      slides: r.slides === null ? null : JSON.stringify(r.slides),
      created_by: r.created_by,
      created_at: now,
      updated_at: now,
      ...outcomeColumns(r.outcome, now),
    })
    .returning(REVISION_COLUMNS)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('presentations')
    .set({ latest_revision: revision, updated_at: now })
    .where('id', '=', p.id)
    .execute();
  return toRevision(row, p.shared_revision);
}

/** Resume's write: the failed revision's render tried again (its slides, if the model wrote them now). */
export async function rerenderRevision(
  trx: Db,
  p: Presentation,
  revision: number,
  slides: Slide[] | null,
  outcome: RenderOutcome,
  now: Date,
): Promise<Revision> {
  const row = await trx
    .updateTable('presentation_revisions')
    .set((eb) => ({
      ...outcomeColumns(outcome, now),
      slides: slides === null ? null : JSON.stringify(slides),
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('presentation_id', '=', p.id)
    .where('revision', '=', revision)
    .returning(REVISION_COLUMNS)
    .executeTakeFirstOrThrow();
  await trx.updateTable('presentations').set({ updated_at: now }).where('id', '=', p.id).execute();
  return toRevision(row, p.shared_revision);
}

export async function pinShared(
  trx: Db,
  p: Presentation,
  s: { revision: number; shared_by: string; share_id: string },
  now: Date,
): Promise<Presentation> {
  const row = await trx
    .updateTable('presentations')
    .set({ shared_revision: s.revision, shared_by: s.shared_by, share_id: s.share_id, shared_at: now, updated_at: now })
    .where('id', '=', p.id)
    .returning(PRESENTATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toPresentation(row);
}
