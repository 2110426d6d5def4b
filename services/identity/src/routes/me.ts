import { Envelope, type Principal } from '@platform/kit';
import { Authz } from '../schemas/grants.ts';
import { Profile } from '../schemas/people.ts';
import { findPerson } from '../store/people.ts';
import { type RouteModule, reader } from './deps.ts';

const tags = ['me'];

/** The two routes every client calls after sign-in (spec 2, "Client sign-in contract"). */
export const meRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/me/profile',
    {
      preValidation: reader('profile.read'),
      schema: {
        tags,
        summary: "The signed-in person's profile; unset name parts are empty strings; a machine client gets 403",
        response: { 200: Envelope(Profile) },
      },
    },
    async (req, reply) => {
      const p = req.principal as Principal;
      const person = await findPerson(deps.database.db, p.id);
      // A valid token for a person this store does not know (deleted, or another issuer's sub).
      const profile = person
        ? { fid: person.fid, email: person.email, email_verified: person.email_verified, name: person.name }
        : { fid: p.id, email: p.email ?? '', email_verified: false, name: { first: '', last: '' } };
      return reply.envelope(profile);
    },
  );

  app.get(
    '/v1/authz/me',
    {
      preValidation: reader('authz.read'),
      schema: {
        tags,
        summary: 'What may I do: the bearer’s id, kind and actions per scope (global scope_id is *)',
        response: { 200: Envelope(Authz) },
      },
    },
    async (req, reply) => {
      const p = req.principal as Principal;
      return reply.envelope({ fid: p.id, kind: p.kind, can: deps.matrix.canEntries(p) });
    },
  );
};
