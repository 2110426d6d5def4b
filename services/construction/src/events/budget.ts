import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

/** Events of a project's budget (ids, categories and amounts; never people's names or emails). */
export const BUDGET_EVENTS = {
  'development_project.budget_line_set': {
    description: 'A budget line was added for a category or its budget changed (previous null: the line is new)',
    payload: Type.Object({
      project_id: Uuid,
      category: Type.String(),
      budget_minor: Type.Integer(),
      previous_minor: Type.Union([Type.Integer(), Type.Null()]),
      actor_fid: Type.String(),
    }),
  },
  'development_project.cost_recorded': {
    description: 'A cost event (committed or actual) was recorded; reverses_id names the event it reverses',
    payload: Type.Object({
      project_id: Uuid,
      cost_event_id: Uuid,
      category: Type.String(),
      kind: Type.String(),
      amount_minor: Type.Integer(),
      reverses_id: Type.Union([Uuid, Type.Null()]),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
