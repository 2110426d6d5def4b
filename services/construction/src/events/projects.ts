import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

/** Events of projects and their stages (ids and short values, never emails). */
export const PROJECT_EVENTS = {
  'development_project.created': {
    description: 'A development project was created in initiation with its seven stages',
    payload: Type.Object({ project_id: Uuid, code: Type.String(), kind: Type.String(), actor_fid: Type.String() }),
  },
  'development_project.updated': {
    description: "A project's details changed (the names of the changed fields)",
    payload: Type.Object({ project_id: Uuid, fields: Type.Array(Type.String()), actor_fid: Type.String() }),
  },
  'development_project.status_changed': {
    description: 'A project was put on hold, made active again or cancelled',
    payload: Type.Object({ project_id: Uuid, from: Type.String(), to: Type.String(), actor_fid: Type.String() }),
  },
  'development_project.stage_advanced': {
    description: 'A project moved one stage forward (the stage left and the stage entered, the day)',
    payload: Type.Object({
      project_id: Uuid,
      from_stage: Type.String(),
      to_stage: Type.String(),
      on: Type.String({ format: 'date' }),
      actor_fid: Type.String(),
    }),
  },
  'development_project.awarded': {
    description: 'Leaving award stored the award and wrote the award baseline',
    payload: Type.Object({
      project_id: Uuid,
      baseline_id: Uuid,
      contract_sum_minor: Type.Integer(),
      completion_date: Type.String({ format: 'date' }),
      vendor_id: Type.Union([Uuid, Type.Null()]),
      actor_fid: Type.String(),
    }),
  },
  'development_project.completed': {
    description: 'A project in closeout was completed: it takes no more work',
    payload: Type.Object({ project_id: Uuid, on: Type.String({ format: 'date' }), actor_fid: Type.String() }),
  },
  'development_project.stage_planned': {
    description: "A stage's planned or forecast dates changed (the names of the changed fields)",
    payload: Type.Object({
      project_id: Uuid,
      stage: Type.String(),
      fields: Type.Array(Type.String()),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
