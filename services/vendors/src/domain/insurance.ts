/** Insurance certificates: coverages, the expiry rule, which certificate is current. */

export const COVERAGES = [
  'general_liability',
  'workers_compensation',
  'auto_liability',
  'umbrella',
  'professional_liability',
  'builders_risk',
  'pollution_liability',
  'property',
] as const;
export type Coverage = (typeof COVERAGES)[number];

/** Expiry must not be before start; the same day is fine (VEN-029, VEN-030). Dates are YYYY-MM-DD. */
export const expiresBeforeStart = (c: { starts_on: string; expires_on: string }) => c.expires_on < c.starts_on;

/**
 * The status filter of GET /v1/vendor-insurance: `current` certificates have not expired by
 * today (expiry today or later), `expired` ones have. Absent: both.
 */
export const CERTIFICATE_STATUSES = ['current', 'expired'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** Today's date (UTC) as YYYY-MM-DD: a certificate is in force through its expiry date. */
export const today = (now: Date) => now.toISOString().slice(0, 10);
