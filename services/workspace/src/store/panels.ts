import { isoOrThrow, uuidv7 } from '@platform/kit';
import { sql } from 'kysely';
import { isAssistantTurn, type Rating, type RelatedAction, raisedIn } from '../domain/panels.ts';
import type { Db } from './db.ts';

/** Every claim id raised in the conversation: extra.raised_objections of its assistant turns. */
export async function raisedClaims(db: Db, conversationId: string): Promise<Set<string>> {
  const rows = await sql<{ author: string; raised: unknown }>`
    SELECT author, extra->'raised_objections' AS raised FROM conversation_turns
    WHERE conversation_id = ${conversationId} AND author LIKE 'agent:%' AND extra ? 'raised_objections'`.execute(db);
  const ids = new Set<string>();
  for (const r of rows.rows) {
    if (!isAssistantTurn(r.author)) continue;
    for (const id of raisedIn({ raised_objections: r.raised })) ids.add(id);
  }
  return ids;
}

/** The principal ids of the project's members. */
export async function memberIds(db: Db, projectId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('project_members')
    .select('principal_id')
    .where('project_id', '=', projectId)
    .execute();
  return rows.map((r) => r.principal_id);
}

/** A person's rating of a raised claim; a later rating replaces theirs. */
export async function rateClaim(
  trx: Db,
  r: { conversation_id: string; claim_id: string; rated_by: string; rating: Rating },
  now: Date,
) {
  const row = await trx
    .insertInto('objection_feedback')
    .values({ ...r, rated_at: now })
    .onConflict((oc) =>
      oc.columns(['conversation_id', 'claim_id', 'rated_by']).doUpdateSet({ rating: r.rating, rated_at: now }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...r, rated_at: isoOrThrow(row.rated_at) };
}

/** One action on an item of the related panel. */
export async function recordRelatedAction(
  trx: Db,
  a: { conversation_id: string; turn_seq: number; item_id: string; action: RelatedAction; actor: string },
  now: Date,
) {
  const row = await trx
    .insertInto('related_actions')
    .values({ id: uuidv7(now.getTime()), ...a, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { id: row.id, ...a, created_at: isoOrThrow(row.created_at) };
}
