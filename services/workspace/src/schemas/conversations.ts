import { cursorQuery, pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import {
  AUTHOR_MAX,
  CONVERSATION_STATUSES,
  FILE_PAGE,
  LIST_PAGE,
  REASON_MAX,
  REDACTION_PAGE,
  REDACTION_STATUSES,
  SESSION_AGENT_MAX,
  SESSION_STATUSES,
  SUGGESTION_DECISIONS,
  TITLE_MAX,
  TURN_KINDS,
  TURN_PAGE,
  TURN_TEXT_MAX,
} from '../domain/conversations.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

export const ConversationStatusName = literals(CONVERSATION_STATUSES, 'active or archived');
export const TurnKindName = literals(
  TURN_KINDS,
  'utterance (speech), lookup (what a read tool looked up), output (saved file marker) or system (bookkeeping)',
);

export const ConversationParams = Type.Object({ id: Uuid });
export const TurnParams = Type.Object({ id: Uuid, seq: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const SuggestionParams = Type.Object({ id: Uuid, projectId: Uuid });

/** A conversation as every read shows it; project_id is absent until it is filed. */
export const Conversation = Type.Object({
  id: Uuid,
  project_id: Type.Optional(Uuid),
  title: Type.String({ description: 'The conversation’s name (PATCH title, or name, renames it)' }),
  status: ConversationStatusName,
  contributes_to_knowledge: Type.Boolean(),
  created_by: PrincipalId,
  turn_count: Type.Integer({ minimum: 0, description: 'Utterance turns only' }),
  utterance_count: Type.Integer({ minimum: 0, description: 'Utterance turns only (the same count as turn_count)' }),
  last_seq: Type.Integer({ minimum: 0, description: 'The seq of the last turn of any kind (0: none yet)' }),
  last_turn_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Conversation = Static<typeof Conversation>;

const Title = Type.String({ maxLength: 1_000, description: `Trimmed; 1 to ${TITLE_MAX} characters` });

/** POST /v1/conversations data (the broker sends {title, contributes_to_knowledge}). */
export const ConversationInput = Type.Object(
  {
    title: Type.Optional(Title),
    name: Type.Optional(Type.String({ maxLength: 1_000, description: 'Another spelling of title' })),
    contributes_to_knowledge: Type.Optional(Type.Boolean({ description: 'Default true' })),
    project_id: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description: 'File it on create (needs editor there); absent or null: unfiled',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConversationInput = Static<typeof ConversationInput>;

/** POST /v1/projects/{id}/conversations data: filed onto the path's project. */
export const ProjectConversationInput = Type.Object(
  {
    title: Type.Optional(Title),
    name: Type.Optional(Type.String({ maxLength: 1_000, description: 'Another spelling of title' })),
    contributes_to_knowledge: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: false },
);

export const ConversationPatch = Type.Object(
  {
    title: Type.Optional(Title),
    name: Type.Optional(Type.String({ maxLength: 1_000, description: 'Another spelling of title' })),
    status: Type.Optional(ConversationStatusName),
    contributes_to_knowledge: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ConversationPatch = Static<typeof ConversationPatch>;

export const ConversationListQuery = Type.Object(
  {
    ...pageQuery(LIST_PAGE),
    status: Type.Optional(ConversationStatusName),
    filed: Type.Optional(Type.Boolean({ description: 'true: only filed; false: only unfiled' })),
  },
  { additionalProperties: false },
);
export const ProjectConversationListQuery = Type.Object(
  { ...pageQuery(LIST_PAGE), status: Type.Optional(ConversationStatusName) },
  { additionalProperties: false },
);

export const MoveInput = Type.Object({ project_id: Uuid }, { additionalProperties: false });

/** A turn. text is null once a redaction destroyed it. */
export const Turn = Type.Object({
  conversation_id: Uuid,
  seq: Type.Integer({ minimum: 1 }),
  turn_kind: TurnKindName,
  author: Type.String(),
  text: Type.Union([Type.String(), Type.Null()], { description: 'null once a redaction destroyed it' }),
  redacted: Type.Boolean(),
  extra: Type.Record(Type.String(), Type.Unknown()),
  written_by: PrincipalId,
  created_at: Timestamp,
});
export type Turn = Static<typeof Turn>;

export const TurnInput = Type.Object(
  {
    text: Type.String({ maxLength: TURN_TEXT_MAX }),
    turn_kind: Type.Optional(TurnKindName),
    author: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: AUTHOR_MAX,
        description: 'Who the turn is by (a principal id, an email, agent:<model>); default the caller',
      }),
    ),
    extra: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'A JSON object (at most 32 KiB); on an output turn, document_id (UUID) with filename, content_type and size_bytes attaches that document',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TurnInput = Static<typeof TurnInput>;

export const TurnListQuery = Type.Object(cursorQuery(TURN_PAGE), { additionalProperties: false });

export const Session = Type.Object({
  id: Uuid,
  conversation_id: Uuid,
  agent: Type.String(),
  status: literals(
    SESSION_STATUSES,
    'active, ended, or expired (no heartbeat for 30 minutes: expire-sessions ended it)',
  ),
  started_by: PrincipalId,
  started_at: Timestamp,
  last_heartbeat_at: Timestamp,
  heartbeats: Type.Integer({ minimum: 0 }),
  ended_at: Type.Union([Timestamp, Type.Null()]),
});
export type Session = Static<typeof Session>;

export const SessionInput = Type.Object(
  {
    agent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: SESSION_AGENT_MAX,
        description: 'Which agent runs it; default the caller',
      }),
    ),
  },
  { additionalProperties: false },
);
export const EmptyInput = Type.Object({}, { additionalProperties: false });

export const Suggestion = Type.Object({
  project_id: Uuid,
  project_name: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  reason: Type.Optional(Type.String()),
});
export const Suggestions = Type.Object({
  conversation_id: Uuid,
  degraded: Type.Boolean({
    description: 'true: the intelligence service was not configured, down or slow; the list is empty',
  }),
  suggestions: Type.Array(Suggestion),
});
export type Suggestions = Static<typeof Suggestions>;

export const ResolveInput = Type.Object(
  { decision: literals(SUGGESTION_DECISIONS, 'accept files the conversation there; dismiss hides the suggestion') },
  { additionalProperties: false },
);
export const Resolution = Type.Object({
  conversation_id: Uuid,
  project_id: Uuid,
  decision: literals(SUGGESTION_DECISIONS),
  resolved_by: PrincipalId,
  resolved_at: Timestamp,
  conversation: Conversation,
});
export type Resolution = Static<typeof Resolution>;

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 30 days before to' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now' })),
  },
  { additionalProperties: false },
);
export const Usage = Type.Object({
  from: Timestamp,
  to: Timestamp,
  conversations: Type.Integer({ description: 'Conversations created or with a turn in [from, to)' }),
  created: Type.Integer({ description: 'Conversations created in the window' }),
  with_turns: Type.Integer({ description: 'Conversations with at least one turn in the window' }),
  turns: Type.Integer({ description: 'Turns appended in the window (every kind)' }),
  utterances: Type.Integer({ description: 'Utterance turns appended in the window' }),
});
export type Usage = Static<typeof Usage>;

