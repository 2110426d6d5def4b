import { Timestamp } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { LOG_KINDS } from '../domain/logs.ts';
import { Enum } from './common.ts';

export const LogInput = Type.Object(
  {
    kind: Enum(LOG_KINDS, 'started, heartbeat, wake, error, skill, info or warn'),
    message: Type.String({
      minLength: 1,
      maxLength: 10_000,
      description: 'The line. For kind skill only the tool’s name is kept: `tool` when sent, else the first word',
    }),
    tool: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[A-Za-z0-9_.:-]+$',
        description: 'kind skill: the tool the agent called; the stored message is this name alone',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LogInput = Static<typeof LogInput>;

export const LogLine = Type.Object({
  id: Type.Integer(),
  kind: Enum(LOG_KINDS),
  message: Type.String(),
  created_at: Timestamp,
});
export type LogLine = Static<typeof LogLine>;

export const LogQuery = Type.Object(
  {
    kind: Type.Optional(Enum(LOG_KINDS, 'Only lines of this kind')),
    after: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the page before' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
export type LogQuery = Static<typeof LogQuery>;
