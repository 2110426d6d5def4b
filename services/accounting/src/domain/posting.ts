import { forbidden, type Principal, unprocessable } from '@platform/kit';
import { type Action, can } from './permissions.ts';

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

/** The policy action that choosing `month` needs, and what a caller without it is told; none for Open. */
function monthChoice(
  month: string,
  input: PostMonthInput,
): { action: Extract<Action, `journal.post_${string}`>; why: string } | null {
  if (input.closed.has(month)) {
    return {
      action: 'journal.post_closed',
      why: `${month} is closed; only a verified global Super Admin grant may post there`,
    };
  }
  if (month < input.open) {
    return { action: 'journal.post_soft_closed', why: `${month} is soft-closed; only controllers may post there` };
  }
  if (month > input.open && input.isCharge) {
    return {
      action: 'journal.post_future_charge',
      why: 'a charge cannot be posted to a future month without a Super Admin grant',
    };
  }
  if (month > input.open) {
    return {
      action: 'journal.post_future',
      why: `${month} is in the future; only controllers and senior accountants may post there`,
    };
  }
  return null;
}

/**
 * Posting month rules. Open is the entity's current month; a past month is soft-closed unless
 * closed, when it is hard-closed (DECISIONS item 1). Who may choose which month is policy data
 * (packages/policies/src/accounting.ts, `journal.post_*`): controllers soft-closed months,
 * controllers and senior accountants future months except for charges, a verified global Super
 * Admin grant closed months and future charges; none of it through the shared service token.
 * Services always use Open (their refusal comes first, as before any other check); nobody posts
 * before the books start (period_out_of_range).
 */
export function choosePostMonth(input: PostMonthInput): string {
  const { principal: p, requested, open, booksStart } = input;
  const month = requested ?? open;
  const choice = monthChoice(month, input);
  if (choice && p.kind === 'service') throw refuse('services always post to the Open month');
  if (month < booksStart) {
    throw unprocessable(
      'period_out_of_range',
      `post_month ${month} is before the books start ${booksStart}`,
      'post_month',
    );
  }
  if (choice) {
    const decision = can.decide(p, choice.action);
    if (!decision.allowed) throw refuse(p.via === 'service_token' ? `${month}: ${decision.message}` : choice.why);
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
