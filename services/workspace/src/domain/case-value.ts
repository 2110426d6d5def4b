import { AMOUNT_STAGES, type AmountStage } from './cases.ts';

/**
 * The case-value report (spec 2, GET /v1/projects/{id}/case-value; issue 16). Totals by stage
 * and currency, never one recovered-revenue figure: an amount is a stage's, and stages are not
 * added together. Expected value (one-off plus the recurring projection) stands apart and is
 * never added into a stage total. Of the open, accepted, in-progress and verified cases naming
 * one subject, only the first opened counts in the money; the others are listed as left out.
 * A dismissed case contributes its reason and none of its amounts. Collection nobody observed
 * reads `pending`, not 0.
 */

/** What the store sums for the report, over the counted cases (not dismissed, first on their subject). */
export interface CaseValueFacts {
  /** One row per stage and currency with amounts; `tied` sums the collected rows that tie to the correction. */
  stages: { stage: AmountStage; currency: string; amount: number; tied: number; rows: number }[];
  /** Per currency: the sum of one-off expected values and of recurring projections. */
  expected: { currency: string; one_off: number; recurring_projection: number }[];
  /** Cases left out of the money because an earlier case names the same subject. */
  duplicates: { case_id: string; title: string; subject: string; counted_case_id: string }[];
  dismissed: { case_id: string; title: string; reason: string }[];
  /** Cases counted in the money. */
  counted: number;
}

export const PENDING = 'pending' as const;
type Pending = typeof PENDING;

const byCurrency = <T extends { currency: string }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));

export function caseValueReport(projectId: string, facts: CaseValueFacts) {
  const stage = (s: AmountStage) =>
    byCurrency(facts.stages.filter((r) => r.stage === s).map((r) => ({ currency: r.currency, amount: r.amount })));
  const currencies = [...new Set(facts.stages.map((r) => r.currency))].sort();
  const collectedRows = facts.stages.filter((r) => r.stage === 'collected');
  const collected = currencies.map((currency) => {
    const row = collectedRows.find((r) => r.currency === currency);
    const figure = (n: number): number | Pending => (row ? n : PENDING);
    return {
      currency,
      amount: figure(row?.amount ?? 0),
      tied_to_correction: figure(row?.tied ?? 0),
      not_tied: figure((row?.amount ?? 0) - (row?.tied ?? 0)),
    };
  });
  const stages = Object.fromEntries(
    AMOUNT_STAGES.filter((s) => s !== 'collected').map((s) => [s, { totals: stage(s) }]),
  ) as Record<Exclude<AmountStage, 'collected'>, { totals: { currency: string; amount: number }[] }>;
  return {
    project_id: projectId,
    stages: {
      ...stages,
      collected: {
        status: collectedRows.length > 0 ? ('observed' as const) : PENDING,
        totals: collected,
      },
    },
    expected_value: {
      totals: byCurrency(facts.expected).map((e) => ({
        currency: e.currency,
        one_off: e.one_off,
        recurring_projection: e.recurring_projection,
        expected: e.one_off + e.recurring_projection,
      })),
    },
    counted_cases: facts.counted,
    duplicates: facts.duplicates,
    dismissed: facts.dismissed,
  };
}

export type CaseValueReport = ReturnType<typeof caseValueReport>;
