import { type Principal, unprocessable } from '@platform/kit';
import { identityFid } from '../tokens.ts';

/**
 * The roster's rules (spec 3, People): who an identity is when the broker first sees it, and what
 * a POST /v1/people may say. Every identity is a person, an agent mailbox or a service; agents and
 * services name the person who created them, which groups their spend under that person.
 */
export type IdentityKind = 'person' | 'agent' | 'service';

/** A roster row about to be written on first sight. */
export interface NewIdentity {
  fid: string;
  email: string;
  name: string;
  kind: IdentityKind;
  /** Resolved to the creator's roster FID (or the stable FID of the email) when stored. */
  creator_email?: string;
}

/** Who made a change, as budgets and routing exceptions record it: the caller's email, else their FID. */
export const actorName = (p: Pick<Principal, 'email' | 'id'>) => p.email ?? p.id;

/** The domain under which platform services (service:<name> callers) are rostered. */
export const PLATFORM_SERVICE_DOMAIN = 'service.platform';

/** Until someone POSTs a name, an identity is called by its email's local part. */
export const nameFromEmail = (email: string) => email.slice(0, Math.max(0, email.lastIndexOf('@'))) || email;

/**
 * What the roster records about a caller it has not seen yet, or null when the caller carries
 * nothing to record it by (a service-token call naming an unknown FID and no email).
 * - a service credential's identity (<client_id>@service.broker): a service created by the
 *   credential's owner;
 * - a service-token call on behalf of a mailbox (the harness): an agent;
 * - a platform service without a person (service:<name>): a service <name>@service.platform;
 * - anyone else: a person.
 */
export function rosterEntry(p: Principal): NewIdentity | null {
  if (p.kind === 'service') {
    const name = p.id.replace(/^service:/, '');
    return { fid: p.id, email: `${name}@${PLATFORM_SERVICE_DOMAIN}`, name, kind: 'service' };
  }
  if (!p.email) return null;
  const email = p.email.toLowerCase();
  if (p.credential?.kind === 'service') {
    return {
      fid: p.id,
      email,
      name: p.credential.client_id,
      kind: 'service',
      creator_email: p.credential.owner_email.toLowerCase(),
    };
  }
  const kind: IdentityKind = p.via === 'service_token' ? 'agent' : 'person';
  return { fid: p.id, email, name: nameFromEmail(email), kind };
}

/** The FID an email stands for when the roster does not know it (DECISIONS item 3). */
export const fidOfEmail = (email: string) => identityFid(email.toLowerCase());

/**
 * A person has no creator; an agent or a service may name one, other than itself. Returns the
 * creator email to store (null clears it).
 */
export function creatorFor(kind: IdentityKind, email: string, creatorEmail: string | null | undefined) {
  if (kind === 'person') {
    if (creatorEmail) {
      throw unprocessable(
        'bad_creator',
        'A person has no creator: creator_email is for agents and services',
        'body/data/creator_email',
      );
    }
    return null;
  }
  if (creatorEmail && creatorEmail.toLowerCase() === email.toLowerCase()) {
    throw unprocessable('bad_creator', 'An identity cannot be its own creator', 'body/data/creator_email');
  }
  return creatorEmail ? creatorEmail.toLowerCase() : creatorEmail;
}

/**
 * Which identities a caller may read (usage, budgets, people): platform admins everyone; anyone
 * else themselves and the identities they created.
 */
export type ReadScope = { everyone: true } | { everyone: false; fids: readonly string[] };

export const inScope = (scope: ReadScope, fid: string) => scope.everyone || scope.fids.includes(fid);
