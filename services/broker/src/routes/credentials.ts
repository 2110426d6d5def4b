import {
  type CommandScope,
  commandScope,
  Envelope,
  emptyBodyAsObject,
  type Principal,
  requireIdempotencyKey,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  createCredential,
  credentialToken,
  renameCredential,
  requireOwnSession,
  rotateCredential,
  type Shown,
  setCredentialEnabled,
  toCredential,
} from '../domain/credentials.ts';
import {
  CreateCredential,
  CreatedCredential,
  Credential,
  CredentialParams,
  EmptyCommand,
  IdempotencyHeaders,
  RenameCredential,
  RotatedCredential,
  TokenAnswer,
} from '../schemas/credentials.ts';
import { listOwnCredentials } from '../store/credentials.ts';
import type { DB } from '../store/db.ts';
import { type RouteDeps, type RouteModule, reader } from './deps.ts';

const tags = ['credentials'];

/** 401, then 403 (policy, then session_required), then 400 without an Idempotency-Key, then the schema (422). */
const sessionOnly = async (req: FastifyRequest) => {
  requireOwnSession(req.principal as Principal);
};
const minting = [...reader('mint_credentials'), sessionOnly, requireIdempotencyKey];

const WHO =
  "Only the person's own sign-in: the access-gateway session, the platform access token, or X-Dev-Principal in local dev; a broker credential token or " +
  "the service token is 403 session_required and nothing changes. Another person's or an unknown client_id is 404 " +
  'credential_not_found.';

/**
 * Runs a command whose answer holds a secret or a token: those are added to the response of the
 * request that made them and never stored with its idempotency record, so a replay answers the
 * same record without them.
 */
async function showOnce<T extends object, Once extends object>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandScope<DB>) => Promise<Shown<T, Once>>,
  status = 200,
) {
  const principal = req.principal as Principal;
  const now = deps.clock();
  let once: Once | undefined;
  const result = await runCommand({ db: deps.database.db, req, principal }, async (trx) => {
    const shown = await work(commandScope(deps, trx, principal, now));
    once = shown.once;
    return { status, data: shown.data };
  });
  return sendCommandResult(reply, result.replayed ? result : { ...result, data: { ...result.data, ...once } });
}

/** A command without secrets in its answer, run once per Idempotency-Key. */
async function plain<T>(
  deps: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  work: (ctx: CommandScope<DB>) => Promise<T>,
) {
  return showOnce(deps, req, reply, async (ctx) => ({ data: (await work(ctx)) as T & object, once: {} }));
}

const owner = (ctx: CommandScope<DB>) => requireOwnSession(ctx.principal);

export const credentialRoutes: RouteModule = (app, deps) => {
  app.get(
    '/v1/credentials/mine',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: "The caller's own credentials, oldest first (never a secret)",
        description: "Any way of signing in, a personal credential token included (it lists its owner's credentials).",
        response: { 200: Envelope(Type.Array(Credential)) },
      },
    },
    async (req, reply) => {
      const email = (req.principal as Principal).email?.toLowerCase();
      const rows = email ? await listOwnCredentials(deps.database.db, email) : [];
      const now = deps.clock();
      return reply.envelope(rows.map((c) => toCredential(c, now)));
    },
  );

  app.post(
    '/v1/credentials/mine',
    {
      preValidation: minting,
      schema: {
        tags,
        summary: 'Mint a credential; its secret is in this response only',
        description:
          'kind defaults to personal. A service credential also adds its identity <client_id>@service.broker to ' +
          `the roster, created by the caller, with its own budget. ${WHO}`,
        headers: IdempotencyHeaders,
        body: CreateCredential,
        response: { 201: Envelope(CreatedCredential) },
      },
    },
    async (req, reply) =>
      showOnce(deps, req, reply, (ctx) => createCredential(ctx.trx, owner(ctx), req.body.data, ctx.now), 201),
  );

  app.post(
    '/v1/credentials/mine/:client_id/rotate',
    {
      preValidation: [...minting, emptyBodyAsObject],
      schema: {
        tags,
        summary: 'A new secret (shown once) and, unless expired, a one-hour token; the old secret stops at once',
        description: `A disabled credential is 409 credential_disabled and keeps its secret. ${WHO}`,
        headers: IdempotencyHeaders,
        params: CredentialParams,
        body: EmptyCommand,
        response: { 200: Envelope(RotatedCredential) },
      },
    },
    async (req, reply) =>
      showOnce(deps, req, reply, (ctx) =>
        rotateCredential(ctx.trx, owner(ctx), req.params.client_id, ctx.now, deps.signer),
      ),
  );

  const toggles = [
    {
      action: 'disable',
      enabled: false,
      summary: 'Stop new tokens; tokens already issued last until they expire',
      description: `Disabling a disabled credential changes nothing. ${WHO}`,
    },
    {
      action: 'enable',
      enabled: true,
      summary: 'Back to enabled, with the same secret',
      description: `Enabling an enabled credential changes nothing; an expired one still cannot exchange. ${WHO}`,
    },
  ] as const;
  for (const t of toggles) {
    app.post(
      `/v1/credentials/mine/:client_id/${t.action}`,
      {
        preValidation: [...minting, emptyBodyAsObject],
        schema: {
          tags,
          summary: t.summary,
          description: t.description,
          headers: IdempotencyHeaders,
          params: CredentialParams,
          body: EmptyCommand,
          response: { 200: Envelope(Credential) },
        },
      },
      async (req, reply) =>
        plain(deps, req, reply, (ctx) =>
          setCredentialEnabled(ctx.trx, owner(ctx), req.params.client_id, t.enabled, ctx.now),
        ),
    );
  }

  app.post(
    '/v1/credentials/mine/:client_id/rename',
    {
      preValidation: minting,
      schema: {
        tags,
        summary: 'Rename a credential (body name)',
        description:
          "A service credential's roster identity takes the new name too. A disabled credential is 409 " +
          `credential_disabled and keeps its name. ${WHO}`,
        headers: IdempotencyHeaders,
        params: CredentialParams,
        body: RenameCredential,
        response: { 200: Envelope(Credential) },
      },
    },
    async (req, reply) =>
      plain(deps, req, reply, (ctx) =>
        renameCredential(ctx.trx, owner(ctx), req.params.client_id, req.body.data.name, ctx.now),
      ),
  );

  app.post(
    '/v1/credentials/mine/:client_id/token',
    {
      preValidation: [...minting, emptyBodyAsObject],
      schema: {
        tags,
        summary: 'A one-hour token, without showing the secret',
        description:
          'A disabled credential is 409 credential_disabled, an expired one 409 credential_expired, and without a ' +
          `signing key 503 token_signing_unavailable: no token. The token is in this response only. ${WHO}`,
        headers: IdempotencyHeaders,
        params: CredentialParams,
        body: EmptyCommand,
        response: { 200: Envelope(TokenAnswer) },
      },
    },
    async (req, reply) =>
      showOnce(deps, req, reply, (ctx) =>
        credentialToken(ctx.trx, owner(ctx), req.params.client_id, ctx.now, deps.signer),
      ),
  );
};
