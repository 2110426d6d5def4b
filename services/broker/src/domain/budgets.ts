import { AppError } from '@platform/kit';
import { type IdentityKind, nameFromEmail } from './people.ts';

/**
 * Budgets (spec 3, Budgets): a monthly limit per identity in cents, the default unless an override
 * is set. Spend is counted in micro-dollars; budgets are calendar months in UTC.
 */
export const MICROS_PER_CENT = 10_000;
/** The sanity ceiling of a limit: one million dollars a month. */
export const MAX_LIMIT_CENTS = 100_000_000;

/** A creator the roster does not know is called by their email's local part. */
export const nameFromEmailOrNull = (email: string | null) => (email ? nameFromEmail(email) : null);

export const centsOf = (micros: number) => Math.round(micros / MICROS_PER_CENT);

/**
 * Over budget once the month's spend has reached the limit (a limit of 0 blocks every call); the
 * call about to be made is not counted.
 */
export const isOverBudget = (spendMicros: number, limitCents: number) => spendMicros >= limitCents * MICROS_PER_CENT;

export const overBudget = (limitCents: number, service = false) =>
  new AppError(
    402,
    'over_budget',
    service && limitCents === 0
      ? 'A service credential has no budget until a platform admin sets one'
      : `This month's spend has reached the budget of ${limitCents} cents`,
  );

/** A UTC calendar month: its YYYY-MM name and its first day and the next month's, as YYYY-MM-DD. */
export interface Month {
  month: string;
  start: string;
  next: string;
}

/** The YYYY-MM of an instant in UTC, without building the month's bounds (the gate asks on every call). */
export const monthKey = (t: Date) => {
  const m = t.getUTCMonth() + 1;
  return `${t.getUTCFullYear()}-${m < 10 ? '0' : ''}${m}`;
};

export function monthOf(t: Date): Month {
  const y = t.getUTCFullYear();
  const m = t.getUTCMonth();
  const day = (year: number, month: number) => new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  const start = day(y, m);
  return { month: start.slice(0, 7), start, next: day(y, m + 1) };
}

/** One identity's budget this month, as stored figures; the row the API shows is built from it. */
export interface BudgetFigures {
  fid: string;
  email: string;
  name: string;
  kind: IdentityKind;
  creator_fid: string | null;
  creator_email: string | null;
  creator_name: string | null;
  creator_kind: IdentityKind | null;
  spend_micros: number;
  token_count: number;
  override: number | null;
  limit: number;
}

/** Which kinds of identity a show= value lists; agents show under neither people nor services. */
export const SHOW_KINDS: Record<'all' | 'people' | 'services' | 'agents', readonly IdentityKind[]> = {
  all: ['person', 'agent', 'service'],
  people: ['person'],
  services: ['service'],
  agents: ['agent'],
};

/**
 * The person whose group an identity joins: its creator when the creator is a person, else the
 * identity itself (people, and agents or services whose creator is unknown or not a person).
 */
export const groupOwner = (f: BudgetFigures) =>
  f.creator_fid !== null && f.creator_kind === 'person' ? f.creator_fid : f.fid;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface BudgetGroup<R> {
  person_fid: string;
  email: string;
  name: string;
  kind: IdentityKind;
  identity_count: number;
  spend_micros: number;
  token_count: number;
  members: R[];
}

/**
 * One group per owner, ordered by the owner's email: the owner's own row first, then the rest by
 * email. Only the kinds shown are members and counted; a group with none shown is left out.
 */
export function groupBudgets<R>(
  figures: readonly BudgetFigures[],
  shown: readonly IdentityKind[],
  row: (f: BudgetFigures) => R,
): BudgetGroup<R>[] {
  const byOwner = new Map<string, BudgetFigures[]>();
  for (const f of figures) {
    const owner = groupOwner(f);
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), f]);
  }
  const groups: BudgetGroup<R>[] = [];
  for (const [owner, all] of byOwner) {
    const self = all.find((f) => f.fid === owner);
    const members = all
      .filter((f) => shown.includes(f.kind))
      .sort((a, b) => (a.fid === owner ? -1 : b.fid === owner ? 1 : byText(a.email, b.email)));
    if (members.length === 0) continue;
    // The owner's row may be outside what was read (e.g. actor= names one of their agents).
    const other = all[0];
    groups.push({
      person_fid: owner,
      email: self?.email ?? other.creator_email ?? '',
      name: self?.name ?? other.creator_name ?? '',
      kind: self?.kind ?? 'person',
      identity_count: members.length,
      spend_micros: members.reduce((s, f) => s + f.spend_micros, 0),
      token_count: members.reduce((s, f) => s + f.token_count, 0),
      members: members.map(row),
    });
  }
  return groups.sort((a, b) => byText(a.email, b.email) || byText(a.person_fid, b.person_fid));
}
