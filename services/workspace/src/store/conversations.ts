import { isoOrThrow, type PageRequest, uuidv7 } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type {
  AttachedDocument,
  ConversationRecord,
  ConversationStatus,
  SuggestionDecision,
} from '../domain/conversations.ts';
import type { Conversation, ConversationFile } from '../schemas/conversations.ts';
import type { ConversationFiles, Conversations, Db } from './db.ts';

export const CONVERSATION_COLUMNS = [
  'id',
  'project_id',
  'title',
  'status',
  'contributes_to_knowledge',
  'created_by',
  'last_seq',
  'utterance_count',
  'last_turn_at',
  'created_at',
  'updated_at',
] as const;

const instant = (v: unknown): Date => new Date(isoOrThrow(v as Date | string));

export const toConversationRecord = (
  r: Pick<Selectable<Conversations>, (typeof CONVERSATION_COLUMNS)[number]>,
): ConversationRecord => ({
  id: r.id,
  project_id: r.project_id ?? null,
  title: r.title,
  // The column's CHECK holds it to active or archived.
  status: r.status as ConversationStatus,
  contributes_to_knowledge: Boolean(r.contributes_to_knowledge),
  created_by: r.created_by,
  last_seq: Number(r.last_seq),
  utterance_count: Number(r.utterance_count),
  last_turn_at: r.last_turn_at === null ? null : instant(r.last_turn_at),
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
});

