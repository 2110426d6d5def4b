import { randomUUID } from 'node:crypto';
import { type CommandScope, conflict, forbidden, notFound } from '@platform/kit';
import { can } from '../domain/permissions.ts';
import type { IdentityEvent } from '../events.ts';
import type { PersonInput } from '../schemas/people.ts';
import type { DB } from '../store/db.ts';
import { grantsOf } from '../store/grants.ts';
import { insertPerson, publicPerson, updatePerson } from '../store/people.ts';

/** What a command runs with: its transaction, caller, clock reading and emit typed by identity's events. */
export type Ctx = CommandScope<DB, IdentityEvent>;

/** Adds a person; the email is theirs alone (409 email_taken). Events carry the id, never the email. */
export async function createPerson(ctx: Ctx, input: PersonInput) {
  const fid = randomUUID();
  const person = await insertPerson(
    ctx.trx,
    {
      fid,
      email: input.email,
      email_verified: input.email_verified ?? false,
      first: input.name?.first ?? '',
      last: input.name?.last ?? '',
    },
    ctx.principal.id,
    ctx.now,
  );
  if (!person) throw conflict('email_taken', 'A person with this email already exists');
  await ctx.emit({ type: 'person.created', data: { fid } });
  return publicPerson(person);
}

export async function setName(ctx: Ctx, fid: string, name: { first: string; last: string }) {
  const person = await updatePerson(ctx.trx, fid, { first_name: name.first, last_name: name.last }, ctx.now);
  if (!person) throw notFound('Person');
  await ctx.emit({ type: 'person.updated', data: { fid, fields: ['name'] } });
  return publicPerson(person);
}

/**
 * The hash is computed before the transaction opens: scrypt is slow on purpose. A platform admin
 * may not set the password of someone holding super_admin (that would be a way to become them).
 */
export async function setPasswordHash(ctx: Ctx, fid: string, passwordHash: string) {
  const grants = await grantsOf(ctx.trx, fid);
  if (grants.some((g) => g.role === 'super_admin') && !can(ctx.principal, 'grants.manage_privileged')) {
    throw forbidden("Only a verified Super Admin may set a Super Admin's password");
  }
  const person = await updatePerson(ctx.trx, fid, { password_hash: passwordHash }, ctx.now);
  if (!person) throw notFound('Person');
  await ctx.emit({ type: 'person.password_set', data: { fid } });
  return publicPerson(person);
}
