import { Envelope, PageEnvelope, pageMeta, pageRequest, sendCommandResult } from '@platform/kit';
import { postIdentity } from '../commands/people.ts';
import { PeopleQuery, Person, PersonCommand } from '../schemas/people.ts';
import { listPeople, readScopeOf } from '../store/people.ts';
import { type Routes, route, runBrokerCommand } from './deps.ts';

const tags = ['people'];

/** The roster routes (spec 3, Broker): the auto-provisioned roster; the agents service posts mailboxes. */
export const PEOPLE_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/people',
    action: 'read_own',
    tags,
    summary:
      'The roster by email: platform admins see everyone, others themselves and what they created. q matches part of the email or name; people_only=true leaves agents and services out',
    query: PeopleQuery,
    response: PageEnvelope(Person),
    handler: async ({ query, principal, reply }, deps) => {
      const db = deps.database.db;
      const page = pageRequest(query, 50);
      const scope = await readScopeOf(db, principal);
      const { items, total } = await listPeople(db, { scope, q: query.q, peopleOnly: query.people_only }, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/people',
    action: 'post_people',
    tags,
    summary:
      'Create the identity of an email (201) or change the fields sent (200): name, kind (agent when a new identity names none) and creator_email, which groups its spend under that person (the service token)',
    body: PersonCommand,
    response: Envelope(Person),
    // 201 when the identity is new; an existing one changed answers 200 with the same body.
    status: 201,
    otherStatuses: [200],
    errors: ['bad_creator'],
    // A command that answers itself: its status says whether the identity was created.
    command: true,
    handler: async ({ body, principal, req, reply }, deps) => {
      const result = await runBrokerCommand(deps, req, principal, async (ctx) => {
        const { person, created } = await postIdentity(ctx, body.data);
        return { status: created ? 201 : 200, data: person };
      });
      return sendCommandResult(reply, result);
    },
  }),
];
