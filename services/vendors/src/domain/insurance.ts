/** Insurance certificates: coverages, the expiry rule, which certificate is current. */

import { nameKey } from './firms.ts';

export const COVERAGES = [
  'general_liability',
  'workers_compensation',
  'auto_liability',
  'umbrella',
  'professional_liability',
  'builders_risk',
  'pollution_liability',
  'property',
  // Added by issue 14 (item 10): the other lines a certificate of insurance (ACORD 25) commonly shows.
  'employers_liability',
  'excess_liability',
  'cyber_liability',
  'inland_marine',
  'crime',
  'employment_practices_liability',
  'garage_liability',
  'liquor_liability',
  'owners_contractors_protective',
  'railroad_protective_liability',
  'other',
] as const;
export type Coverage = (typeof COVERAGES)[number];

/**
 * The line a certificate covers, as "latest per coverage" and the uniqueness of coverage + policy
 * number + start date read it: a named coverage is its own line; an `other` certificate's line is
 * its description ignoring case (nameKey), so an aviation policy never hides a riggers' one.
 * '' for named coverages.
 */
export const coverageKey = (coverage: Coverage, description: string | undefined) =>
  coverage === 'other' && description !== undefined ? nameKey(description) : '';

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
