import { uuidv7 } from '@platform/kit';
import type { Db } from './db.ts';

/** The chat-sync worker's SQL: its cursor (evidence_slack_sync_cursor, migration 0016) and the evidence it writes. */

export interface SyncCursor {
  channel_id: string;
  channel_name: string;
  latest_ts: string | null;
  page_cursor: string | null;
  page_oldest: string | null;
  page_newest_ts: string | null;
  joined_at: Date | null;
  last_run_at: Date;
}

export async function syncCursors(db: Db, channelIds: string[]): Promise<Map<string, SyncCursor>> {
  if (channelIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('evidence_slack_sync_cursor')
    .select([
      'channel_id',
      'channel_name',
      'latest_ts',
      'page_cursor',
      'page_oldest',
      'page_newest_ts',
      'joined_at',
      'last_run_at',
    ])
    .where('channel_id', 'in', channelIds)
    .execute();
  return new Map(
    rows.map((r) => [
      r.channel_id,
      {
        ...r,
        joined_at: r.joined_at === null ? null : new Date(r.joined_at),
        last_run_at: new Date(r.last_run_at),
      },
    ]),
  );
}

/** Writes a channel's cursor as it stands after a page (insert or update). */
export async function saveSyncCursor(
  db: Db,
  c: Omit<SyncCursor, 'last_run_at' | 'joined_at'> & { joined_at?: Date | null },
  now: Date,
): Promise<void> {
  const values = {
    channel_id: c.channel_id,
    channel_name: c.channel_name,
    latest_ts: c.latest_ts,
    page_cursor: c.page_cursor,
    page_oldest: c.page_oldest,
    page_newest_ts: c.page_newest_ts,
    last_run_at: now,
    updated_at: now,
    ...(c.joined_at !== undefined ? { joined_at: c.joined_at } : {}),
  };
  const { channel_id: _id, ...update } = values;
  await db
    .insertInto('evidence_slack_sync_cursor')
    .values(values)
    .onConflict((o) => o.column('channel_id').doUpdateSet(update))
    .execute();
}

export interface ChatEvidence {
  externalRef: string;
  author: string;
  title: string;
  body: string;
  /** When the message was written (from its ts). */
  at: Date;
}

/**
 * Stores messages as evidence (kind chat, source slack), one row per message; a message already
 * stored (the same external_ref) is left as it is. Returns how many were new.
 */
export async function insertChatEvidence(db: Db, rows: ChatEvidence[], now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insertInto('evidence')
    .values(
      rows.map((r) => ({
        id: uuidv7(r.at.getTime()),
        kind: 'chat',
        source: 'slack',
        external_ref: r.externalRef,
        author: r.author,
        title: r.title,
        body: r.body,
        created_at: r.at,
        updated_at: now,
      })),
    )
    .onConflict((o) => o.column('external_ref').where('external_ref', 'is not', null).doNothing())
    .returning('id')
    .execute();
  return inserted.length;
}
