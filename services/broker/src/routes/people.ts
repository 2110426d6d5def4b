import {
  Envelope,
  IdempotencyHeaders,
  PageEnvelope,
  type Principal,
  pageMeta,
  pageRequest,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import { creatorFor } from '../domain/people.ts';
import { PeopleQuery, Person, PersonCommand } from '../schemas/people.ts';
import { ensureCreator, listPeople, lockByEmail, readScopeOf, upsertIdentity } from '../store/people.ts';
import { commander, type RouteModule, reader } from './deps.ts';

const tags = ['people'];

/** The roster routes (spec 3, Broker): the auto-provisioned roster; the agents service posts mailboxes. */
export const peopleRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/people',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary:
          'The roster by email: platform admins see everyone, others themselves and what they created. q matches part of the email or name; people_only=true leaves agents and services out',
        querystring: PeopleQuery,
        response: { 200: PageEnvelope(Person) },
      },
    },
    async (req, reply) => {
      const db = deps.database.db;
      const page = pageRequest(req.query, 50);
      const scope = await readScopeOf(db, req.principal as Principal);
      const { items, total } = await listPeople(db, { scope, q: req.query.q, peopleOnly: req.query.people_only }, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.post(
    '/v1/people',
    {
      preValidation: commander('post_people'),
      schema: {
        tags,
        summary:
          'Create the identity of an email (201) or change the fields sent (200): name, kind (agent when a new identity names none) and creator_email, which groups its spend under that person (the service token)',
        headers: IdempotencyHeaders,
        body: PersonCommand,
        response: { 200: Envelope(Person), 201: Envelope(Person) },
      },
    },
    async (req, reply) => {
      const input = req.body.data;
      const email = input.email.toLowerCase();
      const now = deps.clock();
      const result = await runCommand(
        { db: deps.database.db, req, principal: req.principal as Principal },
        async (trx) => {
          const existing = await lockByEmail(trx, email);
          const kind = input.kind ?? existing?.kind ?? 'agent';
          const creatorEmail = creatorFor(kind, email, input.creator_email);
          const creator =
            creatorEmail === undefined || creatorEmail === null
              ? creatorEmail
              : { email: creatorEmail, fid: await ensureCreator(trx, creatorEmail, now) };
          const { person, created } = await upsertIdentity(trx, { email, name: input.name, kind, creator }, now);
          return { status: created ? 201 : 200, data: person };
        },
      );
      return sendCommandResult(reply, result);
    },
  );
};
