import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeView, createView, projectViews, removeView, reorderViews } from '../commands/views.ts';
import { AsMemberHeaders, Command, ProjectParams } from '../schemas/common.ts';
import { View, ViewInput, ViewOrder, ViewParams, ViewPatch } from '../schemas/views.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['views'];

const FILTERS =
  'Filters are strict on save: an unknown key, a value the project cannot use (an unoffered type or status, a goal not ' +
  'on the project, assignees me) or a list of more than 50 values is 422; repeated values are dropped. Reads are ' +
  'lenient: values no longer usable are left out.';

export const viewRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/projects/:id/views',
    action: 'use',
    tags,
    summary: "The project's saved views in tab order (viewers)",
    description: 'A project created by an old server may have none: the answer is then an empty list.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Type.Array(View)),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      return input.reply.envelope(await projectViews(deps.database.db, project));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/views',
    action: 'use',
    tags,
    summary: 'Save a view after the last tab (editors)',
    description:
      'At most 20 views (422 too_many_views). The name is trimmed, 1 to 60 characters (422 invalid_view_name) and ' +
      `unique ignoring case (422 view_name_taken). group_by defaults to status, sort to position. ${FILTERS} ` +
      'An archived project is 409 project_archived.',
    params: ProjectParams,
    body: Command(ViewInput),
    response: Envelope(View),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'invalid_view_name',
      'invalid_filter',
      'too_many_views',
      'view_name_taken',
    ],
    run: (ctx, { params, body }) => createView(ctx, params.id, body.data),
  }),

  route({
    method: 'PATCH',
    url: '/v1/projects/:id/views/:viewId',
    action: 'use',
    tags,
    summary: 'Change a view (editors), against the version that was read',
    description:
      'Changes only the fields sent; sent filters replace all filters and {} removes them. An older version is 409 ' +
      'stale_version with the current view in errors[0].value. A PATCH that changes nothing answers the view ' +
      `without a new version, event or change number. ${FILTERS}`,
    params: ViewParams,
    body: Command(ViewPatch),
    response: Envelope(View),
    errors: [
      'project_not_found',
      'project_archived',
      'view_not_found',
      'stale_version',
      'invalid_view_name',
      'view_name_taken',
      'invalid_filter',
    ],
    run: (ctx, { params, body }) => changeView(ctx, params.id, params.viewId, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/projects/:id/views/:viewId',
    action: 'use',
    tags,
    summary: 'Delete a view, starting views included (owners); no body; 204',
    params: ViewParams,
    response: Type.Null({ description: 'No content' }),
    status: 204,
    errors: ['project_not_found', 'project_archived', 'view_not_found'],
    run: (ctx, { params }) => removeView(ctx, params.id, params.viewId),
  }),

  route({
    method: 'PUT',
    url: '/v1/projects/:id/views/order',
    action: 'use',
    tags,
    summary: 'Reorder the tabs (owners): view_ids names every view once; answers the views in that order',
    description:
      'A view missing, named twice or unknown is 422 invalid_view_order and the order is unchanged. No version ' +
      'changes; the order the views already have answers them without an event or change number.',
    params: ProjectParams,
    body: Command(ViewOrder),
    response: Envelope(Type.Array(View)),
    errors: ['project_not_found', 'project_archived', 'invalid_view_order'],
    run: (ctx, { params, body }) => reorderViews(ctx, params.id, body.data.view_ids),
  }),
];
