import { conflict, uuidv7 } from '@platform/kit';
import { assignmentNotFound, dayOf, feeNotFound, requireEndAfterStart, requireWithinFee } from '../domain/vendors.ts';
import type { AssignmentInput, EndInput, FeeInput, InvoiceInput } from '../schemas/vendors.ts';
import {
  endAssignment,
  findAssignment,
  findFee,
  insertAssignment,
  insertFee,
  insertInvoice,
  isOnProject,
  lockAssignment,
} from '../store/vendors.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/*
 * The firm itself (known, active, its contact) is checked with the vendors service before these
 * commands' transactions open (routes/vendors.ts); here is only what construction holds.
 */

/** Puts a firm on a project in a role with its contact (CON-163). */
export async function assignVendor(ctx: CommandCtx, vendorId: string, input: AssignmentInput) {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, input.project_id);
  const assignment = await insertAssignment(
    trx,
    {
      id: uuidv7(now.getTime()),
      vendor_id: vendorId,
      project_id: input.project_id,
      role: input.role,
      contact_id: input.contact_id ?? null,
      started_on: input.started_on ?? dayOf(now),
    },
    principal.id,
    now,
  );
  await emit({
    type: 'vendor_assignment.started',
    data: {
      assignment_id: assignment.id,
      vendor_id: vendorId,
      project_id: assignment.project_id,
      role: assignment.role,
      started_on: assignment.started_on,
      actor_fid: principal.id,
    },
  });
  return assignment;
}

/**
 * Takes the firm off the project (CON-165). Ending an ended assignment changes nothing: it answers
 * the assignment as it is, with no event.
 */
export async function endVendorAssignment(ctx: CommandCtx, vendorId: string, assignmentId: string, input: EndInput) {
  const { trx, principal, now, emit } = ctx;
  const found = await findAssignment(trx, vendorId, assignmentId);
  if (!found) throw assignmentNotFound();
  await projectForWrite(ctx, found.project_id);
  const held = await lockAssignment(trx, vendorId, assignmentId);
  if (!held) throw assignmentNotFound();
  if (held.ended_on !== null) return held;
  const endedOn = input.ended_on ?? dayOf(now);
  requireEndAfterStart(held.started_on, endedOn);
  const ended = await endAssignment(trx, assignmentId, endedOn, principal.id, now);
  await emit({
    type: 'vendor_assignment.ended',
    data: {
      assignment_id: ended.id,
      vendor_id: vendorId,
      project_id: ended.project_id,
      ended_on: endedOn,
      actor_fid: principal.id,
    },
  });
  return ended;
}

/** Agrees a design fee with a firm on a project it is on (CON-167; not on it: 409 vendor_not_on_project, CON-168). */
export async function agreeFee(ctx: CommandCtx, vendorId: string, input: FeeInput) {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, input.project_id);
  if (!(await isOnProject(trx, vendorId, input.project_id))) {
    throw conflict('vendor_not_on_project', 'The firm has no open assignment on this project: assign it first');
  }
  const fee = await insertFee(
    trx,
    {
      id: uuidv7(now.getTime()),
      vendor_id: vendorId,
      project_id: input.project_id,
      description: input.description,
      agreed_minor: input.agreed_minor,
    },
    principal.id,
    now,
  );
  await emit({
    type: 'design_fee.agreed',
    data: {
      fee_id: fee.id,
      vendor_id: vendorId,
      project_id: fee.project_id,
      agreed_minor: fee.agreed_minor,
      actor_fid: principal.id,
    },
  });
  return fee;
}

/**
 * Records a firm's invoice against its fee; it counts as invoiced (CON-169). The invoiced total
 * may reach the agreed fee, not pass it (409 fee_exceeded); a number the fee already has, ignoring
 * case, is 409 invoice_number_taken.
 */
export async function recordInvoice(ctx: CommandCtx, vendorId: string, feeId: string, input: InvoiceInput) {
  const { trx, principal, now, emit } = ctx;
  const found = await findFee(trx, vendorId, feeId);
  if (!found) throw feeNotFound();
  await projectForWrite(ctx, found.project_id);
  const fee = await findFee(trx, vendorId, feeId, true);
  if (!fee) throw feeNotFound();
  requireWithinFee(fee, input.amount_minor);
  const invoice = await insertInvoice(
    trx,
    fee,
    {
      id: uuidv7(now.getTime()),
      number: input.number,
      amount_minor: input.amount_minor,
      invoiced_on: input.invoiced_on,
    },
    principal.id,
    now,
  );
  if (!invoice) throw conflict('invoice_number_taken', `The fee already has invoice ${input.number}`);
  await emit({
    type: 'design_fee.invoice_recorded',
    data: {
      invoice_id: invoice.id,
      fee_id: fee.id,
      vendor_id: vendorId,
      project_id: fee.project_id,
      amount_minor: invoice.amount_minor,
      invoiced_minor: fee.invoiced_minor + invoice.amount_minor,
      actor_fid: principal.id,
    },
  });
  return invoice;
}
