import { type Static, Type } from '@sinclair/typebox';
import { DateString, Money, MonthStart, Timestamp, Uuid } from './common.ts';

const Direction = Type.Unsafe<'debit' | 'credit'>({ type: 'string', enum: ['debit', 'credit'] });
const OptionalRef = Type.Optional(Uuid);

export const LineInput = Type.Object(
  {
    account_id: Uuid,
    direction: Direction,
    amount: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Positive, minor units' }),
    property_id: OptionalRef,
    unit_id: OptionalRef,
    lease_id: OptionalRef,
    billing_account_id: OptionalRef,
    /** Only on entries made by billing. */
    invoice_id: OptionalRef,
    /** Only on entries made by billing. */
    charge_id: OptionalRef,
  },
  { additionalProperties: false },
);
export type LineInput = Static<typeof LineInput>;

const Lines = Type.Array(LineInput, { minItems: 1, maxItems: 1000 });
const Description = Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' });

export const EntryInput = Type.Object(
  {
    legal_entity_id: Uuid,
    description: Description,
    transaction_date: DateString,
    lines: Lines,
    payment_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type EntryInput = Static<typeof EntryInput>;

/** Draft edit: description, transaction date and lines are replaced as a whole. */
export const DraftInput = Type.Object(
  {
    description: Description,
    transaction_date: DateString,
    lines: Lines,
    /** Accepted only when it names the draft's own entity: the legal entity cannot change. */
    legal_entity_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type DraftInput = Static<typeof DraftInput>;

export const ReverseInput = Type.Object({ entry_date: Type.Optional(DateString) }, { additionalProperties: false });

export const DeleteInput = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
    related_entry_ids: Type.Optional(Type.Array(Uuid, { maxItems: 100, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type DeleteInput = Static<typeof DeleteInput>;

export const Line = Type.Object({
  id: Uuid,
  line_no: Type.Integer(),
  account_id: Uuid,
  direction: Direction,
  amount: Money,
  property_id: OptionalRef,
  unit_id: OptionalRef,
  lease_id: OptionalRef,
  billing_account_id: OptionalRef,
  invoice_id: OptionalRef,
  charge_id: OptionalRef,
});
export type Line = Static<typeof Line>;

const EntryFields = {
  id: Uuid,
  legal_entity_id: Uuid,
  description: Type.String(),
  transaction_date: DateString,
  /** The transaction date, as journal lists expose it. */
  occurred_on: DateString,
  source: Type.Unsafe<'manual' | 'generated'>({ type: 'string', enum: ['manual', 'generated'] }),
  status: Type.Unsafe<'draft' | 'posted'>({ type: 'string', enum: ['draft', 'posted'] }),
  /** Absent on drafts. */
  post_month: Type.Optional(MonthStart),
  payment_id: Type.Union([Uuid, Type.Null()]),
  is_reversal: Type.Boolean(),
  reversal_of: Type.Union([Uuid, Type.Null()]),
  created_by: Type.String(),
  created_at: Timestamp,
  posted_at: Type.Union([Timestamp, Type.Null()]),
};

export const Entry = Type.Object({ ...EntryFields, lines: Type.Array(Line) });
export type Entry = Static<typeof Entry>;

export const EntrySummary = Type.Object({
  ...EntryFields,
  total_debit: Money,
  total_credit: Money,
});
export type EntrySummary = Static<typeof EntrySummary>;

export const Refusal = Type.Object({ code: Type.String(), message: Type.String() });
export const DeletionCheck = Type.Object({
  allowed: Type.Boolean(),
  refusals: Type.Array(Refusal),
});

export const DeletedEntry = Type.Object({
  entry_id: Uuid,
  legal_entity_id: Uuid,
  payment_id: Type.Union([Uuid, Type.Null()]),
  reason: Type.String(),
  deleted_at: Timestamp,
  deleted_by: Type.String(),
  why: Type.Union([
    Type.Object({ code: Type.Optional(Type.String()), detail: Type.Optional(Type.String()) }),
    Type.Null(),
  ]),
  snapshot: Entry,
});
export type DeletedEntry = Static<typeof DeletedEntry>;

export const DeleteResult = Type.Object({
  deleted_entry_ids: Type.Array(Uuid),
  deleted_at: Timestamp,
});
