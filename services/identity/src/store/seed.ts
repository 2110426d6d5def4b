import { readFileSync } from 'node:fs';
import { DEFAULT_DEV_PRINCIPALS, devFid, type Grant, uuidv5 } from '@platform/kit';
import type { Db } from './db.ts';

interface DevFile {
  people: { email: string; given_name?: string; family_name?: string; grants: Grant[] }[];
}

/**
 * Local mode only: the dev principals become people (FID = devFid(email), as every service
 * derives it) with their grants, so the one-click sign-in and the dev header agree. Running it
 * again changes nothing an admin changed since.
 */
export async function seedDevPrincipals(db: Db, file = DEFAULT_DEV_PRINCIPALS) {
  const dev = JSON.parse(readFileSync(file, 'utf8')) as DevFile;
  const people: { email: string; label: string }[] = [];
  await db.transaction().execute(async (trx) => {
    for (const p of dev.people) {
      const fid = devFid(p.email);
      await trx
        .insertInto('people')
        .values({
          fid,
          email: p.email.toLowerCase(),
          email_verified: true,
          first_name: p.given_name ?? '',
          last_name: p.family_name ?? '',
          created_by: 'seed:dev-principals',
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      for (const g of p.grants) {
        await trx
          .insertInto('grants')
          .values({
            // Stable ids, so a re-seed finds the same rows.
            id: uuidv5(`${fid}/${g.role}/${g.scope_type}/${g.scope_id}`, fid),
            principal_id: fid,
            role: g.role,
            scope_type: g.scope_type,
            scope_id: g.scope_id,
            verified: g.verified === true,
            created_by: 'seed:dev-principals',
          })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      people.push({ email: p.email.toLowerCase(), label: [p.given_name, p.family_name].filter(Boolean).join(' ') });
    }
  });
  return people;
}
