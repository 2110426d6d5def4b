import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import {
  AMOUNT_STAGES,
  CASE_PAGE,
  CASE_STATUSES,
  EVIDENCE_ENTRY_MAX,
  EVIDENCE_MAX,
  REASON_MAX,
  RECURRING_MONTHS_MAX,
  SUBJECT_MAX,
  TEXT_MAX,
  TITLE_MAX,
} from '../domain/cases.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

export const CaseParams = Type.Object({ id: Uuid, caseId: Uuid });

export const CaseStatusName = Type.Union(
  CASE_STATUSES.map((s) => Type.Literal(s)),
  { description: 'needs_validation (initial), accepted, in_progress, verified or dismissed' },
);
export const AmountStageName = Type.Union(
  AMOUNT_STAGES.map((s) => Type.Literal(s)),
  { description: 'identified, approved (once accepted), posted (once in progress) or collected (cash observed)' },
);

/** Integer minor units of the currency (cents for USD): a JSON safe integer, never negative. */
export const MinorUnits = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** Three capital letters; the command checks it is an ISO 4217 code (422 unknown_currency). */
export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. USD' });

export const ExpectedValue = Type.Object(
  {
    currency: CurrencyCode,
    one_off: MinorUnits,
    recurring_monthly: MinorUnits,
    recurring_months: Type.Integer({ minimum: 0, maximum: RECURRING_MONTHS_MAX }),
  },
  { description: 'What the correction is expected to bring: a projection, never part of a stage total' },
);

const ExpectedValueInput = Type.Object(
  {
    currency: CurrencyCode,
    one_off: Type.Optional(MinorUnits),
    recurring_monthly: Type.Optional({ ...MinorUnits, description: 'Per month; needs recurring_months' }),
    recurring_months: Type.Optional(
      Type.Integer({ minimum: 0, maximum: RECURRING_MONTHS_MAX, description: 'Months of the recurring projection' }),
    ),
  },
  { additionalProperties: false },
);

/** A case as every read shows it. */
export const Case = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  subject: Type.String({ description: 'What the finding is about; cases naming one subject count once in case-value' }),
  owner: PrincipalId,
  evidence: Type.Array(Type.String(), { description: 'Evidence entries (texts or links), in the order given' }),
  proposed_correction: Type.String(),
  still_to_check: Type.String({ description: 'What still needs checking; empty when nothing is left' }),
  status: CaseStatusName,
  next_step: Type.Union([Type.Literal('decision'), Type.Literal('work'), Type.Literal('check'), Type.Null()], {
    description:
      'What the case waits for: decision (needs_validation), work (accepted), check (in_progress); null once verified or dismissed',
  }),
  dismissal_reason: Type.Union([Type.Null(), Type.String()], { description: 'Set on dismissed cases only' }),
  verification_method: Type.Union([Type.Null(), Type.String()], { description: 'Set on verified cases only' }),
  expected_value: Type.Union([Type.Null(), ExpectedValue]),
  created_by: PrincipalId,
  created_at: Timestamp,
  updated_at: Timestamp,
  status_changed_at: Timestamp,
});
export type Case = Static<typeof Case>;

const Title = Type.String({ description: `Trimmed; 1 to ${TITLE_MAX} characters` });
const Subject = Type.String({ description: `Trimmed; 1 to ${SUBJECT_MAX} characters` });
const Evidence = Type.Array(Type.String({ description: `Trimmed; 1 to ${EVIDENCE_ENTRY_MAX} characters` }), {
  maxItems: EVIDENCE_MAX,
});
const Correction = Type.String({ description: `Trimmed; 1 to ${TEXT_MAX} characters` });
const StillToCheck = Type.String({ description: `Trimmed; at most ${TEXT_MAX} characters` });

/** POST .../cases data. */
export const CaseInput = Type.Object(
  {
    title: Title,
    subject: Subject,
    owner: Type.Optional({ ...PrincipalId, description: 'A project member; default the caller' }),
    evidence: Type.Optional(Evidence),
    proposed_correction: Correction,
    still_to_check: Type.Optional(StillToCheck),
    expected_value: Type.Optional(Type.Union([Type.Null(), ExpectedValueInput])),
  },
  { additionalProperties: false },
);
export type CaseInput = Static<typeof CaseInput>;

