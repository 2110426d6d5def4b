import { type Static, Type } from '@sinclair/typebox';
import { PrincipalId, Timestamp, Uuid } from './common.ts';
import { WorkflowName } from './projects.ts';
import { TaskTypeName } from './tasks.ts';

export const StarterTask = Type.Object(
  {
    type: TaskTypeName,
    title: Type.String({ minLength: 1, maxLength: 200, description: 'Trimmed; 1 to 200 characters' }),
    body: Type.Optional(Type.String({ maxLength: 20_000 })),
  },
  { additionalProperties: false },
);

export const Template = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  workflow: WorkflowName,
  builtin: Type.Boolean(),
  starter_tasks: Type.Array(
    Type.Object({ type: TaskTypeName, title: Type.String(), body: Type.Optional(Type.String()) }),
  ),
  created_by: PrincipalId,
  created_at: Timestamp,
});
export type Template = Static<typeof Template>;

export const TemplateInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Trimmed; 1 to 200 characters' }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    workflow: Type.Optional(WorkflowName),
    starter_tasks: Type.Optional(
      Type.Array(StarterTask, {
        maxItems: 50,
        description: 'Tasks a project created from the template starts with; each type must be one the workflow offers',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TemplateInput = Static<typeof TemplateInput>;
