import { randomUUID } from 'node:crypto';
import { type CommandScope, conflict, emit, notFound } from '@platform/kit';
import type { PersonInput } from '../schemas/people.ts';
import { insertPerson, publicPerson, updatePerson } from '../store/people.ts';

export const SERVICE = 'identity';

/** Adds a person; the email is theirs alone (409 email_taken). Events carry the id, never the email. */
export async function createPerson(ctx: CommandScope, input: PersonInput) {
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
  await emit(ctx.trx, SERVICE, [{ type: 'person.created', data: { fid } }], ctx.now);
  return publicPerson(person);
}

export async function setName(ctx: CommandScope, fid: string, name: { first: string; last: string }) {
  const person = await updatePerson(ctx.trx, fid, { first_name: name.first, last_name: name.last }, ctx.now);
  if (!person) throw notFound('Person');
  await emit(ctx.trx, SERVICE, [{ type: 'person.updated', data: { fid, fields: ['name'] } }], ctx.now);
  return publicPerson(person);
}

/** The hash is computed before the transaction opens: scrypt is slow on purpose. */
export async function setPasswordHash(ctx: CommandScope, fid: string, passwordHash: string) {
  const person = await updatePerson(ctx.trx, fid, { password_hash: passwordHash }, ctx.now);
  if (!person) throw notFound('Person');
  await emit(ctx.trx, SERVICE, [{ type: 'person.password_set', data: { fid } }], ctx.now);
  return publicPerson(person);
}
