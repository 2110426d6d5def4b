import { Envelope, OptionalDataCommand, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { recordVisit } from '../commands/visits.ts';
import { ACTIVITY_PAGE } from '../domain/digest.ts';
import { AsMemberHeaders, ProjectParams } from '../schemas/common.ts';
import { ActivityListQuery, ActivityRow, Digest, Visit } from '../schemas/feed.ts';
import { listActivity } from '../store/activity.ts';
import { digestFor } from '../store/digests.ts';
import { type Routes, readableProject, route } from './deps.ts';
import './feed-deps.ts';

const tags = ['activity'];

/** The activity feed, visits and the digest (issue 16). */
export const feedRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/activity',
    action: 'use',
    tags,
    summary: "The project's activity feed (viewers), newest first: ids only, one row per feed event",
    description:
      'Every task, goal, check-in, case, handoff, unblock request, decision, data source and conversation event ' +
      'on the project adds a row (kind such as item.created or goal.checked_in, subject_id, actor); views add ' +
      'none. kind narrows to one kind. Page mode: 50 by default, at most 200 (more is 422).',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: ActivityListQuery,
    response: PageEnvelope(ActivityRow),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, query, reply } = input;
      const { project } = await readableProject(deps, input, params.id);
      const page = pageRequest(query, ACTIVITY_PAGE.pageSize);
      const { items, total } = await listActivity(deps.database.db, project.id, page, query.kind);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/visit',
    action: 'use',
    tags,
    summary: "Mark the caller's visit (anyone who reads the project); the next digest counts from it; no data",
    description:
      'Records the feed position now as the caller’s latest visit (it replaces the one before). Archived ' +
      'projects and platform admins reading without a membership may visit. No event and no activity row.',
    params: ProjectParams,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    emptyBody: true,
    response: Envelope(Visit),
    errors: ['project_not_found'],
    run: (ctx, { params }) => recordVisit(ctx, params.id),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/digest',
    action: 'use',
    tags,
    summary: "What happened since the caller's previous visit (viewers): activity counted per kind; no model call",
    description:
      'Counted from the activity feed after the position of the caller’s latest POST .../visit (the whole feed ' +
      'before their first). Cached against the feed position: while no activity row is added and the caller ' +
      'does not visit again, reads answer the same digest (same computed_at); a new row changes it. line is ' +
      'written by the model broker off the read path, after a read found something to say; null until then, ' +
      'and degraded: true when the broker is not configured or failed for these counts.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Digest),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, principal, reply } = input;
      const { project } = await readableProject(deps, input, params.id);
      return reply.envelope(
        await digestFor(deps.database.db, project.id, principal.id, deps.clock(), deps.model !== undefined),
      );
    },
  }),
];
