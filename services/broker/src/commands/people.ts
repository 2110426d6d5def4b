import { creatorFor } from '../domain/people.ts';
import type { Person, PersonInput } from '../schemas/people.ts';
import { ensureCreator, lockByEmail, upsertIdentity } from '../store/people.ts';
import type { CommandCtx } from './context.ts';

/**
 * Creates the identity of an email or changes the fields sent: kind (agent when a new identity
 * names none) and creator_email, which groups its spend under that person (422 bad_creator for a
 * person with a creator, or a self-creator). One row per email whatever the race.
 */
export async function postIdentity(
  { trx, now }: CommandCtx,
  input: PersonInput,
): Promise<{ person: Person; created: boolean }> {
  const email = input.email.toLowerCase();
  const existing = await lockByEmail(trx, email);
  const kind = input.kind ?? existing?.kind ?? 'agent';
  const creatorEmail = creatorFor(kind, email, input.creator_email);
  const creator =
    creatorEmail === undefined || creatorEmail === null
      ? creatorEmail
      : { email: creatorEmail, fid: await ensureCreator(trx, creatorEmail, now) };
  return upsertIdentity(trx, { email, name: input.name, kind, creator }, now);
}
