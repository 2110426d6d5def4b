import { type Static, Type } from '@sinclair/typebox';
import { CERTIFICATE_STATUSES, COVERAGES } from '../domain/insurance.ts';
import { DateString, StringEnum, Text, Timestamp, Uuid } from './common.ts';

export const Coverage = StringEnum(COVERAGES);

export const CertificateInput = Type.Object(
  {
    coverage: Coverage,
    coverage_description: Type.Optional(
      Text(
        200,
        'The line covered: required when coverage is other (422 coverage_description_required), refused otherwise',
      ),
    ),
    policy_number: Text(100),
    insurer: Type.Optional(Text(200)),
    starts_on: DateString,
    expires_on: DateString,
  },
  { additionalProperties: false },
);
export type CertificateInput = Static<typeof CertificateInput>;

export const Certificate = Type.Object({
  id: Uuid,
  vendor_id: Uuid,
  coverage: Coverage,
  coverage_description: Type.Union([Type.String(), Type.Null()], {
    description: 'Set when coverage is other, else null; each description (ignoring case) is its own line',
  }),
  policy_number: Type.String(),
  insurer: Type.Union([Type.String(), Type.Null()]),
  starts_on: Type.String({ format: 'date' }),
  expires_on: Type.String({ format: 'date' }),
  recorded_at: Timestamp,
});
export type Certificate = Static<typeof Certificate>;

/** A row of GET /v1/vendor-insurance: an active firm's latest certificate for one coverage. */
export const CurrentCertificate = Type.Object({
  ...Certificate.properties,
  vendor_name: Type.String(),
});
export type CurrentCertificate = Static<typeof CurrentCertificate>;

export const InsuranceListQuery = Type.Object({
  coverage: Type.Optional(Coverage),
  status: Type.Optional(
    StringEnum(
      CERTIFICATE_STATUSES,
      'current: expiring today or later; expired: expired before today (UTC); absent: both',
    ),
  ),
});
