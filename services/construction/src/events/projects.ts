import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

/** Events of projects and their stages (ids and short values, never emails). */
export const PROJECT_EVENTS = {
  'development_project.created': {
    description: 'A development project was created in initiation with its seven stages',
    payload: Type.Object({ project_id: Uuid, code: Type.String(), kind: Type.String(), actor_fid: Type.String() }),
  },
} as const satisfies EventSpecs;
