import { type Static, Type } from '@sinclair/typebox';
import { STATUS_ACTIONS } from '../domain/projects.ts';
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

/** PATCH /v1/projects/{id}: owners; workflow is set once at creation, so sending it is 422 (unknown property). */
export const ProjectPatch = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Text),
    instructions: Type.Optional(Text),
    checkin_weekday: Type.Optional(CheckinWeekday),
    goals: Type.Optional(Type.String({ maxLength: 20_000, description: 'Legacy free-text goals (older clients)' })),
  },
  { additionalProperties: false },
);
export type ProjectPatch = Static<typeof ProjectPatch>;

export const StatusActionName = Type.Union(
  STATUS_ACTIONS.map((a) => Type.Literal(a)),
  {
    description:
      'archive / restore (status), withdraw_from_knowledge / contribute_to_knowledge (contributes_to_knowledge), legal_hold / release_legal_hold (legal_hold)',
  },
);

export const StatusInput = Type.Object({ action: StatusActionName }, { additionalProperties: false });
export type StatusInput = Static<typeof StatusInput>;

/** A project as the gallery shows it to any signed-in person: what it is, not what it holds. */
export const GalleryProject = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  workflow: WorkflowName,
  member_count: Type.Integer(),
  role: Type.Union([Type.Null(), RoleName], { description: "The caller's membership role; null when not a member" }),
  join_request_pending: Type.Boolean({ description: 'Whether the caller has a pending join request' }),
  created_at: Timestamp,
});
export type GalleryProject = Static<typeof GalleryProject>;