/** A conversation as the API shows it: project_id absent until filed; both counts count utterances. */
export const conversationView = (c: ConversationRecord): Conversation => ({
  id: c.id,
  ...(c.project_id === null ? {} : { project_id: c.project_id }),
  title: c.title,
  status: c.status,
  contributes_to_knowledge: c.contributes_to_knowledge,
  created_by: c.created_by,
  turn_count: c.utterance_count,
  utterance_count: c.utterance_count,
  last_seq: c.last_seq,
  last_turn_at: c.last_turn_at?.toISOString() ?? null,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

export async function findConversation(
  db: Db,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<ConversationRecord | undefined> {
  let q = db.selectFrom('conversations').select(CONVERSATION_COLUMNS).where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toConversationRecord(row) : undefined;
}

export interface NewConversation {
  id: string;
  project_id: string | null;
  title: string;
  contributes_to_knowledge: boolean;
  created_by: string;
}

export async function insertConversation(trx: Db, c: NewConversation, now: Date): Promise<ConversationRecord> {
  const row = await trx
    .insertInto('conversations')
    .values({ ...c, status: 'active', last_activity_at: now, created_at: now, updated_at: now })
    .returning(CONVERSATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toConversationRecord(row);
}

export async function updateConversation(
  trx: Db,
  id: string,
  set: { title?: string; status?: ConversationStatus; contributes_to_knowledge?: boolean; project_id?: string },
  now: Date,
): Promise<ConversationRecord> {
  const row = await trx
    .updateTable('conversations')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .returning(CONVERSATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toConversationRecord(row);
}

/** Reparents a conversation's files with it (a move or an accepted suggestion). */
export async function moveFiles(trx: Db, conversationId: string, projectId: string): Promise<number> {
  const r = await trx
    .updateTable('conversation_files')
    .set({ project_id: projectId })
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export interface ConversationListFilter {
  /** Filed on this project. */
  projectId?: string;
  /** Conversations the caller may read: those they started unfiled, plus filed on these projects (or every filed one). */
  reader?: { principalId: string; projects: 'all' | 'members' };
  status?: ConversationStatus;
  filed?: boolean;
}

/** A page of conversations, most recently active first, and how many match. */
export async function listConversations(
  db: Db,
  f: ConversationListFilter,
  page: PageRequest,
): Promise<{ items: ConversationRecord[]; total: number }> {
  let q = db.selectFrom('conversations as c');
  if (f.projectId !== undefined) q = q.where('c.project_id', '=', f.projectId);
  if (f.status !== undefined) q = q.where('c.status', '=', f.status);
  if (f.filed === true) q = q.where('c.project_id', 'is not', null);
  if (f.filed === false) q = q.where('c.project_id', 'is', null);
  const reader = f.reader;
  if (reader) {
    q = q.where((eb) =>
      eb.or([
        eb.and([eb('c.project_id', 'is', null), eb('c.created_by', '=', reader.principalId)]),
        reader.projects === 'all'
          ? eb('c.project_id', 'is not', null)
          : eb(
              'c.project_id',
              'in',
              eb
                .selectFrom('project_members')
                .select('project_members.project_id')
                .where('project_members.principal_id', '=', reader.principalId),
            ),
      ]),
    );
  }
  const rows = await q
    .select(CONVERSATION_COLUMNS.map((c) => `c.${c}` as const))
    .orderBy('c.last_activity_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { items: rows.map(toConversationRecord), total: Number(total?.n ?? 0) };
}

const FILE_COLUMNS = [
  'id',
  'conversation_id',
  'project_id',
  'document_id',
  'filename',
  'content_type',
  'size_bytes',
  'turn_seq',
  'saved_by',
  'created_at',
] as const;

const toFile = (r: Pick<Selectable<ConversationFiles>, (typeof FILE_COLUMNS)[number]>): ConversationFile => ({
  id: r.id,
  conversation_id: r.conversation_id,
  ...(r.project_id === null ? {} : { project_id: r.project_id }),
  document_id: r.document_id,
  filename: r.filename,
  content_type: r.content_type ?? null,
  size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
  turn_seq: r.turn_seq === null ? null : Number(r.turn_seq),
  saved_by: r.saved_by,
  created_at: isoOrThrow(r.created_at),
});

/** Attaches a document to a conversation (once per document: a second attach keeps the first row). */
export async function attachFile(
  trx: Db,
  c: { conversation_id: string; project_id: string | null; turn_seq: number | null; saved_by: string },
  doc: AttachedDocument,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('conversation_files')
    .values({ id: uuidv7(now.getTime()), ...c, ...doc, created_at: now })
    .onConflict((oc) => oc.columns(['conversation_id', 'document_id']).doNothing())
    .execute();
}

/** A page of a conversation's files, oldest first, and how many there are. */
export async function listFiles(
  db: Db,
  conversationId: string,
  page: PageRequest,
): Promise<{ items: ConversationFile[]; total: number }> {
  const rows = await db
    .selectFrom('conversation_files')
    .select(FILE_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .orderBy('created_at')
    // Within one instant, in turn order (files no turn attached last), then by id.
    .orderBy(sql`turn_seq NULLS LAST`)
    .orderBy('id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM conversation_files WHERE conversation_id = ${conversationId}`.execute(db);
  return { items: rows.map(toFile), total: Number(total.rows[0]?.n ?? 0) };
}

/** Records how the caller settled a suggested project (the latest decision wins). */
export async function resolveSuggestion(
  trx: Db,
  r: { conversation_id: string; project_id: string; decision: SuggestionDecision; resolved_by: string },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('conversation_suggestion_resolutions')
    .values({ ...r, resolved_at: now })
    .onConflict((oc) =>
      oc
        .columns(['conversation_id', 'project_id'])
        .doUpdateSet({ decision: r.decision, resolved_by: r.resolved_by, resolved_at: now }),
    )
    .execute();
}

/** Projects already settled for a conversation: never suggested again. */
export async function resolvedProjects(db: Db, conversationId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('conversation_suggestion_resolutions')
    .select('project_id')
    .where('conversation_id', '=', conversationId)
    .execute();
  return new Set(rows.map((r) => r.project_id));
}

/** Active projects where the caller is an editor or owner: where they may file a conversation. */
export async function fileableProjects(db: Db, principalId: string, limit: number) {
  return db
    .selectFrom('projects as p')
    .innerJoin('project_members as m', 'm.project_id', 'p.id')
    .select(['p.id', 'p.name', 'p.description'])
    .where('m.principal_id', '=', principalId)
    .where('m.role', 'in', ['editor', 'owner'])
    .where('p.status', '=', 'active')
    .orderBy('p.name')
    .limit(limit)
    .execute();
}

/** Counts from the tables over [from, to): conversations created, with a turn, either; turns and utterances. */
export async function conversationUsage(db: Db, from: Date, to: Date) {
  const r = await sql<{
    created: number;
    with_turns: number;
    conversations: number;
    turns: number;
    utterances: number;
  }>`
    WITH created AS (
      SELECT id FROM conversations WHERE created_at >= ${from} AND created_at < ${to}
    ), turned AS (
      SELECT conversation_id, count(*)::int AS turns,
             count(*) FILTER (WHERE turn_kind = 'utterance')::int AS utterances
      FROM conversation_turns WHERE created_at >= ${from} AND created_at < ${to}
      GROUP BY conversation_id
    )
    SELECT (SELECT count(*)::int FROM created) AS created,
           (SELECT count(*)::int FROM turned) AS with_turns,
           (SELECT count(*)::int FROM (SELECT id FROM created UNION SELECT conversation_id FROM turned) u) AS conversations,
           (SELECT coalesce(sum(turns), 0)::int FROM turned) AS turns,
           (SELECT coalesce(sum(utterances), 0)::int FROM turned) AS utterances`.execute(db);
  const row = r.rows[0];
  return {
    created: Number(row?.created ?? 0),
    with_turns: Number(row?.with_turns ?? 0),
    conversations: Number(row?.conversations ?? 0),
    turns: Number(row?.turns ?? 0),
    utterances: Number(row?.utterances ?? 0),
  };
}
