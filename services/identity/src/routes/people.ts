import {
  Command,
  Envelope,
  handleCommand,
  notFound,
  PageEnvelope,
  pageMeta,
  pageQuery,
  pageRequest,
  Uuid,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { addGrant, removeGrant } from '../commands/grants.ts';
import { createPerson, setName, setPasswordHash } from '../commands/people.ts';
import { hashPassword } from '../domain/passwords.ts';
import { Grant, GrantInput, Role } from '../schemas/grants.ts';
import { NameInput, PasswordInput, Person, PersonInput } from '../schemas/people.ts';
import { grantsOf } from '../store/grants.ts';
import { findPerson, listPeople, publicPerson } from '../store/people.ts';
import { module, type Routes, route } from './deps.ts';

const tags = ['people'];
const FidParams = Type.Object({ fid: Uuid });

/** The user admin app's API: platform admins add people, set names and passwords, add and remove grants. */
export const PEOPLE_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/people',
    action: 'people.read',
    tags,
    summary: 'List people by email (page pagination)',
    query: Type.Object({
      ...pageQuery({ pageSize: 25, maxPageSize: 100 }),
      email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Part of an email' })),
    }),
    response: PageEnvelope(Person),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, 25);
      const { items, total } = await listPeople(deps.database.db, page, query.email);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/people',
    action: 'people.manage',
    tags,
    summary: 'Add a person (409 email_taken)',
    body: Command(PersonInput),
    response: Envelope(Person),
    status: 201,
    errors: ['email_taken'],
    run: (ctx, { body }) => createPerson(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/people/:fid',
    action: 'people.read',
    tags,
    summary: 'One person',
    params: FidParams,
    response: Envelope(Person),
    errors: ['not_found'],
    handler: async ({ params, reply }, deps) => {
      const person = await findPerson(deps.database.db, params.fid);
      if (!person) throw notFound('Person');
      return reply.envelope(publicPerson(person));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/people/:fid/name',
    action: 'people.manage',
    tags,
    summary: "Set a person's first and last name ('' leaves a part unset)",
    params: FidParams,
    body: Command(NameInput),
    response: Envelope(Person),
    errors: ['not_found'],
    run: (ctx, { params, body }) => setName(ctx, params.fid, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/people/:fid/password',
    action: 'people.manage',
    tags,
    summary: "Set a person's sign-in password (stored as a scrypt hash, never shown)",
    params: FidParams,
    body: Command(PasswordInput),
    response: Envelope(Person),
    errors: ['not_found'],
    // The scrypt hash is computed before the command's transaction opens.
    command: true,
    handler: async ({ params, body, req, reply }, deps) => {
      const hash = await hashPassword(body.data.password);
      return handleCommand(deps, req, reply, (ctx) => setPasswordHash(ctx, params.fid, hash));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/people/:fid/grants',
    action: 'people.read',
    tags,
    summary: "A person's grants",
    params: FidParams,
    response: Envelope(Type.Array(Grant)),
    errors: ['not_found'],
    handler: async ({ params, reply }, deps) => {
      if (!(await findPerson(deps.database.db, params.fid))) throw notFound('Person');
      return reply.envelope(await grantsOf(deps.database.db, params.fid));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/people/:fid/grants',
    action: 'grants.manage',
    tags,
    summary: 'Grant a role at a scope (global with scope_id *, or a building); 409 grant_exists',
    params: FidParams,
    body: Command(GrantInput),
    response: Envelope(Grant),
    status: 201,
    errors: ['not_found', 'grant_exists', 'unknown_role', 'invalid_scope'],
    run: (ctx, { params, body }) => addGrant(ctx, params.fid, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/people/:fid/grants/:grant_id',
    action: 'grants.manage',
    tags,
    summary: 'Remove a grant; answers the removed grant',
    params: Type.Object({ fid: Uuid, grant_id: Uuid }),
    response: Envelope(Grant),
    errors: ['not_found'],
    run: (ctx, { params }) => removeGrant(ctx, params.fid, params.grant_id),
  }),

  route({
    method: 'GET',
    url: '/v1/roles',
    action: 'roles.read',
    tags: ['roles'],
    summary: 'The role-to-action matrix: what each role allows, derived from every service’s policy',
    response: Envelope(Type.Array(Role)),
    handler: async ({ reply }, deps) => reply.envelope(deps.matrix.roleCatalog()),
  }),
];

export const peopleRoutes = module(PEOPLE_ROUTES);
