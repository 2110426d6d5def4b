import { isoOrThrow, uuidv7 } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import { type BriefFeedbackKind, type BriefStatus, normalizePassage } from '../domain/briefs.ts';
import type { Briefs, Db } from './db.ts';

/** All SQL of daily briefs: revisions per recipient and day, and feedback on them. */

/** A brief as the routes answer it. */
export interface BriefView {
  id: string;
  recipient: string;
  date: string;
  text: string;
  status: BriefStatus;
  revision: number;
  origin: 'job' | 'pasted';
  created_at: string;
}

const view = (r: Selectable<Briefs>): BriefView => ({
  id: r.id,
  recipient: r.recipient,
  date: r.brief_date,
  text: r.text,
  // The CHECKs hold status and origin to these values.
  status: r.status as BriefStatus,
  revision: r.revision,
  origin: r.origin as BriefView['origin'],
  created_at: new Date(isoOrThrow(r.created_at)).toISOString(),
});

/**
 * Serializes every write of one recipient's day (the job, a paste, a retried draft), so revisions
 * are numbered once and a concurrent paste and job never both stay published.
 */
async function lockDay(trx: Db, recipient: string, date: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`brief:${recipient}:${date}`}))`.execute(trx);
}

/** The day's published brief, if any (the job keeps it unless regenerate: AGT-278). */
export async function publishedBrief(db: Db, recipient: string, date: string): Promise<BriefView | undefined> {
  const r = await db
    .selectFrom('briefs')
    .selectAll()
    .where('recipient', '=', recipient)
    .where('brief_date', '=', date)
    .where('status', '=', 'published')
    .executeTakeFirst();
  return r && view(r);
}

export interface NewRevision {
  recipient: string;
  date: string;
  text: string;
  status: 'published' | 'draft';
  origin: 'job' | 'pasted';
  writtenBy: string;
  model: string | null;
  failure: string | null;
  now: Date;
  /** The job without regenerate: a brief published meanwhile (a paste) is kept, nothing written. */
  keepPublished?: boolean;
}

/**
 * Writes a new revision of a recipient's day, in its own transaction unless given one. A published
 * revision supersedes the day's published brief and its draft (AGT-265, AGT-279); a draft
 * supersedes only an earlier draft, so a failed regenerate leaves the published brief readable.
 */
export async function writeRevision(
  db: Db,
  r: NewRevision,
): Promise<{ outcome: 'written'; brief: BriefView } | { outcome: 'kept'; brief: BriefView }> {
  const work = async (trx: Db) => {
    await lockDay(trx, r.recipient, r.date);
    // Every revision of the day in one read: the live ones and the last number.
    const day = await trx
      .selectFrom('briefs')
      .selectAll()
      .where('recipient', '=', r.recipient)
      .where('brief_date', '=', r.date)
      .execute();
    const live = day.filter((b) => b.status !== 'superseded');
    const published = live.find((b) => b.status === 'published');
    if (r.keepPublished && published) return { outcome: 'kept' as const, brief: view(published) };
    const lastRevision = day.reduce((n, b) => Math.max(n, b.revision), 0);
    const id = uuidv7(r.now.getTime());
    const replaced = live.filter((b) => r.status === 'published' || b.status === 'draft').map((b) => b.id);
    // The replaced rows leave the partial unique indexes before the new one enters them.
    if (replaced.length > 0) {
      await trx
        .updateTable('briefs')
        .set({ status: 'superseded', superseded_by: id, superseded_at: r.now })
        .where('id', 'in', replaced)
        .execute();
    }
    // superseded_by names the row inserted next: the reference is checked at commit (DEFERRABLE).
    const row = await trx
      .insertInto('briefs')
      .values({
        id,
        recipient: r.recipient,
        brief_date: r.date,
        revision: lastRevision + 1,
        text: r.text,
        status: r.status,
        origin: r.origin,
        written_by: r.writtenBy,
        model: r.model,
        failure: r.failure,
        created_at: r.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { outcome: 'written' as const, brief: view(row) };
  };
  return work(db);
}

/** Runs writeRevision in a transaction of its own (the job: one per recipient). */
export const writeRevisionAlone = (db: Db, r: NewRevision) => db.transaction().execute((trx) => writeRevision(trx, r));

/**
 * The brief a reader sees for one recipient and day: the published one; with drafts, the newest of
 * the published one and a draft written after it.
 */
export async function briefOf(
  db: Db,
  recipient: string,
  date: string,
  drafts: boolean,
): Promise<BriefView | undefined> {
  const r = await db
    .selectFrom('briefs')
    .selectAll()
    .where('recipient', '=', recipient)
    .where('brief_date', '=', date)
    .where('status', 'in', drafts ? ['published', 'draft'] : ['published'])
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r && view(r);
}

/** Every recipient's brief for the day (as briefOf reads each), by recipient. */
export async function briefsOfDay(db: Db, date: string, drafts: boolean): Promise<BriefView[]> {
  const rows = await db
    .selectFrom('briefs')
    .selectAll()
    .where('brief_date', '=', date)
    .where('status', 'in', drafts ? ['published', 'draft'] : ['published'])
    .orderBy('recipient')
    .orderBy('revision', 'desc')
    .execute();
  const seen = new Set<string>();
  const out: BriefView[] = [];
  for (const r of rows) {
    if (seen.has(r.recipient)) continue;
    seen.add(r.recipient);
    out.push(view(r));
  }
  return out;
}

export async function findBrief(db: Db, id: string): Promise<BriefView | undefined> {
  const r = await db.selectFrom('briefs').selectAll().where('id', '=', id).executeTakeFirst();
  return r && view(r);
}

export interface FeedbackView {
  id: string;
  brief_id: string;
  kind: BriefFeedbackKind;
  note: string | null;
  created_at: string;
}

export async function insertFeedback(
  trx: Db,
  f: { briefId: string; kind: BriefFeedbackKind; note: string | null; givenBy: string; now: Date },
): Promise<FeedbackView> {
  const row = await trx
    .insertInto('brief_feedback')
    .values({
      id: uuidv7(f.now.getTime()),
      brief_id: f.briefId,
      kind: f.kind,
      note: f.note,
      given_by: f.givenBy,
      created_at: f.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    brief_id: row.brief_id,
    kind: row.kind as BriefFeedbackKind,
    note: row.note,
    created_at: new Date(isoOrThrow(row.created_at)).toISOString(),
  };
}

/** Whether one of the recipient's published briefs holds the passage (whitespace runs compared as one space). */
export async function holdsPassage(db: Db, recipient: string, passage: string): Promise<boolean> {
  const needle = normalizePassage(passage);
  if (needle.length === 0) return false;
  const r = await db
    .selectFrom('briefs')
    .select('id')
    .where('recipient', '=', recipient)
    .where('status', '=', 'published')
    .where(sql<boolean>`strpos(btrim(regexp_replace(text, '\\s+', ' ', 'g')), ${needle}) > 0`)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}
