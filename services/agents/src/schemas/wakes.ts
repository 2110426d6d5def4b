import { Command, cursorQuery, OptionalDataCommand, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { Enum } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Why an agent is woken (spec 3: POST .../wake). */
export const WAKE_REASONS = ['comms', 'dream', 'harvest', 'manual'] as const;
export type WakeReason = (typeof WAKE_REASONS)[number];
/** A run's reason: a wake's, or on_demand for a call through POST /v1/agents/on-demand/{slug}. */
export const RUN_REASONS = [...WAKE_REASONS, 'on_demand'] as const;
export type RunReason = (typeof RUN_REASONS)[number];
/** How a run ended: it finished, it failed, or it used every turn of max_turns. */
export const RUN_OUTCOMES = ['completed', 'failed', 'max_turns'] as const;

const Ref = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'What the wake is about (a message id, a date, a job run): with the reason it makes the derived key, so the ' +
    'same reason and ref wake the agent once',
});

export const WakeInput = Type.Object(
  { reason: Enum(WAKE_REASONS, 'comms, dream, harvest or manual'), ref: Type.Optional(Ref) },
  { additionalProperties: false },
);
export const WakeBody = Command(WakeInput);

export const RunInput = Type.Object({ ref: Type.Optional(Ref) }, { additionalProperties: false });
export const RunBody = OptionalDataCommand(RunInput);

/** One wake in an agent's inbox. */
export const InboxItem = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  reason: Enum(WAKE_REASONS),
  ref: Nullable(Type.String()),
  queued_at: Timestamp,
  /** When the harness's drain handed it out; null while it waits. */
  drained_at: Nullable(Timestamp),
});
export type InboxItem = Static<typeof InboxItem>;

/** The answer to a wake: the inbox item, and whether this request queued it. */
export const Wake = Type.Object({
  ...InboxItem.properties,
  queued: Type.Boolean({
    description: 'true: this request queued the wake; false: the same wake (same key) was already in the inbox',
  }),
});
export type Wake = Static<typeof Wake>;

export const InboxQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) },
  { additionalProperties: false },
);

export const RunRecordInput = Type.Object(
  {
    inbox_item_id: Type.Optional(Uuid),
    reason: Type.Optional(Enum(RUN_REASONS, 'The wake’s reason; taken from the inbox item when omitted')),
    started_at: Timestamp,
    finished_at: Timestamp,
    outcome: Enum(RUN_OUTCOMES, 'completed, failed or max_turns (every turn used)'),
    turns: Type.Integer({ minimum: 0, maximum: 10_000 }),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The model the broker answered' })),
    summary: Type.Optional(Type.String({ maxLength: 4000, description: 'A line on what the run did' })),
  },
  { additionalProperties: false },
);
export type RunRecordInput = Static<typeof RunRecordInput>;

export const Run = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  inbox_item_id: Nullable(Uuid),
  reason: Enum(RUN_REASONS),
  started_at: Timestamp,
  finished_at: Timestamp,
  outcome: Enum(RUN_OUTCOMES),
  turns: Type.Integer(),
  model: Nullable(Type.String()),
  summary: Nullable(Type.String()),
  recorded_by: Type.String({ description: 'Who recorded it: agent:<id>, a person’s FID or service:<name>' }),
  created_at: Timestamp,
});
export type Run = Static<typeof Run>;

export const RunsQuery = Type.Object(cursorQuery({ limit: 20, maxLimit: 100 }), { additionalProperties: false });

export const CallSecret = Type.Object({
  agent_id: Uuid,
  slug: Type.String(),
  call_secret_pending: Type.Boolean(),
  secret: Type.Optional(
    Type.String({ description: 'The one-time call secret: in this response only, never stored (only its hash)' }),
  ),
});

export const OnDemandParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) });
export const OnDemandBody = Type.Object(
  { data: Type.Object({ message: Type.String({ minLength: 1, maxLength: 20_000 }) }, { additionalProperties: false }) },
  { additionalProperties: false },
);
export const OnDemandReply = Type.Object({
  reply: Type.String({ description: 'The agent’s answer: one model turn through the broker' }),
  run_id: Uuid,
});
export const OnDemandHeaders = {
  'x-platform-on-demand-secret': Type.Optional(
    Type.String({ description: 'The one-time call secret from POST /v1/agents/{id}/call-secret' }),
  ),
};
