import type { Principal } from '@platform/kit';

/**
 * Who may call what (spec 1, Vendors authentication). Plain functions over the principal the
 * authenticator produced; routes ask them and turn a refusal into 401 or 403.
 */
export interface CallerPolicy {
  /** VENDORS_ACCESS_AUD: the internal application employees sign in to at the access gateway. */
  internalAudience?: string;
  /** VENDORS_PORTAL_ACCESS_AUD: the vendor portal firm contacts sign in to. */
  portalAudience?: string;
  /** VENDORS_EDITORS, lower-case: the employees who may change vendors. */
  editors: readonly string[];
}

/**
 * - employee: an access-gateway token for the internal application;
 * - portal_contact: an access-gateway token for the vendor portal;
 * - service: another platform service with the vendors service token, on behalf of a person;
 * - dev_person: a person named by the local dev header (only with DEV_AUTH=1), who is an
 *   employee on the internal routes and a contact on the portal;
 * - unknown: anything else (a gateway audience of neither application, a service with no person).
 */
export type CallerKind = 'employee' | 'portal_contact' | 'service' | 'dev_person' | 'unknown';

export function callerKind(p: Principal, policy: CallerPolicy): CallerKind {
  if (p.via === 'service_token') return p.kind === 'person' ? 'service' : 'unknown';
  if (p.via === 'gateway') {
    if (policy.internalAudience !== undefined && p.app === policy.internalAudience) return 'employee';
    if (policy.portalAudience !== undefined && p.app === policy.portalAudience) return 'portal_contact';
    return 'unknown';
  }
  // The vendors authenticator yields a person without `via` only from the dev header.
  return p.kind === 'person' ? 'dev_person' : 'unknown';
}

export type Decision =
  | { allowed: true }
  | { allowed: false; refusal: 'unauthenticated' | 'forbidden'; message: string };

const ALLOWED: Decision = { allowed: true };
const unauthenticated = (message: string): Decision => ({ allowed: false, refusal: 'unauthenticated', message });
const forbidden = (message: string): Decision => ({ allowed: false, refusal: 'forbidden', message });

const NO_PROOF = 'Missing or invalid credentials';
const PORTAL_ONLY = 'A vendor-portal token is accepted only on /v1/vendor-portal/ routes';

/** Reads of the directory: employees, and services on behalf of a person (VEN-045, VEN-050). */
export function mayRead(p: Principal | null, policy: CallerPolicy): Decision {
  if (!p) return unauthenticated(NO_PROOF);
  switch (callerKind(p, policy)) {
    case 'employee':
    case 'dev_person':
    case 'service':
      return ALLOWED;
    case 'portal_contact':
      return unauthenticated(PORTAL_ONLY);
    default:
      return unauthenticated(NO_PROOF);
  }
}

/** Commands: employees listed in VENDORS_EDITORS only; services never (VEN-046, VEN-047, VEN-051). */
export function mayChange(p: Principal | null, policy: CallerPolicy): Decision {
  if (!p) return unauthenticated(NO_PROOF);
  switch (callerKind(p, policy)) {
    case 'employee':
    case 'dev_person':
      return p.email !== undefined && policy.editors.includes(p.email.toLowerCase())
        ? ALLOWED
        : forbidden('Only employees listed in VENDORS_EDITORS may change vendors');
    case 'service':
      return forbidden('A platform service may read vendors but never change them');
    case 'portal_contact':
      return unauthenticated(PORTAL_ONLY);
    default:
      return unauthenticated(NO_PROOF);
  }
}

/**
 * The vendor portal: a contact's own portal token, a dev-header person, or a service acting for
 * the contact it names (VEN-048, VEN-053). An internal-application token is scoped to that
 * application and is no proof here. Returns the email to look the contact up by, if any.
 */
export function portalCaller(
  p: Principal | null,
  policy: CallerPolicy,
): { allowed: true; email: string | undefined } | Exclude<Decision, { allowed: true }> {
  if (!p) return { allowed: false, refusal: 'unauthenticated', message: NO_PROOF };
  switch (callerKind(p, policy)) {
    case 'portal_contact':
    case 'dev_person':
    case 'service':
      return { allowed: true, email: p.email?.toLowerCase() };
    case 'employee':
      return {
        allowed: false,
        refusal: 'unauthenticated',
        message: 'An internal-application token is not accepted on /v1/vendor-portal/ routes',
      };
    default:
      return { allowed: false, refusal: 'unauthenticated', message: NO_PROOF };
  }
}
