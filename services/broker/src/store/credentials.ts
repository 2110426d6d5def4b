import type { Selectable } from 'kysely';
import type { CredentialRecord } from '../domain/credentials.ts';
import { identityFid, serviceIdentityEmail } from '../tokens.ts';
import type { Credentials, Db } from './db.ts';

const COLUMNS = [
  'client_id',
  'owner_fid',
  'owner_email',
  'name',
  'kind',
  'secret_hash',
  'enabled',
  'expires_at',
  'secret_set_at',
  'created_at',
  'updated_at',
] as const;

const asDate = (v: unknown) => (v instanceof Date ? v : new Date(v as string));

const toRecord = (r: Pick<Selectable<Credentials>, (typeof COLUMNS)[number]>): CredentialRecord => ({
  client_id: r.client_id,
  owner_fid: r.owner_fid,
  owner_email: r.owner_email,
  name: r.name,
  kind: r.kind as CredentialRecord['kind'],
  secret_hash: r.secret_hash,
  enabled: r.enabled,
  expires_at: r.expires_at == null ? null : asDate(r.expires_at),
  secret_set_at: asDate(r.secret_set_at),
  created_at: asDate(r.created_at),
  updated_at: asDate(r.updated_at),
});

/** The owner's credentials, oldest first. */
export async function listOwnCredentials(db: Db, ownerEmail: string): Promise<CredentialRecord[]> {
  const rows = await db
    .selectFrom('credentials')
    .select(COLUMNS)
    .where('owner_email', '=', ownerEmail)
    .orderBy('created_at')
    .orderBy('client_id')
    .execute();
  return rows.map(toRecord);
}

/** One credential; `forUpdate` locks it for the command's transaction. */
export async function findCredential(
  db: Db,
  clientId: string,
  forUpdate = false,
): Promise<CredentialRecord | undefined> {
  let q = db.selectFrom('credentials').select(COLUMNS).where('client_id', '=', clientId);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

export async function insertCredential(trx: Db, c: CredentialRecord): Promise<void> {
  await trx.insertInto('credentials').values(c).execute();
}

export async function updateCredential(
  trx: Db,
  clientId: string,
  patch: Partial<Pick<CredentialRecord, 'name' | 'enabled' | 'secret_hash' | 'secret_set_at'>> & { updated_at: Date },
): Promise<CredentialRecord> {
  const row = await trx
    .updateTable('credentials')
    .set(patch)
    .where('client_id', '=', clientId)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/**
 * A service credential's identity joins the roster with the credential (same transaction), named
 * after it and grouped under its creator, so budgets and groups see it before its first call.
 */
export async function upsertServiceIdentity(trx: Db, c: CredentialRecord, now: Date): Promise<void> {
  const email = serviceIdentityEmail(c.client_id);
  await trx
    .insertInto('identities')
    .values({
      fid: identityFid(email),
      email,
      name: c.name,
      kind: 'service',
      creator_fid: c.owner_fid,
      creator_email: c.owner_email,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        name: c.name,
        kind: 'service',
        creator_fid: c.owner_fid,
        creator_email: c.owner_email,
        updated_at: now,
      }),
    )
    .execute();
}