export const ConversationFile = Type.Object({
  id: Uuid,
  conversation_id: Uuid,
  project_id: Type.Optional(Uuid),
  document_id: Uuid,
  filename: Type.String(),
  content_type: Type.Union([Type.String(), Type.Null()]),
  size_bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  turn_seq: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  saved_by: PrincipalId,
  created_at: Timestamp,
});
export type ConversationFile = Static<typeof ConversationFile>;
export const FileListQuery = Type.Object(pageQuery(FILE_PAGE), { additionalProperties: false });

export const RedactionInput = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: REASON_MAX, description: 'Why the text must go' })) },
  { additionalProperties: false },
);
export const Redaction = Type.Object({
  id: Uuid,
  conversation_id: Uuid,
  project_id: Type.Optional(Uuid),
  seq: Type.Integer({ minimum: 1 }),
  reason: Type.String(),
  status: literals(REDACTION_STATUSES, 'pending or approved'),
  requested_by: PrincipalId,
  requested_at: Timestamp,
  approved_by: Type.Union([PrincipalId, Type.Null()]),
  approved_at: Type.Union([Timestamp, Type.Null()]),
});
export type Redaction = Static<typeof Redaction>;
export const RedactionListQuery = Type.Object(
  { ...pageQuery(REDACTION_PAGE), status: Type.Optional(literals(REDACTION_STATUSES)) },
  { additionalProperties: false },
);
export const ApprovalInput = Type.Object(
  {
    approval_key: Type.String({
      minLength: 1,
      maxLength: 1_000,
      description: 'The redaction approval key (REDACTION_APPROVAL_KEY); never stored or echoed',
    }),
  },
  { additionalProperties: false },
);
