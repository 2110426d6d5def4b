import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { conflict, forbidden, type Principal, unavailable, unprocessable } from '@platform/kit';
import type { CreateCredential, Credential, IssuedToken } from '../schemas/credentials.ts';
import {
  type CredentialKind,
  type CredentialTokenClaims,
  identityFid,
  serviceIdentityEmail,
  type TokenSigner,
} from '../tokens.ts';

/** The rules of personal and service credentials (spec 3, Broker credential). */

export const NAME_MAX = 100;

/** A stored credential as the rules see it. */
export interface CredentialRecord {
  client_id: string;
  owner_fid: string;
  owner_email: string;
  name: string;
  kind: CredentialKind;
  secret_hash: string;
  enabled: boolean;
  expires_at: Date | null;
  secret_set_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** 96 random bits in hex: lower case, so `<client_id>@service.broker` is a valid, canonical email. */
export const newClientId = () => `bk-${randomBytes(12).toString('hex')}`;

/** 256 random bits: a hash of the secret is as good as a slow KDF, and checks in constant time. */
export const newSecret = () => `bks_${randomBytes(32).toString('base64url')}`;

export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Compares digests of equal length, so the time taken says nothing about the stored hash. */
export function secretMatches(secret: string, storedHash: string | undefined): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  // An unknown client still pays for one comparison, against a hash nothing matches.
  const stored = Buffer.from(storedHash ?? hashSecret(randomBytes(32).toString('hex')), 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored) && storedHash !== undefined;
}

export const isExpired = (c: Pick<CredentialRecord, 'expires_at'>, now: Date) =>
  c.expires_at !== null && c.expires_at.getTime() <= now.getTime();

/** The email the credential's tokens carry: its owner's, or its own identity's for a service credential. */
export const credentialEmail = (c: Pick<CredentialRecord, 'kind' | 'client_id' | 'owner_email'>) =>
  c.kind === 'service' ? serviceIdentityEmail(c.client_id) : c.owner_email;

/** Exactly the credential's own claims: nothing in a token request can change them. */
export function tokenClaims(c: CredentialRecord): CredentialTokenClaims {
  const email = credentialEmail(c);
  return {
    email,
    sub: c.kind === 'service' ? identityFid(email) : c.owner_fid,
    client_id: c.client_id,
    kind: c.kind,
    owner_email: c.owner_email,
  };
}

/**
 * Credentials are minted and managed only by the person themself, signed in at the access gateway
 * or at identity (the platform access token, issue 14.2), or with the dev header locally: a
 * credential token cannot mint its successor, and the shared service token cannot act on
 * anyone's credentials.
 */
export function requireOwnSession(p: Principal): { fid: string; email: string } {
  if (p.via === 'credential' || p.via === 'service_token' || p.kind !== 'person' || !p.email) {
    throw forbidden(
      "Credentials are managed only with the person's own sign-in (access-gateway session or platform access token)",
      'session_required',
    );
  }
  return { fid: p.id, email: p.email.toLowerCase() };
}

export function credentialName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || name.length > NAME_MAX) {
    throw unprocessable('invalid_name', `name must be 1 to ${NAME_MAX} characters after trimming`, '/data/name');
  }
  return name;
}

/** Optional; no latest date; an instant already past would make a credential that can never exchange. */
export function expiryOf(raw: string | null | undefined, now: Date): Date | null {
  if (raw === undefined || raw === null) return null;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || at.getTime() <= now.getTime()) {
    throw unprocessable('invalid_expires_at', 'expires_at must be a time in the future', '/data/expires_at');
  }
  return at;
}

/** Rename and rotate are refused while disabled (spec 3, Broker credential). */
export function requireEnabled(c: CredentialRecord, what: string) {
  if (!c.enabled) throw conflict('credential_disabled', `A disabled credential cannot be ${what}; enable it first`);
}

/** A new token is issued only by an enabled credential that has not expired. */
export function requireIssuing(c: CredentialRecord, now: Date) {
  requireEnabled(c, 'used for new tokens');
  if (isExpired(c, now)) throw conflict('credential_expired', 'This credential has expired and issues no tokens');
}

/** Why the exchange refuses a client, or null when it may have a token. */
export function exchangeRefusal(c: CredentialRecord | undefined, secret: string, now: Date): string | null {
  if (!secretMatches(secret, c?.secret_hash) || !c) return 'Unknown client or wrong secret';
  if (!c.enabled) return 'The credential is disabled';
  if (isExpired(c, now)) return 'The credential has expired';
  return null;
}

/** A credential as the API shows it: never its secret or hash. */
export const toCredential = (c: CredentialRecord, now: Date): Credential => ({
  client_id: c.client_id,
  name: c.name,
  kind: c.kind,
  status: c.enabled ? 'enabled' : 'disabled',
  expires_at: c.expires_at?.toISOString() ?? null,
  expired: isExpired(c, now),
  email: credentialEmail(c),
  secret_set_at: c.secret_set_at.toISOString(),
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

/** A credential's owner: who a credential command acts for (requireOwnSession). */
export type Owner = ReturnType<typeof requireOwnSession>;

/** What a command shows only in its own response: never stored with the idempotency record. */
export interface Shown<T, Once> {
  data: T;
  once: Once;
}

/** A new credential of the owner's, before it is stored. */
export function newCredential(owner: Owner, input: CreateCredential, secret: string, now: Date): CredentialRecord {
  return {
    client_id: newClientId(),
    owner_fid: owner.fid,
    owner_email: owner.email,
    name: credentialName(input.name),
    kind: input.kind ?? 'personal',
    secret_hash: hashSecret(secret),
    enabled: true,
    expires_at: expiryOf(input.expires_at, now),
    secret_set_at: now,
    created_at: now,
    updated_at: now,
  };
}

export const signingUnavailable = () =>
  unavailable('token_signing_unavailable', 'Token signing is not configured (BROKER_SIGNING_KEY is unset)');

export async function issueToken(signer: TokenSigner, c: CredentialRecord, now: Date): Promise<IssuedToken> {
  const t = await signer.sign(tokenClaims(c), now);
  return { ...t, expires_at: new Date(now.getTime() + t.expires_in * 1000).toISOString() };
}
