import { conflict, notFound, unprocessable, uuidv7 } from '@platform/kit';
import { checkActive, notConfigured, openMonth } from '../domain/calendar.ts';
import {
  BILLING_PRINCIPAL,
  checkEditable,
  checkLines,
  checkMayReverse,
  checkPaymentId,
  isCharge,
  PAYMENTS_PRINCIPAL,
} from '../domain/journal.ts';
import { localDate } from '../domain/months.ts';
import { checkBalanced, choosePostMonth } from '../domain/posting.ts';
import type { DraftInput, EntryInput, LineInput } from '../schemas/journal.ts';
import { accountRefs } from '../store/accounts.ts';
import { findCalendar } from '../store/calendar.ts';
import type { Db } from '../store/db.ts';
import { findEntity } from '../store/entities.ts';
import { insertEntry, loadEntry, markPosted, replaceDraft, reversedAmong } from '../store/journal.ts';
import { lockEntityOfEntry, lockEntitySharedReturning } from '../store/locks.ts';
import { loadForPosting } from '../store/posting.ts';
import type { CommandCtx } from './context.ts';

async function checkEntryLines(trx: Db, chartCode: string, lines: readonly LineInput[], madeByBilling: boolean) {
  const accounts = await accountRefs(
    trx,
    lines.map((l) => l.account_id),
  );
  checkLines(lines, accounts, chartCode, madeByBilling);
}

/** Locks the entity (shared) and then the entry row; 404 for an unknown entry. */
async function lockEntry(trx: Db, id: string) {
  const entityId = await lockEntityOfEntry(trx, id, true);
  if (!entityId) throw notFound('Journal entry', 'journal_entry_not_found');
  const entry = await loadEntry(trx, id);
  if (!entry) throw notFound('Journal entry', 'journal_entry_not_found');
  return entry;
}

/** Entries created by a person are manual; by a service (billing, payments), generated. */
export async function createEntry({ trx, principal, now }: CommandCtx, input: EntryInput) {
  checkPaymentId(input.payment_id, principal.id === PAYMENTS_PRINCIPAL);
  const entity = await lockEntitySharedReturning(
    trx,
    input.legal_entity_id,
    input.lines.map((l) => l.account_id),
  );
  if (!entity) throw unprocessable('legal_entity_not_found', 'No such legal entity', 'data/legal_entity_id');
  checkActive(entity);
  checkLines(input.lines, entity.accounts, entity.chart_code, principal.id === BILLING_PRINCIPAL);
  return insertEntry(
    trx,
    {
      id: uuidv7(now.getTime()),
      legal_entity_id: entity.id,
      description: input.description,
      transaction_date: input.transaction_date,
      source: principal.kind === 'person' ? 'manual' : 'generated',
      payment_id: input.payment_id ?? null,
      reversal_of: null,
      created_by: principal.id,
    },
    input.lines,
    now,
  );
}

export async function editDraft({ trx, now, emit }: CommandCtx, id: string, input: DraftInput) {
  const entry = await lockEntry(trx, id);
  checkEditable(entry);
  if (input.legal_entity_id !== undefined && input.legal_entity_id !== entry.legal_entity_id) {
    throw unprocessable('legal_entity_immutable', 'The legal entity of an entry cannot change', 'data/legal_entity_id');
  }
  const entity = await findEntity(trx, entry.legal_entity_id);
  await checkEntryLines(trx, entity?.chart_code ?? '', input.lines, false);
  await replaceDraft(
    trx,
    id,
    { description: input.description, transaction_date: input.transaction_date },
    input.lines,
    now,
  );
  const updated = (await loadEntry(trx, id)) as NonNullable<Awaited<ReturnType<typeof loadEntry>>>;
  await emit({ type: 'journal_entry.draft_updated', data: { entry: updated } });
  return updated;
}

export async function postEntry({ trx, principal, now }: CommandCtx, id: string, requestedMonth?: string) {
  if (!(await lockEntityOfEntry(trx, id, true))) throw notFound('Journal entry', 'journal_entry_not_found');
  const state = await loadForPosting(trx, id);
  if (!state) throw notFound('Journal entry', 'journal_entry_not_found');
  const { entry, calendar } = state;
  if (entry.status !== 'draft') throw conflict('entry_already_posted', 'The entry is already posted');
  if (!calendar) throw notConfigured();
  checkBalanced(entry.lines);
  // Accounts may have stopped being postable since the draft was written. Billing references
  // were checked when the lines were written, so they are not re-judged here.
  checkLines(entry.lines, state.accounts, state.chart_code, true);
  const month = choosePostMonth({
    principal,
    requested: requestedMonth,
    open: openMonth(calendar, now),
    booksStart: calendar.books_start_month,
    closed: new Set(state.closed),
    isCharge: isCharge(entry),
  });
  await markPosted(trx, id, month, principal.id, now);
  return { ...entry, status: 'posted' as const, post_month: month, posted_at: now.toISOString() };
}

/**
 * A reversal is a new draft with the original's lines, debits and credits swapped; the original
 * stays posted and unchanged. Its date is entry_date, or else the entity-local date. Its source
 * follows the caller's kind, which is billing's for any entry with billing references.
 */
export async function reverseEntry({ trx, principal, now }: CommandCtx, id: string, entryDate?: string) {
  const original = await lockEntry(trx, id);
  if (original.status !== 'posted') throw conflict('entry_not_posted', 'Only a posted entry can be reversed');
  if ((await reversedAmong(trx, [id])).size > 0)
    throw conflict('entry_already_reversed', 'The entry already has a reversal');
  checkMayReverse(original, principal.id === BILLING_PRINCIPAL);
  let date = entryDate;
  if (date === undefined) {
    const calendar = await findCalendar(trx, original.legal_entity_id);
    if (!calendar) throw notConfigured();
    date = localDate(now, calendar.timezone);
  }
  return insertEntry(
    trx,
    {
      id: uuidv7(now.getTime()),
      legal_entity_id: original.legal_entity_id,
      description: `Reversal of ${original.description}`.slice(0, 1000),
      transaction_date: date,
      source: principal.kind === 'person' ? 'manual' : 'generated',
      payment_id: null,
      reversal_of: original.id,
      created_by: principal.id,
    },
    original.lines.map(({ id: _id, line_no: _no, direction, ...rest }) => ({
      ...rest,
      direction: direction === 'debit' ? 'credit' : 'debit',
    })),
    now,
  );
}