/** PATCH .../cases/{caseId} data: only the fields sent change; expected_value null clears it. */
export const CasePatch = Type.Object(
  {
    title: Type.Optional(Title),
    subject: Type.Optional(Subject),
    owner: Type.Optional(PrincipalId),
    evidence: Type.Optional(Evidence),
    proposed_correction: Type.Optional(Correction),
    still_to_check: Type.Optional(StillToCheck),
    expected_value: Type.Optional(Type.Union([Type.Null(), ExpectedValueInput])),
  },
  { additionalProperties: false },
);
export type CasePatch = Static<typeof CasePatch>;

/** POST .../cases/{caseId}/transition data. */
export const TransitionInput = Type.Object(
  {
    status: CaseStatusName,
    reason: Type.Optional(
      Type.String({ description: `Dismissal only (required there); 1 to ${REASON_MAX} characters` }),
    ),
    method: Type.Optional(
      Type.String({
        description: `Verification only (required there): how it was verified; 1 to ${REASON_MAX} characters`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type TransitionInput = Static<typeof TransitionInput>;

export const CaseAmount = Type.Object({
  id: Uuid,
  case_id: Uuid,
  project_id: Uuid,
  stage: AmountStageName,
  amount: MinorUnits,
  currency: CurrencyCode,
  tied_to_correction: Type.Union([Type.Null(), Type.Boolean()], {
    description: 'Collected rows: whether the cash can be tied to the correction; null on other stages',
  }),
  recorded_by: PrincipalId,
  created_at: Timestamp,
});
export type CaseAmount = Static<typeof CaseAmount>;

/** POST .../cases/{caseId}/amounts data. */
export const AmountInput = Type.Object(
  {
    stage: AmountStageName,
    amount: { ...MinorUnits, description: 'Integer minor units of the currency (cents for USD)' },
    currency: CurrencyCode,
    tied_to_correction: Type.Optional(Type.Boolean({ description: 'Required on collected rows; refused on others' })),
  },
  { additionalProperties: false },
);
export type AmountInput = Static<typeof AmountInput>;

export const CaseListQuery = Type.Object(
  {
    actionable: Type.Optional(
      Type.Boolean({
        description:
          'true: only cases that need a decision, the work or the check (needs_validation, accepted, in_progress); false: only verified and dismissed ones',
      }),
    ),
    status: Type.Optional(CaseStatusName),
    owner: Type.Optional(PrincipalId),
    ...pageQuery(CASE_PAGE),
  },
  { additionalProperties: false },
);
export type CaseListQuery = Static<typeof CaseListQuery>;

export const AmountListQuery = Type.Object(pageQuery(CASE_PAGE), { additionalProperties: false });

const StageTotals = Type.Object({
  totals: Type.Array(Type.Object({ currency: CurrencyCode, amount: MinorUnits }), {
    description: 'One total per currency with amounts at this stage',
  }),
});
const PendingOr = Type.Union([MinorUnits, Type.Literal('pending')]);

/** GET .../case-value. */
export const CaseValue = Type.Object({
  project_id: Uuid,
  stages: Type.Object(
    {
      identified: StageTotals,
      approved: StageTotals,
      posted: StageTotals,
      collected: Type.Object({
        status: Type.Union([Type.Literal('observed'), Type.Literal('pending')], {
          description: 'pending while no collected cash has been observed on any counted case',
        }),
        totals: Type.Array(
          Type.Object({
            currency: CurrencyCode,
            amount: PendingOr,
            tied_to_correction: PendingOr,
            not_tied: PendingOr,
          }),
          { description: 'Every currency of the counted amounts; pending (not 0) where no cash was observed in it' },
        ),
      }),
    },
    { description: 'Totals by stage and currency. Stages are not added together: there is no recovered-revenue total' },
  ),
  expected_value: Type.Object(
    {
      totals: Type.Array(
        Type.Object({
          currency: CurrencyCode,
          one_off: MinorUnits,
          recurring_projection: MinorUnits,
          expected: { ...MinorUnits, description: 'one_off + recurring_projection' },
        }),
      ),
    },
    {
      description: 'Expected value of the counted cases, recurring projection included; never added into a stage total',
    },
  ),
  counted_cases: Type.Integer({
    description: 'Cases counted in the money: not dismissed, first opened on their subject',
  }),
  duplicates: Type.Array(
    Type.Object({ case_id: Uuid, title: Type.String(), subject: Type.String(), counted_case_id: Uuid }),
    { description: 'Cases left out of the money: an earlier case names the same subject and counts instead' },
  ),
  dismissed: Type.Array(Type.Object({ case_id: Uuid, title: Type.String(), reason: Type.String() }), {
    description: 'Dismissed cases: each contributes its reason, none of its amounts',
  }),
});
export type CaseValue = Static<typeof CaseValue>;
