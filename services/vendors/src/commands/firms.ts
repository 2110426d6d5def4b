import { conflict, notFound, unprocessable, uuidv7 } from '@platform/kit';
import { type FirmStatus, initialStatus, isChange, otherDescription } from '../domain/firms.ts';
import type { Firm, FirmInput } from '../schemas/firms.ts';
import { insertFirm, lockFirm, setFirmStatus } from '../store/firms.ts';
import type { CommandCtx } from './context.ts';

export const vendorNotFound = () => notFound('Vendor', 'vendor_not_found');

/** Adds a firm; a name held by another firm ignoring case is 409 vendor_exists (VEN-003, VEN-006). */
export async function registerFirm({ trx, principal, now, emit }: CommandCtx, input: FirmInput): Promise<Firm> {
  const refusal = otherDescription(input.kind, input.kind_description);
  if (refusal) {
    throw unprocessable(
      `kind_${refusal}`,
      refusal === 'description_required'
        ? 'A firm of kind other needs kind_description: what kind of firm it is'
        : 'kind_description is only for firms of kind other',
      'body/data/kind_description',
    );
  }
  const firm = await insertFirm(
    trx,
    {
      id: uuidv7(now.getTime()),
      name: input.name,
      kind: input.kind,
      kind_description: input.kind_description ?? null,
      discipline: input.discipline,
      status: initialStatus(input.status),
    },
    principal.id,
    now,
  );
  if (!firm) throw conflict('vendor_exists', 'A firm with this name already exists (names are compared ignoring case)');
  await emit({
    type: 'vendor.registered',
    data: {
      vendor_id: firm.id,
      kind: firm.kind,
      discipline: firm.discipline,
      status: firm.status,
      actor_fid: principal.id,
    },
  });
  return firm;
}

/** Marks a firm active or inactive; the value it already holds changes nothing and emits nothing. */
export async function changeFirmStatus({ trx, principal, now, emit }: CommandCtx, id: string, status: FirmStatus) {
  const held = await lockFirm(trx, id);
  if (!held) throw vendorNotFound();
  if (!isChange(held.status, status)) return held;
  const firm = await setFirmStatus(trx, id, status, now);
  await emit({
    type: 'vendor.status_changed',
    data: { vendor_id: id, status, previous_status: held.status, actor_fid: principal.id },
  });
  return firm;
}
