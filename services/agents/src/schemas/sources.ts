import { Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { ACTIONS, SOURCE_KINDS } from '../domain/sources.ts';
import { Enum } from './common.ts';

export const ActionSourcesInput = Type.Object(
  {
    action: Enum(ACTIONS, 'The tool whose call cited the sources'),
    message: Type.String({
      maxLength: 200_000,
      description:
        'The text the action sent (mail, text, announcement, commit message, pull request body); only the UUIDs in it are kept',
    }),
    sources: Type.Optional(
      Type.Array(
        Type.Object({ kind: Enum(['evidence', 'insight'] as const), id: Uuid }, { additionalProperties: false }),
        { maxItems: 200, description: 'The sources argument of the tool call (optional)' },
      ),
    ),
    run_id: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'The run (wake) the action belongs to' })),
    read_ids: Type.Optional(
      Type.Array(Uuid, {
        maxItems: 2000,
        description: 'Every id the agent read through its tools in this run: a cited id among them is read_in_run',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ActionSourcesInput = Static<typeof ActionSourcesInput>;

export const CitedSource = Type.Object({
  kind: Enum(SOURCE_KINDS, 'evidence or insight as the harness named it; message: a UUID found in the message'),
  id: Uuid,
  read_in_run: Type.Boolean({ description: 'The agent read this id in the same run (it was among read_ids)' }),
});

export const Action = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  action: Enum(ACTIONS),
  run_id: Type.Union([Uuid, Type.Null()]),
  created_at: Timestamp,
  sources: Type.Array(CitedSource),
});
export type Action = Static<typeof Action>;

export const SourceRow = Type.Object({
  action_id: Uuid,
  agent_id: Uuid,
  action: Enum(ACTIONS),
  run_id: Type.Union([Uuid, Type.Null()]),
  kind: Enum(SOURCE_KINDS),
  source_id: Uuid,
  read_in_run: Type.Boolean(),
  created_at: Timestamp,
});
export type SourceRow = Static<typeof SourceRow>;

const page = {
  'pagination[page]': Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  'pagination[pageSize]': Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
};
export const SourcesQuery = Type.Object(page, { additionalProperties: false });

export const OBSERVER_IDS_MAX = 200;
export const ObserverQuery = Type.Object(
  {
    ids: Type.String({
      minLength: 1,
      maxLength: 40_000,
      description: `Comma-separated UUIDs, at most ${OBSERVER_IDS_MAX} (more: 422 too_many_ids)`,
    }),
    ...page,
  },
  { additionalProperties: false },
);

export const ObservedAction = Type.Object({
  ...Action.properties,
  cited: Type.Array(Uuid, { description: 'Which of the query ids this action cited' }),
});
