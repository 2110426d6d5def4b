import {
  Command,
  Envelope,
  IdempotencyHeaders,
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
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['people'];
const FidParams = Type.Object({ fid: Uuid });

/** The user admin app's API: platform admins add people, set names and passwords, add and remove grants. */
export const peopleRoutes: RouteModule = (app, deps) => {
  const db = () => deps.database.db;

  app.get(
    '/v1/people',
    {
      preValidation: reader('people.read'),
      schema: {
        tags,
        summary: 'List people by email (page pagination)',
        querystring: Type.Object({
          ...pageQuery({ pageSize: 25, maxPageSize: 100 }),
          email: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Part of an email' })),
        }),
        response: { 200: PageEnvelope(Person) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query, 25);
      const { items, total } = await listPeople(db(), page, req.query.email);
      return reply.envelope(items, pageMeta(page, total));
    },
  );

  app.post(
    '/v1/people',
    {
      preValidation: commander('people.manage'),
      schema: {
        tags,
        summary: 'Add a person (409 email_taken)',
        headers: IdempotencyHeaders,
        body: Command(PersonInput),
        response: { 201: Envelope(Person) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createPerson(ctx, req.body.data), 201),
  );

  app.get(
    '/v1/people/:fid',
    {
      preValidation: reader('people.read'),
      schema: { tags, summary: 'One person', params: FidParams, response: { 200: Envelope(Person) } },
    },
    async (req, reply) => {
      const person = await findPerson(db(), req.params.fid);
      if (!person) throw notFound('Person');
      return reply.envelope(publicPerson(person));
    },
  );

  app.post(
    '/v1/people/:fid/name',
    {
      preValidation: commander('people.manage'),
      schema: {
        tags,
        summary: "Set a person's first and last name ('' leaves a part unset)",
        params: FidParams,
        headers: IdempotencyHeaders,
        body: Command(NameInput),
        response: { 200: Envelope(Person) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => setName(ctx, req.params.fid, req.body.data)),
  );

  app.post(
    '/v1/people/:fid/password',
    {
      preValidation: commander('people.manage'),
      schema: {
        tags,
        summary: "Set a person's sign-in password (stored as a scrypt hash, never shown)",
        params: FidParams,
        headers: IdempotencyHeaders,
        body: Command(PasswordInput),
        response: { 200: Envelope(Person) },
      },
    },
    async (req, reply) => {
      const hash = await hashPassword(req.body.data.password);
      return command(deps, req, reply, (ctx) => setPasswordHash(ctx, req.params.fid, hash));
    },
  );

  app.get(
    '/v1/people/:fid/grants',
    {
      preValidation: reader('people.read'),
      schema: { tags, summary: "A person's grants", params: FidParams, response: { 200: Envelope(Type.Array(Grant)) } },
    },
    async (req, reply) => {
      if (!(await findPerson(db(), req.params.fid))) throw notFound('Person');
      return reply.envelope(await grantsOf(db(), req.params.fid));
    },
  );

  app.post(
    '/v1/people/:fid/grants',
    {
      preValidation: commander('grants.manage'),
      schema: {
        tags,
        summary: 'Grant a role at a scope (global with scope_id *, or a building); 409 grant_exists',
        params: FidParams,
        headers: IdempotencyHeaders,
        body: Command(GrantInput),
        response: { 201: Envelope(Grant) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => addGrant(ctx, req.params.fid, req.body.data), 201),
  );

  app.delete(
    '/v1/people/:fid/grants/:grant_id',
    {
      preValidation: commander('grants.manage'),
      schema: {
        tags,
        summary: 'Remove a grant; answers the removed grant',
        params: Type.Object({ fid: Uuid, grant_id: Uuid }),
        headers: IdempotencyHeaders,
        response: { 200: Envelope(Grant) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => removeGrant(ctx, req.params.fid, req.params.grant_id)),
  );

  app.get(
    '/v1/roles',
    {
      preValidation: reader('roles.read'),
      schema: {
        tags: ['roles'],
        summary: 'The role-to-action matrix: what each role allows, derived from every service’s policy',
        response: { 200: Envelope(Type.Array(Role)) },
      },
    },
    async (_req, reply) => reply.envelope(deps.matrix.roleCatalog()),
  );
};
