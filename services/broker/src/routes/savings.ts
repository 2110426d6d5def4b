import { Envelope, type Principal } from '@platform/kit';
import { reportPeriod } from '../domain/period.ts';
import { ReportQuery } from '../schemas/routing.ts';
import { Savings } from '../schemas/savings.ts';
import { reportActors } from '../store/people.ts';
import { readSavings } from '../store/savings.ts';
import { utcDay } from '../store/usage-writes.ts';
import type { RouteModule } from './deps.ts';
import { reader } from './deps.ts';

/** The savings routes (spec 3, Broker). */
export const savingsRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/savings',
    {
      preValidation: reader('read_own'),
      schema: {
        tags: ['savings'],
        summary: 'Cache and routing savings, by model with baselines, and routing by rule and by family and tier',
        description:
          'from and to are inclusive UTC days (default: this month to today); a malformed day or from after to is 422 ' +
          'bad_period. Platform admins see everyone or the actor they name; others see themselves and the identities ' +
          'they created, and naming anyone else is 403. Net routing savings are gross savings less what grading cost.',
        querystring: ReportQuery,
        response: { 200: Envelope(Savings) },
      },
    },
    async (req, reply) => {
      // Calls relayed just before are counted.
      await deps.usage.settled();
      const period = reportPeriod(req.query, utcDay(deps.clock()));
      const db = deps.database.db;
      const principal = req.principal as Principal;
      const scope = await reportActors(db, principal, req.query.actor);
      return reply.envelope(await readSavings(db, period, scope));
    },
  );
};
