import { forbidden, hasRole, hasVerifiedGlobal, type Principal, unprocessable } from '@platform/kit';

export interface PostMonthInput {
  principal: Principal;
  /** ?post_month, when given. */
  requested?: string;
  open: string;
  booksStart: string;
  closed: ReadonlySet<string>;
  /** An entry with a charge line. */
  isCharge: boolean;
}

const refuse = (why: string) => forbidden(`Posting to that month is not allowed: ${why}`, 'post_month_not_allowed');

/**
 * Posting month rules. Open is the entity's current month; a past month is soft-closed unless
 * closed, when it is hard-closed (DECISIONS item 1).
 * - Services always use Open.
 * - Controllers may choose soft-closed months.
 * - Controllers and Senior Accountants may choose future months, except for charges.
 * - A verified global Super Admin grant permits closed months and future charges; a role label
 *   alone does not.
 * - Nobody posts before the books start: period_out_of_range.
 */
export function choosePostMonth(input: PostMonthInput): string {
  const { principal: p, requested, open, booksStart, closed } = input;
  if (p.kind === 'service' && requested !== undefined && requested !== open) {
    throw refuse('services always post to the Open month');
  }
  const month = requested ?? open;
  if (month < booksStart) {
    throw unprocessable(
      'period_out_of_range',
      `post_month ${month} is before the books start ${booksStart}`,
      'post_month',
    );
  }
  const superAdmin = hasVerifiedGlobal(p, 'super_admin');
  if (closed.has(month)) {
    if (!superAdmin) throw refuse(`${month} is closed; only a verified global Super Admin grant may post there`);
    return month;
  }
  if (month < open && !superAdmin && !hasRole(p, ['controller'])) {
    throw refuse(`${month} is soft-closed; only controllers may post there`);
  }
  if (month > open && !superAdmin) {
    if (!hasRole(p, ['controller', 'senior_accountant'])) {
      throw refuse(`${month} is in the future; only controllers and senior accountants may post there`);
    }
    if (input.isCharge) throw refuse('a charge cannot be posted to a future month without a Super Admin grant');
  }
  return month;
}

/** Debits must equal credits to post (summed exactly: amounts may be near the safe-integer limit). */
export function checkBalanced(lines: readonly { direction: string; amount: number }[]): void {
  let debit = 0n;
  let credit = 0n;
  for (const l of lines) {
    if (l.direction === 'debit') debit += BigInt(l.amount);
    else credit += BigInt(l.amount);
  }
  if (debit !== credit) {
    throw unprocessable('unbalanced_entry', `Debits (${debit}) must equal credits (${credit}) to post`);
  }
}
