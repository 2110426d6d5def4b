import { Envelope } from '@platform/kit';
import { reportPeriod } from '../domain/period.ts';
import { ReportQuery } from '../schemas/routing.ts';
import { Savings } from '../schemas/savings.ts';
import { reportActors } from '../store/people.ts';
import { readSavings } from '../store/savings.ts';
import { utcDay } from '../store/usage-writes.ts';
import { type Routes, route } from './deps.ts';

/** The savings routes (spec 3, Broker). */
export const SAVINGS_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/savings',
    action: 'read_own',
    tags: ['savings'],
    summary: 'Cache and routing savings, by model with baselines, and routing by rule and by family and tier',
    description:
      'from and to are inclusive UTC days (default: this month to today); a malformed day or from after to is 422 ' +
      'bad_period. Platform admins see everyone or the actor they name; others see themselves and the identities ' +
      'they created, and naming anyone else is 403. Net routing savings are gross savings less what grading cost.',
    query: ReportQuery,
    response: Envelope(Savings),
    errors: ['bad_period'],
    handler: async ({ query, principal, reply }, deps) => {
      // Calls relayed just before are counted.
      await deps.usage.settled();
      const period = reportPeriod(query, utcDay(deps.clock()));
      const db = deps.database.db;
      const scope = await reportActors(db, principal, query.actor);
      return reply.envelope(await readSavings(db, period, scope));
    },
  }),
];
