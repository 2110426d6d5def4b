import { type Static, Type } from '@sinclair/typebox';
import { ROLES } from '../domain/roles.ts';
import { WORKFLOWS } from '../domain/workflows.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

export const WorkflowName = Type.Union(
  WORKFLOWS.map((w) => Type.Literal(w)),
  { description: 'Which task types and statuses the project offers; set once at creation' },
);
export const RoleName = Type.Union(ROLES.map((r) => Type.Literal(r)));

export const CheckinWeekday = Type.Integer({ minimum: 1, maximum: 5, description: '1 (Monday) to 5 (Friday)' });

export const Project = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  workflow: WorkflowName,
  checkin_weekday: Type.Integer(),
  goals: Type.String({ description: 'Legacy free-text goals, kept for older clients' }),
  instructions: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('archived')]),
  contributes_to_knowledge: Type.Boolean(),
  legal_hold: Type.Boolean(),
  template_id: Type.Union([Type.Null(), Uuid]),
  created_by: PrincipalId,
  created_at: Timestamp,
  updated_at: Timestamp,
  role: Type.Union([Type.Null(), RoleName], {
    description: "The caller's membership role; null for a platform admin reading without one",
  }),
});
export type Project = Static<typeof Project>;

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Trimmed; 1 to 200 characters' });
const Text = Type.String({ maxLength: 20_000 });

export const ProjectInput = Type.Object(
  {
    name: Name,
    description: Type.Optional(Text),
    workflow: Type.Optional(WorkflowName),
    template_id: Type.Optional(Uuid),
    instructions: Type.Optional(Text),
    checkin_weekday: Type.Optional(CheckinWeekday),
  },
  { additionalProperties: false },
);
export type ProjectInput = Static<typeof ProjectInput>;
