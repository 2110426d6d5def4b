import { conflict, unprocessable, uuidv7 } from '@platform/kit';
import { otherDescription } from '../domain/firms.ts';
import { expiresBeforeStart } from '../domain/insurance.ts';
import type { Certificate, CertificateInput } from '../schemas/insurance.ts';
import { lockFirm } from '../store/firms.ts';
import { insertCertificate } from '../store/insurance.ts';
import type { CommandCtx } from './context.ts';
import { vendorNotFound } from './firms.ts';

/**
 * Records a certificate the firm gave (VEN-026..031). The firm is locked so that its current
 * certificates and its status move one command at a time.
 */
export async function recordCertificate(
  { trx, principal, now, emit }: CommandCtx,
  firmId: string,
  input: CertificateInput,
): Promise<Certificate> {
  const refusal = otherDescription(input.coverage, input.coverage_description);
  if (refusal) {
    throw unprocessable(
      `coverage_${refusal}`,
      refusal === 'description_required'
        ? 'A certificate of coverage other needs coverage_description: the line it covers'
        : 'coverage_description is only for certificates of coverage other',
      'body/data/coverage_description',
    );
  }
  if (expiresBeforeStart(input)) {
    throw unprocessable('expiry_before_start', 'expires_on must not be before starts_on', 'body/data/expires_on');
  }
  if (!(await lockFirm(trx, firmId))) throw vendorNotFound();
  const certificate = await insertCertificate(trx, uuidv7(now.getTime()), firmId, input, principal.id, now);
  if (!certificate) {
    throw conflict('insurance_exists', 'This coverage, policy number and start date are already recorded for the firm');
  }
  await emit({
    type: 'vendor.insurance_recorded',
    data: {
      vendor_id: firmId,
      certificate_id: certificate.id,
      coverage: certificate.coverage,
      starts_on: certificate.starts_on,
      expires_on: certificate.expires_on,
      actor_fid: principal.id,
    },
  });
  return certificate;
}
