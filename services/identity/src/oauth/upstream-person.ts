import type { Db } from '../store/db.ts';

import { findPersonByEmail } from '../store/people.ts';
import { findLinkedPerson, linkedSub, linkPerson } from '../store/upstream-identities.ts';
import type { UpstreamPerson } from './upstream.ts';

export type Refusal = 'no_email' | 'email_unverified' | 'unknown_person' | 'linked_elsewhere';
export type Match = { fid: string } | { refused: Refusal };

/**
 * The platform person an upstream account signs in as. A stored link of (issuer, sub) decides
 * first, so a person whose email changes upstream stays who they are. Without a link, the
 * upstream must vouch for the email (email_verified) and a person with that email must exist;
 * then the link is stored. Nobody is created here: people are added by a platform admin.
 */
export async function matchUpstreamPerson(db: Db, up: UpstreamPerson, now: Date): Promise<Match> {
  const linked = await findLinkedPerson(db, up.issuer, up.sub);
  if (linked) return { fid: linked };
  if (!up.email) return { refused: 'no_email' };
  if (!up.emailVerified) return { refused: 'email_unverified' };
  const person = await findPersonByEmail(db, up.email);
  if (!person) return { refused: 'unknown_person' };
  // A person already linked to another account there keeps it: whoever holds this email upstream
  // now (a re-issued address) does not take the platform account over.
  if ((await linkedSub(db, up.issuer, person.fid)) !== undefined) return { refused: 'linked_elsewhere' };
  if (await linkPerson(db, up.issuer, up.sub, person.fid, now)) return { fid: person.fid };
  // A concurrent first sign-in stored a link in between: whatever it stored decides.
  const raced = await findLinkedPerson(db, up.issuer, up.sub);
  return raced ? { fid: raced } : { refused: 'linked_elsewhere' };
}
