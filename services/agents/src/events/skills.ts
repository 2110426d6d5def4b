import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

const version = {
  skill_id: Uuid,
  version_id: Uuid,
  number: Type.Integer({ description: '1 for the first version' }),
  source: Type.String({ description: 'markdown, document or blob: where the version came from' }),
  actor_fid: Type.String(),
};

/**
 * Events of the skills catalog (spec 3, Agents events). Ids and where a version came from only:
 * never the markdown, a name or a description (AGT-340); a reader wanting the text asks
 * GET /v1/skills/{id}/body with the version id. Skills have no lifetime, run type or reason.
 */
export const SKILL_EVENTS = {
  'skill.created': {
    description: 'A skill was created with its first version',
    payload: Type.Object({ ...version, owner_fid: Type.String() }),
  },
  'skill.versioned': {
    description: 'A skill got another version: agents holding it with a null version_id now use it',
    payload: Type.Object(version),
  },
  'skill.updated': {
    description: "A skill's name, description or category was edited (the names of the changed fields)",
    payload: Type.Object({ skill_id: Uuid, fields: Type.Array(Type.String()), actor_fid: Type.String() }),
  },
} as const satisfies EventSpecs;
