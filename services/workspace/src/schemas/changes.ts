import { type Static, Type } from '@sinclair/typebox';
import { Task } from './tasks.ts';

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,19}$',
        description: 'The seq of the previous answer: a whole number that fits a 64-bit counter',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Changes = Type.Object({
  seq: Type.Integer({ description: 'The latest change number of the project' }),
  items: Type.Array(Task, {
    description:
      'Tasks changed after since (archived included), once each, earliest change first, at most 500; empty without since or when reset',
  }),
  structure_changed: Type.Boolean({ description: 'Goals, check-ins, views or project settings changed after since' }),
  reset: Type.Boolean({
    description:
      'Reload all tasks: positions renumbered after since, more than 500 tasks changed, or since ahead of seq',
  }),
});
export type Changes = Static<typeof Changes>;
