import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { ASSIGNMENT_STATES, FEE_PAGE } from '../domain/vendors.ts';

/** YYYY-MM-DD, years 1000-9999. */
const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });
/** One line of text: no leading or trailing blanks, no control characters. */
const Text = (maxLength: number, description: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: '^[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]*[^\\s\\x00-\\x1f\\x7f-\\x9f])?$',
    description: `${description}. One line: no leading or trailing blanks, no control characters`,
  });
const Minor = (description: string, minimum: number) => Type.Integer({ minimum, maximum: 1e15, description });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});

export const VendorParams = Type.Object({ id: Uuid });
export const AssignmentParams = Type.Object({ id: Uuid, assignment_id: Uuid });
export const FeeParams = Type.Object({ id: Uuid, fee_id: Uuid });
export const ProjectParams = Type.Object({ projectId: Uuid });

export const AssignmentInput = Type.Object(
  {
    project_id: Uuid,
    role: Text(100, 'What the firm does on the project (architect, structural engineer, general contractor...)'),
    contact_id: Type.Optional({
      ...Uuid,
      description: "The firm's contact for this work: one of the firm's contacts in the vendors service (else 422)",
    }),
    started_on: Type.Optional({ ...DateString, description: 'YYYY-MM-DD; defaults to today' }),
  },
  { additionalProperties: false },
);
export type AssignmentInput = Static<typeof AssignmentInput>;

export const EndInput = Type.Object(
  { ended_on: Type.Optional({ ...DateString, description: 'YYYY-MM-DD, not before started_on; defaults to today' }) },
  { additionalProperties: false },
);
export type EndInput = Static<typeof EndInput>;

export const Assignment = Type.Object({
  id: Uuid,
  vendor_id: Uuid,
  project_id: Uuid,
  role: Type.String(),
  contact_id: Nullable(Uuid, "One of the firm's contacts in the vendors service"),
  started_on: DateString,
  ended_on: Nullable(DateString, 'Set once the firm is taken off the project'),
  state: Type.Unsafe<(typeof ASSIGNMENT_STATES)[number]>({ type: 'string', enum: [...ASSIGNMENT_STATES] }),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Assignment = Static<typeof Assignment>;

export const AssignmentListQuery = Type.Object(
  { project_id: Type.Optional(Uuid), ...pageQuery(FEE_PAGE) },
  { additionalProperties: false },
);

export const FeeInput = Type.Object(
  {
    project_id: Uuid,
    description: Text(500, 'What the fee pays for'),
    agreed_minor: Minor('The agreed fee in minor units', 0),
  },
  { additionalProperties: false },
);
export type FeeInput = Static<typeof FeeInput>;

export const Fee = Type.Object({
  id: Uuid,
  vendor_id: Uuid,
  project_id: Uuid,
  description: Type.String(),
  agreed_minor: Type.Integer(),
  invoiced_minor: Type.Integer({ description: "The sum of the fee's invoices" }),
  remaining_minor: Type.Integer({ description: 'agreed_minor - invoiced_minor' }),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Fee = Static<typeof Fee>;

export const FeeListQuery = AssignmentListQuery;

export const InvoiceInput = Type.Object(
  {
    number: Text(100, "The firm's invoice number; once per fee, ignoring case"),
    amount_minor: Minor('The invoiced amount in minor units', 1),
    invoiced_on: DateString,
  },
  { additionalProperties: false },
);
export type InvoiceInput = Static<typeof InvoiceInput>;

export const Invoice = Type.Object({
  id: Uuid,
  fee_id: Uuid,
  vendor_id: Uuid,
  project_id: Uuid,
  number: Type.String(),
  amount_minor: Type.Integer(),
  invoiced_on: DateString,
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Invoice = Static<typeof Invoice>;

export const PageOnlyQuery = Type.Object({ ...pageQuery(FEE_PAGE) }, { additionalProperties: false });

export const ProjectFirm = Type.Object({
  vendor_id: Uuid,
  name: Nullable(Type.String(), 'From the vendors service; null when it did not answer or knows no such firm'),
  status: Nullable(
    Type.Unsafe<'active' | 'inactive'>({ type: 'string', enum: ['active', 'inactive'] }),
    'From the vendors service; null when it did not answer or knows no such firm',
  ),
  assignments: Type.Array(
    Type.Object({ id: Uuid, role: Type.String(), contact_id: Nullable(Uuid), started_on: DateString }),
    { description: "The firm's open assignments on the project" },
  ),
});
export type ProjectFirm = Static<typeof ProjectFirm>;

export const FirmFees = Type.Object({
  vendor_id: Uuid,
  fees: Type.Integer({ description: 'How many fees are agreed with the firm on the project' }),
  agreed_minor: Type.Integer(),
  invoiced_minor: Type.Integer(),
  remaining_minor: Type.Integer({ description: 'agreed_minor - invoiced_minor' }),
});
export type FirmFees = Static<typeof FirmFees>;
