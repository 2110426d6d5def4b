import { isoOrThrow } from '@platform/kit';
import { sql } from 'kysely';
import { yearMonthParts } from '../domain/months.ts';
import type { PeriodRecord } from '../schemas/periods.ts';
import type { Db } from './db.ts';

export async function closeMonth(trx: Db, entityId: string, month: string, actor: string, reason: string, now: Date) {
  await trx
    .insertInto('period_closures')
    .values({ legal_entity_id: entityId, month, closed_by: actor, closed_at: now })
    .execute();
  await trx
    .insertInto('period_history')
    .values({
      legal_entity_id: entityId,
      event_type: 'close',
      ...yearMonthParts(month),
      actor_fid: actor,
      reason,
      occurred_at: now,
    })
    .execute();
}

/** Reopens the months (one history record each), newest month first. */
export async function reopenMonths(
  trx: Db,
  entityId: string,
  months: string[],
  actor: string,
  reason: string,
  now: Date,
) {
  await trx
    .deleteFrom('period_closures')
    .where('legal_entity_id', '=', entityId)
    .where('month', 'in', months)
    .execute();
  await trx
    .insertInto('period_history')
    .values(
      months.map((m) => ({
        legal_entity_id: entityId,
        event_type: 'reopen',
        ...yearMonthParts(m),
        actor_fid: actor,
        reason,
        occurred_at: now,
      })),
    )
    .execute();
}

/** Newest first; ties (one reopen of several months) keep insertion order reversed. */
export async function history(db: Db, entityId: string, page: number, pageSize: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('period_history')
      .select(['event_type', 'year', 'month', 'occurred_at', 'actor_fid', 'reason'])
      .where('legal_entity_id', '=', entityId)
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM period_history WHERE legal_entity_id = ${entityId}`.execute(db),
  ]);
  const items: PeriodRecord[] = rows.map((r) => ({
    // The table's CHECK holds it to the schema's values.
    event_type: r.event_type as PeriodRecord['event_type'],
    year: r.year,
    month: r.month,
    occurred_at: isoOrThrow(r.occurred_at),
    actor_fid: r.actor_fid,
    reason: r.reason,
  }));
  return { items, total: count.rows[0]?.n ?? 0 };
}
