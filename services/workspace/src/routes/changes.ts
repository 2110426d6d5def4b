import { Envelope, unprocessable } from '@platform/kit';
import { type ChangeVerdict, judgeSince, MAX_SEQ } from '../domain/changes.ts';
import { Changes, ChangesQuery } from '../schemas/changes.ts';
import { AsMemberHeaders, ProjectParams } from '../schemas/common.ts';
import { changesSince } from '../store/changes.ts';
import { type Routes, readableProject, route } from './deps.ts';

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

export const changeRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/changes',
    action: 'use',
    tags,
    summary:
      'Change following: call without since for seq, load tasks, then call with since = the last seq and merge; reload all when reset',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: ChangesQuery,
    response: Envelope(Changes),
    errors: ['invalid_since', 'project_not_found'],
    handler: async (input, deps) => {
      const since = parseSince(input.query.since);
      await readableProject(deps, input, input.params.id);
      const { counters, items, more } = await changesSince(deps.database.db, input.params.id, since);
      const seq = Number(counters.seq);
      if (since === null) return input.reply.envelope({ seq, items: [], structure_changed: false, reset: false });
      const verdict: ChangeVerdict = judgeSince(since, counters);
      const reset = verdict.reset || more;
      return input.reply.envelope({
        seq,
        items: reset ? [] : items,
        structure_changed: verdict.structure_changed,
        reset,
      });
    },
  }),
];
