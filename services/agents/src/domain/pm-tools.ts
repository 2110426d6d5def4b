import type { DirectoryResident } from '../clients/directory.ts';
import type { MoveIn, ResidentFacts, Space, SyncLogEntry, Tenant } from '../clients/property-management.ts';

/**
 * The property-management tools' rules as plain functions (spec 3, AGT-152..AGT-183): what a
 * tool answers is codes and flags, never names or contact data; limits and windows are here.
 */

export const TOOL_LIMITS = { apply_unit_mapping: 10, fill_pms_emails_from_directory: 30 } as const;
export type WriteTool = keyof typeof TOOL_LIMITS;

/** Move-ins, gaps and missing emails are cached 30 minutes; resident access an hour per person. */
export const CACHE_MS = {
  move_ins: 30 * 60_000,
  unit_mapping_gaps: 30 * 60_000,
  missing_pms_emails: 30 * 60_000,
  resident_access: 60 * 60_000,
} as const;
export type CacheKind = keyof typeof CACHE_MS;

/** "In the last day" of the sync logs: the 24 hours before now. */
export const LOG_WINDOW_MS = 24 * 60 * 60_000;

export const UNIT_UNMAPPED = 'unit_unmapped';
export const TENANT_SKIPPED_NO_EMAIL = 'tenant_skipped_no_email';

const NY_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day in New York (DECISIONS 7): the day the write tools' limits count in. */
export const newYorkDay = (at: Date) => NY_DAY.format(at);

/** Names compared as people and staff write them: case, surrounding and repeated spaces do not count. */
export const normalName = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
export const sameName = (a: string, b: string) => normalName(a) === normalName(b);

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const normalEmail = (e: string) => e.trim().toLowerCase();
/** Digits of a phone number; a North American number keeps its 10 digits without the leading 1. */
const phoneDigits = (p: string) => {
  const d = p.replace(/\D/g, '');
  return d.length === 11 && d.startsWith('1') ? d.slice(1) : d;
};
export const validEmail = (e: string) => EMAIL.test(e.trim());
/** A 10-digit North American number, or an international one written with + and 8 to 15 digits. */
export const validPhone = (p: string) => {
  const t = p.trim();
  const digits = t.replace(/\D/g, '');
  if (/[^\d\s()+.-]/.test(t)) return false;
  if (t.startsWith('+')) return digits.length >= 8 && digits.length <= 15;
  return phoneDigits(t).length === 10;
};

export interface ContactFlags {
  present: boolean;
  valid: boolean;
  /** The same address or number is also another incoming resident's of the property. */
  shared: boolean;
}

export interface MoveInRow {
  resident_code: string;
  unit_code: string;
  lease_code: string;
  move_in_date: string;
  email: ContactFlags;
  phone: ContactFlags;
}

const present = (v: string | null): v is string => v !== null && v.trim() !== '';

function counts(values: (string | null)[], norm: (v: string) => string) {
  const n = new Map<string, number>();
  for (const v of values) if (present(v)) n.set(norm(v), (n.get(norm(v)) ?? 0) + 1);
  return n;
}

/** list_move_ins' rows: codes and flags per resident (AGT-152..AGT-154); names and contact data are dropped here. */
export function moveInRows(moveIns: readonly MoveIn[]): MoveInRow[] {
  const emails = counts(
    moveIns.map((m) => m.email),
    normalEmail,
  );
  const phones = counts(
    moveIns.map((m) => m.phone),
    phoneDigits,
  );
  const flags = (
    v: string | null,
    valid: (v: string) => boolean,
    seen: Map<string, number>,
    norm: (v: string) => string,
  ) =>
    present(v)
      ? { present: true, valid: valid(v), shared: (seen.get(norm(v)) ?? 0) > 1 }
      : { present: false, valid: false, shared: false };
  return moveIns.map((m) => ({
    resident_code: m.resident_code,
    unit_code: m.unit_code,
    lease_code: m.lease_code,
    move_in_date: m.move_in_date,
    email: flags(m.email, validEmail, emails, normalEmail),
    phone: flags(m.phone, validPhone, phones, phoneDigits),
  }));
}

export interface ResidentAccess {
  resident_code: string;
  unit_code: string;
  lease_code: string;
  space_code: string | null;
  lease_status: string;
  move_in_date: string;
  portal_account: boolean;
  door_access: boolean;
}

/** check_resident_access's answer: the connector's facts, field by field, so nothing else passes (AGT-158). */
export const residentAccess = (f: ResidentFacts): ResidentAccess => ({
  resident_code: f.resident_code,
  unit_code: f.unit_code,
  lease_code: f.lease_code,
  space_code: f.space_code,
  lease_status: f.lease_status,
  move_in_date: f.move_in_date,
  portal_account: f.portal_account,
  door_access: f.door_access,
});

