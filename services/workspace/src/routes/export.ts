import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { requireRole } from '../domain/roles.ts';
import { AsMemberHeaders, ProjectParams, Timestamp } from '../schemas/common.ts';
import { Pack } from '../schemas/pack.ts';
import { exportProject } from '../store/export.ts';
import { readPack } from '../store/packs.ts';
import { type Routes, readableProject, route } from './deps.ts';
import './feed-deps.ts';

const ProjectExport = Type.Object({
  format: Type.Literal('workspace.project_export.v1'),
  exported_at: Timestamp,
  project: Type.Unknown({ description: 'The project row as stored' }),
  tables: Type.Record(Type.String(), Type.Array(Type.Unknown()), {
    description:
      "Every table holding the project's rows, by name, each row as stored (snake_case columns), in primary-key order",
  }),
});

/** Export and the context pack (issue 16). */
export const exportRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/export',
    action: 'use',
    tags: ['export'],
    summary: 'Everything the project holds, as one JSON document (editors and owners; viewers 403)',
    description:
      'One consistent snapshot: the project row and, table by table, every row of the project (tasks with ' +
      'their versions and change log, goals, check-ins, views, members, join requests, decisions, data sources, ' +
      'the activity feed, cases, handoffs, unblock requests, conversations and their turns…). Left out: per-person ' +
      'state (visits, digests, notifications) and what is derived (the context pack, the feed’s heads).',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(ProjectExport),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, reply } = input;
      const { project, access } = await readableProject(deps, input, params.id);
      requireRole(access, 'editor', 'read');
      const exported_at = deps.clock().toISOString();
      const { project: row, tables } = await exportProject(deps.database.db, project.id);
      return reply.envelope({ format: 'workspace.project_export.v1' as const, exported_at, project: row, tables });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/pack',
    action: 'use',
    tags: ['context pack'],
    summary: "The project's context pack (viewers): its standing context and a model-written summary; stale flag",
    description:
      'Built off the read path by the summary writer: active goals with their latest check-in, approved ' +
      'decisions, data sources, task counts and a short summary through the model broker. stale: true after any ' +
      'later activity (a check-in included) or change number, until the next build; before the first build the ' +
      'content is read now and built_at is null. No model call on this read; degraded: true when no summary ' +
      'could be written.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Pack),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { params, reply } = input;
      const { project } = await readableProject(deps, input, params.id);
      return reply.envelope(await readPack(deps.database.db, project, deps.model !== undefined));
    },
  }),
];
