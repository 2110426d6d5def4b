import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

/** Events of firms' work on projects (ids, roles and amounts; never names or emails of people). */
export const VENDOR_EVENTS = {
  'vendor_assignment.started': {
    description: 'A firm was put on a development project in a role',
    payload: Type.Object({
      assignment_id: Uuid,
      vendor_id: Uuid,
      project_id: Uuid,
      role: Type.String(),
      started_on: Type.String({ format: 'date' }),
      actor_fid: Type.String(),
    }),
  },
  'vendor_assignment.ended': {
    description: 'A firm was taken off a development project',
    payload: Type.Object({
      assignment_id: Uuid,
      vendor_id: Uuid,
      project_id: Uuid,
      ended_on: Type.String({ format: 'date' }),
      actor_fid: Type.String(),
    }),
  },
  'design_fee.agreed': {
    description: 'A design fee was agreed with a firm on a development project',
    payload: Type.Object({
      fee_id: Uuid,
      vendor_id: Uuid,
      project_id: Uuid,
      agreed_minor: Type.Integer(),
      actor_fid: Type.String(),
    }),
  },
  'design_fee.invoice_recorded': {
    description: "A firm's invoice against a design fee was recorded; it counts as invoiced",
    payload: Type.Object({
      invoice_id: Uuid,
      fee_id: Uuid,
      vendor_id: Uuid,
      project_id: Uuid,
      amount_minor: Type.Integer(),
      invoiced_minor: Type.Integer({ description: "The fee's invoiced total after this invoice" }),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
