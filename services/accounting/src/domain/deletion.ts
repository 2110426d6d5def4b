import { AppError, conflict, forbidden, type Principal, unprocessable } from '@platform/kit';
import { hasBillingDocument, PAYMENTS_PRINCIPAL } from './journal.ts';

export interface DeletableEntry {
  id: string;
  legal_entity_id: string;
  status: 'draft' | 'posted';
  payment_id: string | null;
  reversal_of: string | null;
  /** The month the entry counts in: post_month, or its entry date's month for legacy rows. */
  reporting_month: string;
  lines: readonly { invoice_id?: string; charge_id?: string }[];
}

export interface DeletionFacts {
  principal: Principal;
  entry: DeletableEntry;
  relatedIds: readonly string[];
  /** The related entries that exist. */
  related: readonly DeletableEntry[];
  /** Ids among the supplied entries that have a reversal. */
  reversed: ReadonlySet<string>;
  /** Hard-closed months, keyed `${legal_entity_id}:${month}` (see closedKey). */
  closed: ReadonlySet<string>;
}

export const closedKey = (entityId: string, month: string) => `${entityId}:${month}`;

/**
 * The deletion rules, in the order a refusal is reported. DELETE refuses on the first; the
 * deletion-check lists them all. Only hard-closed periods block (DECISIONS item 1).
 */
export function deletionRefusals(f: DeletionFacts): AppError[] {
  const out: AppError[] = [];
  const all = [f.entry, ...f.related];
  if (all.some(hasBillingDocument)) {
    out.push(
      conflict('billing_document_entry', 'Entries whose lines reference an invoice or charge cannot be deleted here'),
    );
  }
  if (f.relatedIds.length > 0 && !f.entry.payment_id) {
    out.push(
      unprocessable('unlinked_entries_not_groupable', 'Entries without a payment_id cannot be deleted as a group'),
    );
  }
  const found = new Set(f.related.map((r) => r.id));
  const missing = f.relatedIds.filter((id) => !found.has(id));
  if (missing.length) {
    out.push(new AppError(422, 'related_entry_not_found', `Related entries not found: ${missing.join(', ')}`));
  }
  if (f.entry.payment_id) {
    const mismatched = f.related.filter(
      (r) => r.payment_id !== f.entry.payment_id || r.legal_entity_id !== f.entry.legal_entity_id,
    );
    if (mismatched.length) {
      out.push(
        unprocessable(
          'related_entry_mismatch',
          `Related entries must share the payment_id and legal entity: ${mismatched.map((r) => r.id).join(', ')}`,
        ),
      );
    }
  }
  if (all.some((e) => e.payment_id) && f.principal.id !== PAYMENTS_PRINCIPAL) {
    out.push(
      forbidden(
        'Payment-linked entries can be deleted only by the Payments service; delete the source payment instead',
        'payment_linked_entry',
      ),
    );
  }
  if (all.some((e) => e.reversal_of)) out.push(conflict('entry_is_reversal', 'A reversal entry cannot be deleted'));
  if (all.some((e) => f.reversed.has(e.id))) {
    out.push(conflict('entry_has_reversal', 'An entry that has a reversal cannot be deleted'));
  }
  const inClosed = all.filter(
    (e) => e.status === 'posted' && f.closed.has(closedKey(e.legal_entity_id, e.reporting_month)),
  );
  if (inClosed.length) {
    out.push(
      conflict('period_closed', `Posted in a closed period: ${inClosed.map((e) => e.reporting_month).join(', ')}`),
    );
  }
  return out;
}
