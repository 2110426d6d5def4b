import { defineEvents, type EventOf, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

const Grant = Type.Object({
  grant_id: Uuid,
  principal_id: Type.String({ description: "The person's fid" }),
  role: Type.String(),
  scope_type: Type.String({ description: 'global or building' }),
  scope_id: Type.String({ description: '"*" for a global grant, else the building' }),
});

/** Identity's events: people and their grants. They carry ids, never an email or a name. */
export const events = defineEvents('identity', {
  'person.created': { description: 'A person was added', payload: Type.Object({ fid: Type.String() }) },
  'person.updated': {
    description: "A person's fields changed (which ones, not their values)",
    payload: Type.Object({ fid: Type.String(), fields: Type.Array(Type.String()) }),
  },
  'person.password_set': { description: "A person's password was set", payload: Type.Object({ fid: Type.String() }) },
  'grant.added': { description: 'A role was granted at a scope', payload: Grant },
  'grant.removed': { description: 'A grant was removed', payload: Grant },
});

export type IdentityEvent = EventOf<typeof events>;
