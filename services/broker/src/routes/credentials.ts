import { Envelope, type Principal, sendCommandResult, unauthorized } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import {
  createCredential,
  credentialToken,
  renameCredential,
  rotateCredential,
  setCredentialEnabled,
} from '../commands/credentials.ts';
import { requireOwnSession, type Shown, toCredential } from '../domain/credentials.ts';
import {
  CreateCredential,
  CreatedCredential,
  Credential,
  CredentialParams,
  EmptyCommand,
  RenameCredential,
  RotatedCredential,
  TokenAnswer,
} from '../schemas/credentials.ts';
import { listOwnCredentials } from '../store/credentials.ts';
import { type RouteDeps, type Routes, route, runBrokerCommand } from './deps.ts';

const tags = ['credentials'];

/**
 * After the policy's 403: a credential token or the service token is 403 session_required, before
 * the Idempotency-Key's 400 and the schema's 422.
 */
const sessionOnly = async (req: FastifyRequest) => {
  if (!req.principal) throw unauthorized();
  requireOwnSession(req.principal);
};

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
  input: { req: FastifyRequest; reply: FastifyReply; principal: Principal },
  work: (ctx: CommandCtx) => Promise<Shown<T, Once>>,
  status = 200,
) {
  let once: Once | undefined;
  const result = await runBrokerCommand(deps, input.req, input.principal, async (ctx) => {
    const shown = await work(ctx);
    once = shown.once;
    return { status, data: shown.data };
  });
  return sendCommandResult(input.reply, result.replayed ? result : { ...result, data: { ...result.data, ...once } });
}

/** The credential routes (spec 3, Broker credential): the caller's own, minted and managed by their own sign-in. */
export const CREDENTIAL_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/credentials/mine',
    action: 'read_own',
    tags,
    summary: "The caller's own credentials, oldest first (never a secret)",
    description: "Any way of signing in, a personal credential token included (it lists its owner's credentials).",
    response: Envelope(Type.Array(Credential)),
    handler: async ({ principal, reply }, deps) => {
      const email = principal.email?.toLowerCase();
      const rows = email ? await listOwnCredentials(deps.database.db, email) : [];
      const now = deps.clock();
      return reply.envelope(rows.map((c) => toCredential(c, now)));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/credentials/mine',
    action: 'mint_credentials',
    tags,
    summary: 'Mint a credential; its secret is in this response only',
    description:
      'kind defaults to personal. A service credential also adds its identity <client_id>@service.broker to ' +
      `the roster, created by the caller, with its own budget. ${WHO}`,
    body: CreateCredential,
    response: Envelope(CreatedCredential),
    status: 201,
    errors: ['session_required', 'invalid_name', 'invalid_expires_at'],
    guard: [sessionOnly],
    // A command that answers itself: the secret is added to this response only.
    command: true,
    handler: async (input, deps) => showOnce(deps, input, (ctx) => createCredential(ctx, input.body.data), 201),
  }),

  route({
    method: 'POST',
    url: '/v1/credentials/mine/:client_id/rotate',
    action: 'mint_credentials',
    tags,
    summary: 'A new secret (shown once) and, unless expired, a one-hour token; the old secret stops at once',
    description: `A disabled credential is 409 credential_disabled and keeps its secret. ${WHO}`,
    params: CredentialParams,
    body: EmptyCommand,
    emptyBody: true,
    response: Envelope(RotatedCredential),
    errors: ['session_required', 'credential_not_found', 'credential_disabled'],
    guard: [sessionOnly],
    command: true,
    handler: async (input, deps) =>
      showOnce(deps, input, (ctx) => rotateCredential(ctx, input.params.client_id, deps.signer)),
  }),

  ...(
    [
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
    ] as const
  ).map((t) =>
    route({
      method: 'POST',
      url: `/v1/credentials/mine/:client_id/${t.action}`,
      action: 'mint_credentials',
      tags,
      summary: t.summary,
      description: t.description,
      params: CredentialParams,
      body: EmptyCommand,
      emptyBody: true,
      response: Envelope(Credential),
      errors: ['session_required', 'credential_not_found'],
      guard: [sessionOnly],
      run: (ctx, { params }) => setCredentialEnabled(ctx, params.client_id, t.enabled),
    }),
  ),

  route({
    method: 'POST',
    url: '/v1/credentials/mine/:client_id/rename',
    action: 'mint_credentials',
    tags,
    summary: 'Rename a credential (body name)',
    description:
      "A service credential's roster identity takes the new name too. A disabled credential is 409 " +
      `credential_disabled and keeps its name. ${WHO}`,
    params: CredentialParams,
    body: RenameCredential,
    response: Envelope(Credential),
    errors: ['session_required', 'credential_not_found', 'credential_disabled', 'invalid_name'],
    guard: [sessionOnly],
    run: (ctx, { params, body }) => renameCredential(ctx, params.client_id, body.data.name),
  }),

  route({
    method: 'POST',
    url: '/v1/credentials/mine/:client_id/token',
    action: 'mint_credentials',
    tags,
    summary: 'A one-hour token, without showing the secret',
    description:
      'A disabled credential is 409 credential_disabled, an expired one 409 credential_expired, and without a ' +
      `signing key 503 token_signing_unavailable: no token. The token is in this response only. ${WHO}`,
    params: CredentialParams,
    body: EmptyCommand,
    emptyBody: true,
    response: Envelope(TokenAnswer),
    errors: [
      'session_required',
      'credential_not_found',
      'credential_disabled',
      'credential_expired',
      'token_signing_unavailable',
    ],
    guard: [sessionOnly],
    command: true,
    handler: async (input, deps) =>
      showOnce(deps, input, (ctx) => credentialToken(ctx, input.params.client_id, deps.signer)),
  }),
];
