import { Envelope } from '@platform/kit';
import { Authz } from '../schemas/grants.ts';
import { Profile } from '../schemas/people.ts';
import { findPerson } from '../store/people.ts';
import { module, type Routes, route } from './deps.ts';

const tags = ['me'];

/** The two routes every client calls after sign-in (spec 2, "Client sign-in contract"). */
export const ME_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/me/profile',
    action: 'profile.read',
    tags,
    summary: "The signed-in person's profile; unset name parts are empty strings; a machine client gets 403",
    response: Envelope(Profile),
    handler: async ({ principal: p, reply }, deps) => {
      const person = await findPerson(deps.database.db, p.id);
      const profile = person
        ? { fid: person.fid, email: person.email, email_verified: person.email_verified, name: person.name }
        : { fid: p.id, email: p.email ?? '', email_verified: false, name: { first: '', last: '' } };
      return reply.envelope(profile);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/authz/me',
    action: 'authz.read',
    tags,
    summary: 'What may I do: the bearer’s id, kind and actions per scope (global scope_id is *)',
    response: Envelope(Authz),
    handler: async ({ principal: p, reply }, deps) =>
      reply.envelope({ fid: p.id, kind: p.kind, can: deps.matrix.canEntries(p) }),
  }),
];

export const meRoutes = module(ME_ROUTES);
