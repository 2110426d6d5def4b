import { notFound, type Principal } from '@platform/kit';
import { closedKey, type DeletableEntry, deletionRefusals } from '../domain/deletion.ts';
import { monthOf } from '../domain/months.ts';
import type { Entry } from '../schemas/journal.ts';
import { closedMonths } from '../store/calendar.ts';
import type { Db } from '../store/db.ts';
import { insertSnapshots } from '../store/deletions.ts';
import { deleteEntries, loadEntries, reversedAmong } from '../store/journal.ts';
import { lockEntityOfEntry } from '../store/locks.ts';
import type { CommandCtx, WhyValue } from './context.ts';

const deletable = (e: Entry): DeletableEntry => ({
  ...e,
  reporting_month: e.post_month ?? monthOf(e.transaction_date),
});

/** Loads the path entry and the related entries and evaluates every deletion rule. */
async function evaluate(db: Db, principal: Principal, id: string, relatedIds: readonly string[], lock: boolean) {
  const related = [...new Set(relatedIds)].filter((r) => r !== id);
  const entries = await loadEntries(db, [id, ...related], lock);
  const entry = entries.find((e) => e.id === id);
  if (!entry) throw notFound('Journal entry', 'journal_entry_not_found');
  const others = entries.filter((e) => e.id !== id);
  const entityIds = [...new Set(entries.map((e) => e.legal_entity_id))];
  const closed = new Set<string>();
  for (const eid of entityIds) for (const m of await closedMonths(db, eid)) closed.add(closedKey(eid, m));
  const refusals = deletionRefusals({
    principal,
    entry: deletable(entry),
    relatedIds: related,
    related: others.map(deletable),
    reversed: await reversedAmong(
      db,
      entries.map((e) => e.id),
    ),
    closed,
  });
  return { entries, refusals };
}

export async function deletionCheck(db: Db, principal: Principal, id: string, relatedIds: readonly string[]) {
  const { refusals } = await evaluate(db, principal, id, relatedIds, false);
  return {
    allowed: refusals.length === 0,
    refusals: refusals.map((r) => ({ code: r.code, message: r.message })),
  };
}

/**
 * Removes the entry and its related entries in one transaction after re-checking every rule
 * under the entity lock; a snapshot of each is kept and journal_entry.deleted goes out per entry:
 * a slim version on the public subject, the reason and snapshot only on the restricted one.
 */
export async function deleteEntry(
  { trx, principal, now, emit }: CommandCtx,
  id: string,
  input: { reason: string; related_entry_ids?: string[] },
  why?: WhyValue,
) {
  const entityId = await lockEntityOfEntry(trx, id);
  if (!entityId) throw notFound('Journal entry', 'journal_entry_not_found');
  const { entries, refusals } = await evaluate(trx, principal, id, input.related_entry_ids ?? [], true);
  if (refusals.length) throw refusals[0];
  const ids = entries.map((e) => e.id);
  await insertSnapshots(trx, entries, { reason: input.reason, why, deleted_by: principal.id, deleted_at: now });
  await deleteEntries(trx, ids);
  const deletedAt = now.toISOString();
  // One event per entry: the slim data on the public subject, the reason and snapshot
  // (personal data) on the restricted one (the catalogue declares both).
  await emit(
    entries.map((e) => ({
      type: 'journal_entry.deleted' as const,
      data: {
        entry_id: e.id,
        legal_entity_id: e.legal_entity_id,
        payment_id: e.payment_id,
        deleted_at: deletedAt,
        actor_fid: principal.id,
        why_code: why?.code ?? null,
      },
      personal: {
        entry_id: e.id,
        legal_entity_id: e.legal_entity_id,
        payment_id: e.payment_id,
        lines: e.lines,
        reason: input.reason,
        deleted_at: deletedAt,
        actor_fid: principal.id,
        why: why ?? null,
        snapshot: e,
      },
    })),
  );
  return { deleted_entry_ids: ids, deleted_at: deletedAt };
}