/** Log lines of one kind within the last day before `now`, the newest per subject. */
function latestLogged(
  logs: readonly SyncLogEntry[],
  kind: string,
  now: Date,
  subject: (l: SyncLogEntry) => string | undefined,
) {
  const since = now.getTime() - LOG_WINDOW_MS;
  const latest = new Map<string, SyncLogEntry>();
  for (const l of logs) {
    const at = Date.parse(l.logged_at);
    const key = subject(l);
    if (l.kind !== kind || key === undefined || Number.isNaN(at) || at < since || at > now.getTime()) continue;
    const prev = latest.get(key);
    if (!prev || Date.parse(prev.logged_at) < at) latest.set(key, l);
  }
  return latest;
}

/** Units logged unmapped in the last day: the newest line of each (AGT-161, AGT-169). */
export const unmappedUnits = (logs: readonly SyncLogEntry[], now: Date) =>
  latestLogged(logs, UNIT_UNMAPPED, now, (l) => (l.unit_name === undefined ? undefined : l.unit_code));

/** Tenants skipped for lack of email in the last day: the newest line of each (AGT-172, AGT-180). */
export const skippedTenants = (logs: readonly SyncLogEntry[], now: Date) =>
  latestLogged(logs, TENANT_SKIPPED_NO_EMAIL, now, (l) => l.tenant_code);

/** The spaces that have the unit's name: a mapping is applied only when there is exactly one (AGT-166..AGT-168). */
export const spacesNamed = (spaces: readonly Space[], unitName: string) =>
  spaces.filter((s) => sameName(s.name, unitName));

export interface GapRow {
  unit_code: string;
  logged_at: string;
  candidate_space_codes: string[];
}

/** list_unit_mapping_gaps' rows: codes only (AGT-161, AGT-162). */
export function gapRows(logs: readonly SyncLogEntry[], spaces: readonly Space[], now: Date): GapRow[] {
  return [...unmappedUnits(logs, now).values()]
    .map((l) => ({
      unit_code: l.unit_code as string,
      logged_at: new Date(l.logged_at).toISOString(),
      candidate_space_codes: spacesNamed(spaces, l.unit_name as string).map((s) => s.space_code),
    }))
    .sort((a, b) => a.unit_code.localeCompare(b.unit_code));
}

export interface MissingEmailRow {
  tenant_code: string;
  lease_code: string | null;
  logged_at: string;
}

/** list_missing_pms_emails' rows: codes only (AGT-172, AGT-173). */
export const missingEmailRows = (logs: readonly SyncLogEntry[], now: Date): MissingEmailRow[] =>
  [...skippedTenants(logs, now).values()]
    .map((l) => ({
      tenant_code: l.tenant_code as string,
      lease_code: l.lease_code ?? null,
      logged_at: new Date(l.logged_at).toISOString(),
    }))
    .sort((a, b) => a.tenant_code.localeCompare(b.tenant_code));

export interface UnitMappingResult {
  unit_code: string;
  space_code: string;
  uploaded: true;
  resync_requested: true;
  applied_at: string;
}

/** What one person of a tenant came to (AGT-179): never the email itself. */
export type FillOutcome =
  | 'already_has_email'
  | 'written'
  | 'no_directory_match'
  | 'several_directory_matches'
  | 'directory_email_invalid'
  | 'write_failed';

export interface FillResult {
  tenant_code: string;
  lease_code: string;
  outcomes: { person_code: string; outcome: FillOutcome }[];
  /** requested when any email was written (AGT-178); failed when that request failed; not_needed otherwise. */
  lease_resync: 'requested' | 'failed' | 'not_needed';
  filled_at: string;
}

/** A person of the tenant and what the directory offers them, before anything is written. */
export type FillPlan =
  | { person_code: string; outcome: Exclude<FillOutcome, 'written' | 'write_failed'> }
  | {
      person_code: string;
      outcome: 'to_write';
      email: string;
    };

/**
 * Each person of the tenant: already has an email, or the one email of the same-named directory
 * resident(s) (AGT-177), or why not. Several same-named residents with different emails are not guessed between.
 */
export function fillPlan(tenant: Tenant, directory: ReadonlyMap<string, readonly DirectoryResident[]>): FillPlan[] {
  return tenant.persons.map((p): FillPlan => {
    if (present(p.email)) return { person_code: p.person_code, outcome: 'already_has_email' };
    const full = `${p.first_name} ${p.last_name}`;
    const named = (directory.get(normalName(full)) ?? []).filter((r) => sameName(r.name, full) && present(r.email));
    const emails = [...new Set(named.map((r) => normalEmail(r.email as string)))];
    if (emails.length === 0) return { person_code: p.person_code, outcome: 'no_directory_match' };
    if (emails.length > 1) return { person_code: p.person_code, outcome: 'several_directory_matches' };
    const email = (emails[0] as string).trim();
    if (!validEmail(email)) return { person_code: p.person_code, outcome: 'directory_email_invalid' };
    return { person_code: p.person_code, outcome: 'to_write', email };
  });
}

/** The full names of the tenant's persons without an email: what the directory is asked for. */
export const namesToLookUp = (tenant: Tenant) => [
  ...new Set(tenant.persons.filter((p) => !present(p.email)).map((p) => `${p.first_name} ${p.last_name}`)),
];
