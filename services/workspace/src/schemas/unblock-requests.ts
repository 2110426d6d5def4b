import { pageQuery } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import {
  ANSWER_KINDS,
  INPUT_SOURCES,
  OPTIONS_MAX,
  SOURCES,
  UNBLOCK_ACTIONS,
  UNBLOCK_LIMITS,
  UNBLOCK_PAGE,
  UNBLOCK_STATUSES,
  WAITING_TYPES,
} from '../domain/unblock-requests.ts';
import { DateString, PrincipalId, Timestamp, Uuid } from './common.ts';

export const UnblockParams = Type.Object({ id: Uuid, requestId: Uuid });

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const nullable = <T extends TSchema>(s: T, description?: string) =>
  Type.Union([Type.Null(), s], description ? { description } : {});

export const UnblockStatusName = literals(UNBLOCK_STATUSES, 'open, answered, resolved, withdrawn or superseded');
export const AnswerKindName = literals(ANSWER_KINDS, 'How to answer: choice, value, document, decision or explanation');

export const WaitingRecord = Type.Object(
  { type: literals(WAITING_TYPES, 'task, goal or handoff'), id: Uuid },
  { additionalProperties: false, description: 'The record waiting on the answer, on the same project' },
);

export const Answer = Type.Object({
  answer: Type.String(),
  answered_by: PrincipalId,
  answered_at: Timestamp,
  sent_back_at: nullable(Timestamp, 'Set when the asker sent this answer back; the answer is kept'),
  sent_back_reason: nullable(Type.String()),
});
export type Answer = Static<typeof Answer>;

export const UnblockRequest = Type.Object({
  id: Uuid,
  project_id: Uuid,
  asker: PrincipalId,
  recipient: PrincipalId,
  needed: Type.String({ description: 'What is needed' }),
  why_now: Type.String(),
  waiting_record: WaitingRecord,
  answer_kind: AnswerKindName,
  options: Type.Array(Type.String(), { description: 'The options of a choice; empty for the other kinds' }),
  due_on: nullable(DateString),
  snoozed_until: nullable(Timestamp, 'Hidden from the personal queue until then; the due date is unchanged'),
  ranking_reason: Type.String({ description: 'Why the card ranks where it does in the queue' }),
  source: literals(SOURCES, 'person, or handoff (opened by a handoff changes request)'),
  status: UnblockStatusName,
  answer: nullable(Answer, 'The answer waiting for confirmation or confirmed; null while open'),
  answers: Type.Array(Answer, { description: 'Every answer given, oldest first, sent-back ones included' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  closed_at: nullable(Timestamp, 'When it was resolved, withdrawn or superseded'),
});
export type UnblockRequest = Static<typeof UnblockRequest>;

export const UnblockInput = Type.Object(
  {
    recipient: PrincipalId,
    needed: Type.String({ description: `Trimmed; 1 to ${UNBLOCK_LIMITS.needed} characters` }),
    why_now: Type.String({ description: `Trimmed; 1 to ${UNBLOCK_LIMITS.whyNow} characters` }),
    waiting_record: WaitingRecord,
    answer_kind: AnswerKindName,
    options: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: OPTIONS_MAX,
        description: `A choice: 2 to ${OPTIONS_MAX} options, each 1 to ${UNBLOCK_LIMITS.option} characters`,
      }),
    ),
    due_on: Type.Optional(nullable(DateString)),
    snoozed_until: Type.Optional(nullable(Timestamp, 'A later time: the card starts hidden until then')),
    ranking_reason: Type.Optional(
      Type.String({
        description: `Trimmed; 1 to ${UNBLOCK_LIMITS.rankingReason} characters; default: the due date, else the day asked`,
      }),
    ),
    source: Type.Optional(literals(INPUT_SOURCES, 'person (default); agent is refused (422 agent_source_refused)')),
  },
  { additionalProperties: false },
);
export type UnblockInput = Static<typeof UnblockInput>;

export const UnblockActionInput = Type.Object(
  {
    action: literals(
      UNBLOCK_ACTIONS,
      'answer (the recipient: open to answered, with answer); confirm (the asker: answered to resolved); ' +
        'send_back (the asker: answered to open, the answer kept; optional reason); withdraw (the asker: open or ' +
        'answered to withdrawn); snooze (the asker or the recipient: until a later time, or null to wake it)',
    ),
    answer: Type.Optional(Type.String({ description: `answer: trimmed, 1 to ${UNBLOCK_LIMITS.answer} characters` })),
    reason: Type.Optional(Type.String({ maxLength: UNBLOCK_LIMITS.answer, description: 'send_back: why' })),
    until: Type.Optional(nullable(Timestamp, 'snooze: hidden until then; null wakes the card')),
  },
  { additionalProperties: false },
);
export type UnblockActionInput = Static<typeof UnblockActionInput>;

const listFilters = {
  status: Type.Optional(UnblockStatusName),
  ...pageQuery(UNBLOCK_PAGE),
};
export const UnblockListQuery = Type.Object(listFilters, { additionalProperties: false });
export type UnblockListQuery = Static<typeof UnblockListQuery>;
export const MyUnblockListQuery = Type.Object(
  {
    include_snoozed: Type.Optional(Type.Boolean({ description: 'true keeps snoozed cards in the queue' })),
    ...pageQuery(UNBLOCK_PAGE),
  },
  { additionalProperties: false },
);
export type MyUnblockListQuery = Static<typeof MyUnblockListQuery>;
