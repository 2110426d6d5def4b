import { conflict, notFound, unprocessable } from '@platform/kit';
import type { Firm } from '../clients/vendors.ts';

/** Lists of a firm's assignments, fees and invoices and of a project's firms: 50 a page, at most 200. */
export const FEE_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

/** An assignment is open until the firm is taken off the project (ended_on set). */
export const ASSIGNMENT_STATES = ['open', 'ended'] as const;
export type AssignmentState = (typeof ASSIGNMENT_STATES)[number];
export const assignmentState = (endedOn: string | null): AssignmentState => (endedOn === null ? 'open' : 'ended');

export const vendorNotFound = () => notFound('Vendor', 'vendor_not_found');
export const assignmentNotFound = () => notFound('Assignment of this firm', 'assignment_not_found');
export const feeNotFound = () => notFound('Design fee of this firm', 'fee_not_found');

/** The day of an instant, in UTC (YYYY-MM-DD): what "today" means for defaults. */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The firm as the vendors service answered for it: unknown 404 vendor_not_found, inactive 409
 * vendor_inactive (CON-164). A named contact must be one of the firm's people (422).
 */
export function requireActiveFirm(firm: Firm | null, contactId?: string): Firm {
  if (!firm) throw vendorNotFound();
  if (firm.status !== 'active') {
    throw conflict('vendor_inactive', 'The firm is inactive in the vendors service and takes no new project work');
  }
  if (contactId !== undefined && !firm.contact_ids.includes(contactId)) {
    throw unprocessable(
      'validation_failed',
      "contact_id is not one of the firm's contacts in the vendors service",
      'body/data/contact_id',
    );
  }
  return firm;
}

/** An end date is on or after the start (422 otherwise). */
export function requireEndAfterStart(startedOn: string, endedOn: string) {
  if (endedOn < startedOn) {
    throw unprocessable(
      'validation_failed',
      `ended_on ${endedOn} is before the assignment started (${startedOn})`,
      'body/data/ended_on',
    );
  }
}

/**
 * An invoice counts against its fee: the invoiced total may reach the agreed fee but not pass it
 * (409 fee_exceeded); a change of fee goes through a new fee.
 */
export function requireWithinFee(fee: { agreed_minor: number; invoiced_minor: number }, amount: number) {
  const remaining = fee.agreed_minor - fee.invoiced_minor;
  if (amount > remaining) {
    throw conflict(
      'fee_exceeded',
      `The invoice (${amount}) is more than what remains of the agreed fee (${remaining} of ${fee.agreed_minor})`,
    );
  }
}
