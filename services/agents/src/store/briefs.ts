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

type Written = { outcome: 'written'; brief: BriefView } | { outcome: 'kept'; brief: BriefView };

const dayKey = (recipient: string, date: string) => `brief:${recipient}:${date}`;

/**
 * Writes a new revision of a recipient's day, in the transaction given. A published revision
 * supersedes the day's published brief and its draft (AGT-265, AGT-279); a draft supersedes only
 * an earlier draft, so a failed regenerate leaves the published brief readable.
 */
export async function writeRevision(db: Db, r: NewRevision): Promise<Written> {
  return (await writeRevisions(db, [r]))[0] as Written;
}

/**
 * writeRevision for several recipient days (each named once) in the transaction given, in one
 * statement whatever their number (write_brief_revisions, migration 0010: the day locks, the
 * kept briefs, the supersede and the insert): the morning job writes hundreds, and on embedded
 * PGlite each statement's cost, not its rows, is most of a write. Answers in the order given.
 */
export async function writeRevisions(db: Db, rs: readonly NewRevision[]): Promise<Written[]> {
  if (rs.length === 0) return [];
  const keys = rs.map((r) => dayKey(r.recipient, r.date));
  if (new Set(keys).size !== keys.length) throw new Error('a recipient day is named twice in one write');
  const revs = rs.map((r, ord) => ({
    ord,
    id: uuidv7(r.now.getTime()),
    recipient: r.recipient,
    brief_date: r.date,
    text: r.text,
    status: r.status,
    origin: r.origin,
    written_by: r.writtenBy,
    model: r.model,
    failure: r.failure,
    created_at: r.now.toISOString(),
    keep_published: r.keepPublished === true,
  }));
  const answered = await sql<{ write_brief_revisions: { ord: number; kept: boolean; brief: Selectable<Briefs> } }>`
    SELECT write_brief_revisions(${JSON.stringify(revs)}::jsonb)`.execute(db);
  const out: (Written | undefined)[] = rs.map(() => undefined);
  for (const { write_brief_revisions: w } of answered.rows) {
    out[w.ord] = { outcome: w.kept ? 'kept' : 'written', brief: view(w.brief) };
  }
  return out.map((w) => {
    if (!w) throw new Error('a brief revision was neither written nor kept');
    return w;
  });
}

/** Runs writeRevision in a transaction of its own. */
export const writeRevisionAlone = (db: Db, r: NewRevision) => db.transaction().execute((trx) => writeRevision(trx, r));

/** Runs writeRevisions in one transaction of their own (the job's batches). */
export const writeRevisionsAlone = (db: Db, rs: readonly NewRevision[]) =>
  db.transaction().execute((trx) => writeRevisions(trx, rs));

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
