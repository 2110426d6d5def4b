import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { saveTemplate } from '../commands/templates.ts';
import { Command } from '../schemas/common.ts';
import { Template, TemplateInput } from '../schemas/templates.ts';
import { listTemplates } from '../store/templates.ts';
import { type Routes, route } from './deps.ts';

const tags = ['projects'];

export const templateRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/project-templates',
    action: 'use',
    tags,
    summary:
      'Discovery: project templates, the two built-ins (one per workflow) first, then saved ones; each carries its workflow',
    query: Type.Object({ ...pageQuery({ pageSize: 50, maxPageSize: 200 }) }, { additionalProperties: false }),
    response: PageEnvelope(Template),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 50);
      const { items, total } = await listTemplates(deps.database.db, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/project-templates',
    action: 'use',
    tags,
    summary:
      'Save a project template (any signed-in person): its workflow (product_development unless it names general) is the one its projects get; starter tasks must use types that workflow offers',
    body: Command(TemplateInput),
    response: Envelope(Template),
    status: 201,
    errors: ['invalid_name', 'unoffered_type'],
    run: (ctx, { body }) => saveTemplate(ctx, body.data),
  }),
];
