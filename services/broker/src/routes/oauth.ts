import { type App, headerValue, isAppError } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { exchangeRefusal, signingUnavailable, tokenClaims } from '../domain/credentials.ts';
import { findCredential } from '../store/credentials.ts';
import { TOKEN_TTL_SEC } from '../tokens.ts';
import type { RouteModule } from './deps.ts';

/** An error of the token endpoint as RFC 6749 §5.2 shapes it: this route speaks OAuth, not the envelope. */
class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

const OAuthErrorBody = Type.Object({
  error: Type.String({
    description:
      'invalid_client (401: no HTTP Basic, unknown client, wrong secret, disabled or expired credential), ' +
      'invalid_request or unsupported_grant_type (400), token_signing_unavailable (503), server_error (500)',
  }),
  error_description: Type.String(),
});

const TokenResponseBody = Type.Object({
  access_token: Type.String({ description: 'An ES256 JWT; its email is the caller on every other broker route' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: `Seconds: always ${TOKEN_TTL_SEC}` }),
});

const TokenRequest = Type.Object(
  {
    grant_type: Type.String({ description: 'client_credentials' }),
    scope: Type.Optional(Type.String({ description: 'Ignored' })),
  },
  {
    additionalProperties: true,
    description:
      'application/x-www-form-urlencoded (or JSON). Other parameters (email, sub, scope...) are ignored: the ' +
      "token carries the credential's own identity",
  },
);

const Jwks = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kty: Type.String(),
        crv: Type.Optional(Type.String()),
        x: Type.Optional(Type.String()),
        y: Type.Optional(Type.String()),
        kid: Type.Optional(Type.String()),
        alg: Type.Optional(Type.String()),
        use: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
  ),
});

/** RFC 6749 §2.3.1: the id and secret are form-urlencoded before they are joined and base64-encoded. */
const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));

function basicClient(req: FastifyRequest): { clientId: string; secret: string } {
  const m = headerValue(req, 'authorization')?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  const missing = () =>
    new OAuthError(401, 'invalid_client', 'Authenticate with HTTP Basic: the client_id and secret of a credential');
  if (!m?.[1]) throw missing();
  const pair = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  if (colon < 0) throw missing();
  try {
    return { clientId: formDecode(pair.slice(0, colon)), secret: formDecode(pair.slice(colon + 1)) };
  } catch {
    throw missing();
  }
}

/** Whatever went wrong on the token route, answered the OAuth way. */
function oauthError(e: FastifyError | OAuthError, req: FastifyRequest): OAuthError {
  if (e instanceof OAuthError) return e;
  const status = isAppError(e) ? e.status : (e.statusCode ?? 500);
  if (status === 503 && isAppError(e)) return new OAuthError(503, e.code, e.message);
  // A bad token in another header was refused by the broker's authenticator.
  if (status === 401) return new OAuthError(401, 'invalid_client', e.message);
  if (status >= 400 && status < 500) {
    return new OAuthError(400, 'invalid_request', 'Send grant_type=client_credentials as a form or JSON body');
  }
  req.log.error({ err: e }, 'token route failed');
  return new OAuthError(500, 'server_error', 'Internal error');
}

const tokenRoute = (deps: Parameters<RouteModule>[1]) => async (oauth: App) => {
  oauth.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  oauth.setErrorHandler((e: FastifyError | OAuthError, req, reply) => {
    const o = oauthError(e, req);
    if (o.status === 401) reply.header('www-authenticate', 'Basic realm="model-broker"');
    return reply
      .code(o.status)
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .send({ error: o.error, error_description: o.message });
  });

  oauth.post(
    '/v1/oauth/token',
    {
      // The client authenticates before its parameters are looked at: no Basic is 401 whatever the body.
      attachValidation: true,
      schema: {
        tags: ['credentials'],
        summary: 'Exchange a credential for a one-hour token (OAuth 2.0 client credentials)',
        description:
          'HTTP Basic with the client_id and secret (each form-urlencoded, RFC 6749 §2.3.1) and ' +
          'grant_type=client_credentials. Answers a plain OAuth token response, not an envelope, with ' +
          'Cache-Control: no-store; errors are OAuth error bodies (RFC 6749 §5.2). A disabled or expired ' +
          'credential is 401 invalid_client. No signing key: 503 token_signing_unavailable.',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenRequest,
        response: {
          200: TokenResponseBody,
          400: OAuthErrorBody,
          401: OAuthErrorBody,
          500: OAuthErrorBody,
          503: OAuthErrorBody,
        },
      },
    },
    async (req, reply) => {
      const { clientId, secret } = basicClient(req);
      const now = deps.clock();
      const credential = await findCredential(deps.database.db, clientId);
      const refusal = exchangeRefusal(credential, secret, now);
      if (refusal || !credential) throw new OAuthError(401, 'invalid_client', refusal ?? 'Unknown client');
      const body = req.body as Partial<Static<typeof TokenRequest>> | undefined;
      if (req.validationError || typeof body?.grant_type !== 'string') {
        throw new OAuthError(400, 'invalid_request', 'grant_type is required');
      }
      if (body.grant_type !== 'client_credentials') {
        throw new OAuthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is offered');
      }
      if (!deps.signer) throw signingUnavailable();
      const token = await deps.signer.sign(tokenClaims(credential), now);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token);
    },
  );
};

/**
 * The token exchange (its own plugin: form bodies and OAuth error bodies stay on this route) and the
 * JWKS. Both stay outside the declared routes (ROUTES, issue 15.4): a declaration is guarded by a
 * policy action (401 before anything else) and answers the envelope's error codes, while these are
 * open (the exchange authenticates its client by HTTP Basic in the handler, RFC 6749 §2.3.1),
 * answer plain OAuth and JWKS bodies, and the exchange's errors are OAuth's own (§5.2: error,
 * error_description), which the broker's error catalogue does not hold.
 */
export const oauthRoutes: RouteModule = (app, deps) => {
  app.register(tokenRoute(deps));

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['credentials'],
        summary: 'The public keys that verify credential tokens (a plain JWKS)',
        description: 'No signing key configured: 503 token_signing_unavailable.',
        response: { 200: Jwks },
      },
    },
    async (_req, reply) => {
      if (!deps.signer) throw signingUnavailable();
      return reply.header('cache-control', 'public, max-age=300').send(deps.signer.jwks() as Static<typeof Jwks>);
    },
  );
};
