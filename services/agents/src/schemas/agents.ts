import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { AGENT_ROLES } from '../domain/access.ts';
import { DESIRED_STATES, LIFETIMES, MIN_TURNS, RUN_TYPES, STATUSES } from '../domain/agents.ts';
import { Enum, Fid } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Slug = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: '^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$',
  description: 'Lower-case letters, digits and dashes; unique (409 slug_taken)',
});
const Model = Type.String({ minLength: 1, maxLength: 200, description: 'auto, or a broker catalog wire_id' });
export const SkillGrant = Type.Object(
  {
    skill_id: Uuid,
    version_id: Type.Optional(Nullable(Uuid)),
  },
  { additionalProperties: false },
);
const ToolName = Type.String({ minLength: 1, maxLength: 100 });

export const AgentIdParams = Type.Object({ id: Uuid });
export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 63 }) });

/** The fields a create or raw PUT takes. */
const fields = {
  slug: Type.Optional(Slug),
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  instructions: Type.Optional(Nullable(Type.String({ maxLength: 100_000 }))),
  project_id: Type.Optional(Nullable(Uuid)),
  practice: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  conversation_id: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  run_type: Type.Optional(Enum(RUN_TYPES, 'always_on (a running workload) or on_demand (answers calls, no workload)')),
  model: Type.Optional(Model),
  memory_model: Type.Optional(Model),
  harness_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  max_turns: Type.Optional(Type.Integer({ minimum: MIN_TURNS, maximum: 10_000 })),
  skills: Type.Optional(Type.Array(SkillGrant, { maxItems: 100 })),
  tools: Type.Optional(Type.Array(ToolName, { maxItems: 100 })),
  contributes_to_knowledge: Type.Optional(Type.Boolean()),
};

export const AgentInput = Type.Object(
  {
    ...fields,
    lifetime: Type.Optional(Enum(LIFETIMES, 'persistent (default); ephemeral only when an agent creates it')),
  },
  { additionalProperties: false },
);
export type AgentInput = Static<typeof AgentInput>;

/** Raw PUT: name, instructions, project_id, practice and conversation_id not sent are cleared (AGT-015..019). */
export const AgentSave = Type.Object(fields, { additionalProperties: false });
export type AgentSave = Static<typeof AgentSave>;

export const Agent = Type.Object({
  id: Uuid,
  slug: Type.String(),
  name: Nullable(Type.String()),
  instructions: Nullable(Type.String()),
  project_id: Nullable(Uuid),
  practice: Nullable(Type.String()),
  conversation_id: Nullable(Type.String()),
  owner_fid: Fid,
  created_by: Type.String({ description: "The creator's FID, or agent:<id> when an agent created it" }),
  email: Type.String(),
  last_heartbeat_at: Nullable(Timestamp),
  lifetime: Enum(LIFETIMES),
  run_type: Enum(RUN_TYPES),
  status: Enum(STATUSES),
  desired_state: Enum(DESIRED_STATES),
  generation: Type.Integer(),
  observed_generation: Nullable(Type.Integer({ description: 'The generation the runner last applied' })),
  runner_error: Nullable(Type.String({ description: "The runner's last error, cleared by a pass that succeeds" })),
  model: Type.String(),
  memory_model: Type.String(),
  harness_id: Type.String(),
  max_turns: Type.Integer(),
  skills: Type.Array(SkillGrant),
  tools: Type.Array(Type.String()),
  contributes_to_knowledge: Type.Boolean(),
  workspace_conversation_id: Nullable(Type.String()),
  call_secret_pending: Type.Boolean(),
  caller_role: Nullable(Enum(AGENT_ROLES)),
  ttl_at: Nullable(Timestamp),
  parent_id: Nullable(Uuid),
  swarm_id: Nullable(Uuid),
  child_kind: Nullable(Enum(['swarm', 'coding'] as const)),
  repository: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Agent = Static<typeof Agent>;
