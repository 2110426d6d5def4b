import { Envelope, unprocessable } from '@platform/kit';
import { type ChangeVerdict, judgeSince, MAX_SEQ } from '../domain/changes.ts';
import { Changes, ChangesQuery } from '../schemas/changes.ts';
import { AsMemberHeaders, ProjectParams } from '../schemas/common.ts';
import { changesSince } from '../store/changes.ts';
import { type RouteModule, readableProject, reader } from './deps.ts';

const tags = ['change following'];

/** since: a whole number that fits a 64-bit counter, else 422 invalid_since. */
function parseSince(raw: string | undefined): bigint | null {
  if (raw === undefined) return null;
  const since = /^[0-9]+$/.test(raw) ? BigInt(raw) : -1n;
  if (since < 0n || since > MAX_SEQ) {
    throw unprocessable(
      'invalid_since',
      'since must be a whole number that fits a 64-bit counter',
      'querystring/since',
    );
  }
  return since;
}

export const changeRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/projects/:id/changes',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary:
          'Change following: call without since for seq, load tasks, then call with since = the last seq and merge; reload all when reset',
        headers: AsMemberHeaders,
        params: ProjectParams,
        querystring: ChangesQuery,
        response: { 200: Envelope(Changes) },
      },
    },
    async (req, reply) => {
      const since = parseSince(req.query.since);
      await readableProject(deps, req, req.params.id);
      const { counters, items, more } = await changesSince(deps.database.db, req.params.id, since);
      const seq = Number(counters.seq);
      if (since === null) return reply.envelope({ seq, items: [], structure_changed: false, reset: false });
      const verdict: ChangeVerdict = judgeSince(since, counters);
      const reset = verdict.reset || more;
      return reply.envelope({ seq, items: reset ? [] : items, structure_changed: verdict.structure_changed, reset });
    },
  );
};
