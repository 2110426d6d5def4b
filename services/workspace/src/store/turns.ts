import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { TurnKind } from '../domain/conversations.ts';
import type { Turn } from '../schemas/conversations.ts';
import type { ConversationTurns, Db } from './db.ts';

const TURN_COLUMNS = [
  'conversation_id',
  'seq',
  'turn_kind',
  'author',
  'text',
  'extra',
  'written_by',
  'redacted_at',
  'created_at',
] as const;

export interface TurnRecord extends Turn {
  redacted_at: Date | null;
}

const toTurn = (r: Pick<Selectable<ConversationTurns>, (typeof TURN_COLUMNS)[number]>): TurnRecord => ({
  conversation_id: r.conversation_id,
  seq: Number(r.seq),
  // The column's CHECK holds it to the four kinds.
  turn_kind: r.turn_kind as TurnKind,
  author: r.author,
  text: r.redacted_at === null ? (r.text ?? '') : null,
  redacted: r.redacted_at !== null,
  extra: (r.extra ?? {}) as Record<string, unknown>,
  written_by: r.written_by,
  created_at: isoOrThrow(r.created_at),
  redacted_at: r.redacted_at === null ? null : new Date(isoOrThrow(r.redacted_at)),
});

/** The turn as the API shows it. */
export const turnView = ({ redacted_at: _, ...t }: TurnRecord): Turn => t;

export interface NewTurn {
  conversation_id: string;
  turn_kind: TurnKind;
  author: string;
  text: string;
  extra: Record<string, unknown>;
  written_by: string;
}

/**
 * Appends a turn after the last one (call with the conversation row locked): takes last_seq + 1
 * and moves the conversation's counters (utterances only) and activity time in one statement.
 */
export async function appendTurn(trx: Db, t: NewTurn, utterances: number, now: Date): Promise<TurnRecord> {
  const r = await sql<{ last_seq: number }>`
    UPDATE conversations SET
      last_seq = last_seq + 1,
      utterance_count = utterance_count + ${utterances}::int,
      last_turn_at = ${now},
      last_activity_at = ${now}
    WHERE id = ${t.conversation_id}
    RETURNING last_seq`.execute(trx);
  const seq = Number(r.rows[0]?.last_seq);
  const row = await trx
    .insertInto('conversation_turns')
    .values({ ...t, seq, extra: JSON.stringify(t.extra), created_at: now })
    .returning(TURN_COLUMNS)
    .executeTakeFirstOrThrow();
  return toTurn(row);
}

export async function findTurn(db: Db, conversationId: string, seq: number): Promise<TurnRecord | undefined> {
  const row = await db
    .selectFrom('conversation_turns')
    .select(TURN_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row ? toTurn(row) : undefined;
}

/** One page of turns after `afterSeq`, in seq order: an index range scan of the primary key. */
export async function listTurns(
  db: Db,
  conversationId: string,
  afterSeq: number,
  limit: number,
): Promise<{ items: TurnRecord[]; nextSeq: number | null }> {
  const rows = await db
    .selectFrom('conversation_turns')
    .select(TURN_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit).map(toTurn);
  const last = items.at(-1);
  return { items, nextSeq: rows.length > limit && last ? last.seq : null };
}

/**
 * Destroys a turn's text (the one change the table allows). Stored command results that echo
 * the turn (the replay of its append) lose the text too, so no replay brings it back.
 */
export async function destroyTurnText(trx: Db, conversationId: string, seq: number, now: Date): Promise<void> {
  await trx
    .updateTable('conversation_turns')
    .set({ text: null, redacted_at: now })
    .where('conversation_id', '=', conversationId)
    .where('seq', '=', seq)
    .execute();
  await sql`
    UPDATE idempotency_keys
    SET response = jsonb_set(jsonb_set(response::jsonb, '{text}', 'null'::jsonb), '{redacted}', 'true'::jsonb)
    WHERE method = 'POST'
      AND jsonb_typeof(response::jsonb) = 'object'
      AND response::jsonb ->> 'conversation_id' = ${conversationId}
      AND response::jsonb ->> 'seq' = ${String(seq)}
      AND response::jsonb ? 'text'`.execute(trx);
}

/** The latest `n` utterances with their text (redacted ones left out), oldest first. */
export async function recentUtterances(
  db: Db,
  conversationId: string,
  n: number,
): Promise<{ seq: number; author: string; text: string }[]> {
  const rows = await db
    .selectFrom('conversation_turns')
    .select(['seq', 'author', 'text'])
    .where('conversation_id', '=', conversationId)
    .where('turn_kind', '=', 'utterance')
    .where('redacted_at', 'is', null)
    .orderBy('seq', 'desc')
    .limit(n)
    .execute();
  return rows.reverse().map((r) => ({ seq: Number(r.seq), author: r.author, text: r.text ?? '' }));
}
