/** Firms: what kinds and disciplines exist, and what a status command changes. */

export const KINDS = [
  'contractor',
  'subcontractor',
  'consultant',
  'supplier',
  'service_provider',
  'utility',
  // Added by issue 14 (item 10): firms that fitted none of the above.
  'manufacturer',
  'distributor',
  'equipment_rental',
  'staffing_agency',
  'government_agency',
  'other',
] as const;
export type Kind = (typeof KINDS)[number];

export const DISCIPLINES = [
  'general_contracting',
  'architecture',
  'structural_engineering',
  'mep_engineering',
  'civil_engineering',
  'electrical',
  'plumbing',
  'hvac',
  'roofing',
  'concrete',
  'steel',
  'carpentry',
  'painting',
  'landscaping',
  'cleaning',
  'security',
  'elevators',
  'fire_protection',
  'environmental',
  'surveying',
  'legal',
  'property_management',
  'other',
] as const;
export type Discipline = (typeof DISCIPLINES)[number];

export const FIRM_STATUSES = ['active', 'inactive'] as const;
export type FirmStatus = (typeof FIRM_STATUSES)[number];

/**
 * A value of an open list (a firm's kind, a certificate's coverage) with the description that
 * names it when the value is `other`: required then, so that every record says what it is, and
 * refused otherwise, so that a description never contradicts the value it sits beside. Returns
 * the refusal's code, or undefined when the pair is fine.
 */
export function otherDescription(
  value: string,
  description: string | undefined,
): 'description_required' | 'description_not_allowed' | undefined {
  if (value === 'other') return description === undefined ? 'description_required' : undefined;
  return description === undefined ? undefined : 'description_not_allowed';
}

/** A new firm is active unless the command says otherwise. */
export const initialStatus = (requested?: FirmStatus): FirmStatus => requested ?? 'active';

/**
 * A status (or a contact's active flag) set to the value it already holds changes nothing: the
 * command succeeds, writes nothing and emits nothing.
 */
export const isChange = <T>(held: T, requested: T) => held !== requested;

/**
 * The key a firm name is unique by, ignoring case (VEN-006): the same text in any case, in any
 * Unicode normal form, gives the same key. Canonical composition (NFC: "É" typed as E + accent
 * is "É"), then full case folding done here rather than by the database, whose lower() depends on
 * its locale and maps one character at a time ("STRASSE" and "Straße" are one name; final sigma is
 * sigma). q is matched against the key the same way (VEN-012).
 */
export const nameKey = (name: string) =>
  name.normalize('NFC').toUpperCase().toLowerCase().replace(/ς/g, 'σ').normalize('NFC');

/** At most this many ids in the ids filter of GET /v1/vendors (spec limits). */
export const MAX_IDS = 100;

/** The distinct ids of a comma-separated ids filter, lower-case; blanks between commas are ignored. */
export const parseIds = (raw: string): string[] => [
  ...new Set(
    raw
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== ''),
  ),
];
