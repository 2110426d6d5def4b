import { notFound } from '@platform/kit';
import {
  type CredentialRecord,
  credentialName,
  hashSecret,
  isExpired,
  issueToken,
  newCredential,
  newSecret,
  type Owner,
  requireEnabled,
  requireIssuing,
  requireOwnSession,
  type Shown,
  signingUnavailable,
  toCredential,
} from '../domain/credentials.ts';
import type { CreateCredential, Credential, IssuedToken } from '../schemas/credentials.ts';
import { findCredential, insertCredential, updateCredential, upsertServiceIdentity } from '../store/credentials.ts';
import type { Db } from '../store/db.ts';
import type { TokenSigner } from '../tokens.ts';
import type { CommandCtx } from './context.ts';

// The credential commands (spec 3, Broker credential): each runs in its command's transaction,
// for the owner's own session (403 session_required otherwise).

/** The caller's own credential, locked for the command; someone else's is as unknown as a missing one. */
async function ownCredential(trx: Db, owner: Owner, clientId: string): Promise<CredentialRecord> {
  const c = await findCredential(trx, clientId, true);
  if (!c || c.owner_email !== owner.email) throw notFound('Credential', 'credential_not_found');
  return c;
}

/** Mints a credential; its secret is shown once. A service credential's identity joins the roster with it. */
export async function createCredential(
  { trx, principal, now }: CommandCtx,
  input: CreateCredential,
): Promise<Shown<Credential, { secret: string }>> {
  const owner = requireOwnSession(principal);
  const secret = newSecret();
  const c = newCredential(owner, input, secret, now);
  await insertCredential(trx, c);
  if (c.kind === 'service') await upsertServiceIdentity(trx, c, now);
  return { data: toCredential(c, now), once: { secret } };
}

/** The old secret stops at once: a leaked secret is what a rotation is for. */
export async function rotateCredential(
  { trx, principal, now }: CommandCtx,
  clientId: string,
  signer: TokenSigner | undefined,
): Promise<Shown<Credential, { secret: string; token: IssuedToken | null }>> {
  const c = await ownCredential(trx, requireOwnSession(principal), clientId);
  requireEnabled(c, 'rotated');
  const secret = newSecret();
  const rotated = await updateCredential(trx, clientId, {
    secret_hash: hashSecret(secret),
    secret_set_at: now,
    updated_at: now,
  });
  const token = signer && !isExpired(rotated, now) ? await issueToken(signer, rotated, now) : null;
  return { data: toCredential(rotated, now), once: { secret, token } };
}

/** Disable or enable; the state it already has changes nothing. */
export async function setCredentialEnabled(
  { trx, principal, now }: CommandCtx,
  clientId: string,
  enabled: boolean,
): Promise<Credential> {
  const c = await ownCredential(trx, requireOwnSession(principal), clientId);
  if (c.enabled === enabled) return toCredential(c, now);
  return toCredential(await updateCredential(trx, clientId, { enabled, updated_at: now }), now);
}

/** A service credential's roster identity takes the new name too. */
export async function renameCredential(
  { trx, principal, now }: CommandCtx,
  clientId: string,
  rawName: string,
): Promise<Credential> {
  const c = await ownCredential(trx, requireOwnSession(principal), clientId);
  requireEnabled(c, 'renamed');
  const name = credentialName(rawName);
  if (name === c.name) return toCredential(c, now);
  const renamed = await updateCredential(trx, clientId, { name, updated_at: now });
  if (renamed.kind === 'service') await upsertServiceIdentity(trx, renamed, now);
  return toCredential(renamed, now);
}

/** POST .../token: a token without showing the secret. */
export async function credentialToken(
  { trx, principal, now }: CommandCtx,
  clientId: string,
  signer: TokenSigner | undefined,
): Promise<Shown<{ client_id: string }, { token: IssuedToken }>> {
  const c = await ownCredential(trx, requireOwnSession(principal), clientId);
  requireIssuing(c, now);
  if (!signer) throw signingUnavailable();
  return { data: { client_id: c.client_id }, once: { token: await issueToken(signer, c, now) } };
}
