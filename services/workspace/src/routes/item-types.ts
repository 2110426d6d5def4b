import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { TASK_TYPES, TYPE_DESCRIPTORS, WORKFLOW_DEFS } from '../domain/workflows.ts';
import { AsMemberHeaders, ProjectParams } from '../schemas/common.ts';
import { CategoryName, LegacyKindName, TaskTypeName } from '../schemas/tasks.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['items'];

const TypeField = Type.Object({
  key: Type.String(),
  label: Type.String(),
  placeholder: Type.String(),
  required: Type.Literal(false),
});

/** How a client shows a type: hints for the title and body, and the few fields the body cannot hold. */
export const TypeDescriptor = Type.Object({
  type: TaskTypeName,
  kind: LegacyKindName,
  name: Type.String(),
  title_hint: Type.String(),
  body_label: Type.String(),
  body_hint: Type.String(),
  fields: Type.Array(TypeField, {
    description: 'Only what the body cannot hold (today the answer to a question); all optional',
  }),
});

export const StatusDescriptor = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: CategoryName,
  description: Type.String({ description: 'One line' }),
});

export const itemTypeRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/item-types',
    action: 'use',
    tags,
    summary: 'All company-wide task types in picker order, with their descriptors',
    response: Envelope(Type.Array(TypeDescriptor)),
    handler: async ({ reply }) => reply.envelope(TASK_TYPES.map((t) => TYPE_DESCRIPTORS[t])),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/item-types',
    action: 'use',
    tags,
    summary: "The types the project's workflow offers, in picker order",
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Type.Array(TypeDescriptor)),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      return input.reply.envelope(WORKFLOW_DEFS[project.workflow].types.map((t) => TYPE_DESCRIPTORS[t]));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/statuses',
    action: 'use',
    tags,
    summary: "The statuses the project's workflow offers, in picker order, each with a one-line description",
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    response: Envelope(Type.Array(StatusDescriptor)),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      return input.reply.envelope([...WORKFLOW_DEFS[project.workflow].statuses]);
    },
  }),
];
