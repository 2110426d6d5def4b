import { defineErrors } from '@platform/kit';

/**
 * Every error code accounting answers beyond the kit's own (issue 15.1): its status, what it
 * means. Routes declare which of them they answer; the OpenAPI lists them per status.
 */
export const ERRORS = defineErrors({
  account_code_exists: { status: 409, meaning: 'The chart already has an account with this code' },
  account_not_found: { status: [404, 422], meaning: 'No such account (404 by id; 422 when a line names it)' },
  account_not_in_chart: { status: 422, meaning: "A line's account is not in the entity's chart" },
  account_not_postable: { status: 422, meaning: "A line's account does not accept journal lines" },
  amount_too_large: { status: 422, meaning: 'The debit or credit total exceeds the largest safe amount' },
  billing_document_entry: { status: 409, meaning: 'Entries referencing an invoice or charge are not deleted here' },
  billing_reference_not_allowed: {
    status: [403, 422],
    meaning: 'Only the billing service writes or reverses lines that reference an invoice or charge',
  },
  books_start_excludes_postings: { status: 422, meaning: 'The new books start would leave posted entries before it' },
  calendar_already_configured: { status: 409, meaning: 'The entity already has a calendar' },
  closed_period_gap: { status: 409, meaning: 'Closed months would no longer be one run from books start' },
  current_period_closed: { status: 422, meaning: 'The month that would become current is closed' },
  current_period_not_closable: { status: 409, meaning: 'The current month cannot be closed' },
  deleted_entry_not_found: { status: 404, meaning: 'No deletion snapshot for this entry' },
  entry_already_posted: { status: 409, meaning: 'The entry is already posted' },
  entry_already_reversed: { status: 409, meaning: 'The entry already has a reversal' },
  entry_has_reversal: { status: 409, meaning: 'An entry that has a reversal cannot be deleted' },
  entry_is_reversal: { status: 409, meaning: 'A reversal entry cannot be deleted' },
  entry_not_editable: { status: 409, meaning: 'Only a manual draft can be edited' },
  entry_not_posted: { status: 409, meaning: 'Only a posted entry can be reversed' },
  invalid_books_start_month: { status: 422, meaning: 'The books start month is not allowed' },
  invalid_closed_period_prefix: { status: 422, meaning: 'Closed months must run without gaps from books start' },
  invalid_cursor: { status: 422, meaning: 'The after cursor is not one this service issued' },
  invalid_timezone: { status: 422, meaning: 'Not an IANA timezone' },
  journal_entry_not_found: { status: 404, meaning: 'No such journal entry' },
  legal_entity_immutable: { status: 422, meaning: 'The legal entity of an entry cannot change' },
  legal_entity_inactive: { status: 422, meaning: 'The legal entity is inactive' },
  legal_entity_not_found: { status: [404, 422], meaning: 'No such legal entity (404 by id; 422 when a body names it)' },
  parent_not_found: { status: 422, meaning: 'The parent account is not in the chart' },
  payment_id_not_allowed: { status: 403, meaning: 'Only the payments service sets payment_id' },
  payment_linked_entry: { status: 403, meaning: 'A payment-linked entry is deleted only by whom the rules allow' },
  period_calendar_not_configured: { status: 422, meaning: 'The legal entity has no period calendar' },
  period_closed: { status: 409, meaning: 'The entry is posted in a closed month' },
  period_not_closed: { status: 409, meaning: 'The month to reopen is not closed' },
  period_out_of_range: { status: 422, meaning: 'The posting month is outside the calendar' },
  post_month_not_allowed: { status: 403, meaning: 'The caller may not post into that month' },
  reason_required: { status: 422, meaning: 'why.detail is required and must not be blank' },
  related_entry_mismatch: { status: 422, meaning: 'A related entry does not share the payment of the entry' },
  related_entry_not_found: { status: 422, meaning: 'A related entry does not exist' },
  unbalanced_entry: { status: 422, meaning: 'Debits must equal credits to post' },
  unexpected_close_month: { status: 409, meaning: 'data.month is not the month a close would close' },
  unlinked_entries_not_groupable: { status: 422, meaning: 'Entries without a payment_id are not deleted as a group' },
});
export type ErrorCode = keyof typeof ERRORS;
