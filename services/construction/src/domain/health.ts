/**
 * Health, progress, phase and freshness of a development project, computed at read time from the
 * figures kept on its row (docs/decisions.md, "Health, progress and freshness"). store/figures.ts
 * holds the same rules as SQL for the portfolio's filters; a test holds the two together.
 */

export const STAGES = [
  'initiation',
  'feasibility',
  'design',
  'permitting',
  'award',
  'construction',
  'closeout',
] as const;
export type Stage = (typeof STAGES)[number];

/** Leaving these stages needs an approved stage_gate approval for the stage (CON-041). */
export const GATED_STAGES: readonly Stage[] = ['feasibility', 'design', 'award', 'construction'];

export const PHASES = ['planning', 'pre_construction', 'delivery', 'closeout'] as const;
export type Phase = (typeof PHASES)[number];

/** Which phase each stage belongs to. */
export const PHASE_OF: Readonly<Record<Stage, Phase>> = {
  initiation: 'planning',
  feasibility: 'planning',
  design: 'pre_construction',
  permitting: 'pre_construction',
  award: 'pre_construction',
  construction: 'delivery',
  closeout: 'closeout',
};

export const FRESHNESS = ['fresh', 'aging', 'stale'] as const;
export type Freshness = (typeof FRESHNESS)[number];
/** An update within this many days is fresh; within AGING_DAYS aging; older, or none, stale. */
export const FRESH_DAYS = 7;
export const AGING_DAYS = 14;

export const HEALTH = ['green', 'amber', 'red'] as const;
export type Health = (typeof HEALTH)[number];
/** A milestone this many days past its date turns a project red (any day past: amber). */
export const RED_MILESTONE_DAYS = 14;

export interface Figures {
  next_milestone_due: string | null;
  last_update_on: string | null;
  budget_minor: number;
  committed_minor: number;
  actual_minor: number;
}

/** Whole days from `from` to `to` (YYYY-MM-DD each). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

export function freshness(lastUpdateOn: string | null, today: string): Freshness {
  if (!lastUpdateOn) return 'stale';
  const age = daysBetween(lastUpdateOn, today);
  if (age <= FRESH_DAYS) return 'fresh';
  if (age <= AGING_DAYS) return 'aging';
  return 'stale';
}

/**
 * red: a milestone more than RED_MILESTONE_DAYS past due, or actual cost over budget; amber: a
 * milestone past due, no update for more than AGING_DAYS, or commitments over budget; else green.
 * A budget of 0 (no lines yet) is never exceeded.
 */
export function health(f: Figures, today: string): Health {
  const overdue = f.next_milestone_due === null ? 0 : daysBetween(f.next_milestone_due, today);
  const overBudget = (v: number) => f.budget_minor > 0 && v > f.budget_minor;
  if (overdue > RED_MILESTONE_DAYS || overBudget(f.actual_minor)) return 'red';
  if (overdue > 0 || freshness(f.last_update_on, today) === 'stale' || overBudget(f.committed_minor)) return 'amber';
  return 'green';
}

/** The day of an instant, YYYY-MM-DD (UTC). */
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);
