import { Envelope, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { saveTemplate } from '../commands/templates.ts';
import { Command, CommandHeaders } from '../schemas/common.ts';
import { Template, TemplateInput } from '../schemas/templates.ts';
import { listTemplates } from '../store/templates.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['projects'];

export const templateRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/project-templates',
    {
      preValidation: reader('use'),
      schema: {
        tags,
        summary:
          'Discovery: project templates, the two built-ins (one per workflow) first, then saved ones; each carries its workflow',
        querystring: Type.Object({ ...pageQuery({ pageSize: 50, maxPageSize: 200 }) }, { additionalProperties: false }),
        response: { 200: PageEnvelope(Template) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, 50);
      const { items, total } = await listTemplates(deps.database.db, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.post(
    '/v1/project-templates',
    {
      preValidation: commander('use'),
      schema: {
        tags,
        summary:
          'Save a project template (any signed-in person): its workflow (product_development unless it names general) is the one its projects get; starter tasks must use types that workflow offers',
        headers: CommandHeaders,
        body: Command(TemplateInput),
        response: { 201: Envelope(Template) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => saveTemplate(ctx, req.body.data), 201),
  );
};
