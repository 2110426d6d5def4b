import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessAudience, type ConsoleConfig } from '../config.ts';
import { WEB_DIST } from './build.ts';

/**
 * Local sign-in for the web UI: identity stands in for the access gateway. The page signs in at
 * identity (authorization code + PKCE as the public client `clientId`, one click on a dev
 * principal) and trades the access token here for a gateway token for the console's audience.
 * Absent (behind the real gateway), the page holds no token: the gateway adds its header.
 */
export interface WebSignIn {
  /** Identity's issuer URL, which the browser is sent to. */
  issuer: string;
  /** Where the console asks identity's gateway stand-in (server to server); default the issuer. */
  identityUrl?: string;
  clientId: string;
  /** The platform audience of the access token (identity's own API). */
  platformAudience: string;
  /** The console's gateway audience (CONSOLE_ACCESS_AUD). */
  consoleAudience: string;
}

export interface WebOptions {
  signIn?: WebSignIn;
  /** The built UI (default web/dist); tests may point elsewhere. */
  dist?: string;
  fetch?: typeof fetch;
}

/** The UI's settings from the console's configuration: identity sign-in only where CONSOLE_WEB_SIGN_IN_URL is set. */
export function webOptions(
  config: Pick<
    ConsoleConfig,
    'CONSOLE_WEB_SIGN_IN_URL' | 'CONSOLE_WEB_CLIENT_ID' | 'PLATFORM_AUDIENCE' | 'CONSOLE_ACCESS_AUD'
  >,
): WebOptions {
  if (!config.CONSOLE_WEB_SIGN_IN_URL) return {};
  return {
    signIn: {
      issuer: config.CONSOLE_WEB_SIGN_IN_URL,
      clientId: config.CONSOLE_WEB_CLIENT_ID,
      platformAudience: config.PLATFORM_AUDIENCE,
      consoleAudience: accessAudience(config),
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** The pages the client app answers itself: `/` (its pages are #/ routes) and the sign-in callback. */
const APP_PATHS = new Set(['/', '/index.html', '/callback']);

const wantsHtml = (req: FastifyRequest) => /text\/html/.test(String(req.headers.accept ?? ''));

/**
 * Serves the web UI: `/` (to a browser: discovery keeps answering JSON clients there), the
 * sign-in callback, the built assets, the sign-in settings, and locally the gateway-token trade.
 * None of these is an API route: all are left out of the OpenAPI document.
 */
export function registerWeb(app: FastifyInstance, opts: WebOptions = {}) {
  const dist = opts.dist ?? WEB_DIST;
  const doFetch = opts.fetch ?? fetch;

  const sendFile = async (reply: FastifyReply, rel: string, immutable: boolean) => {
    const path = normalize(join(dist, rel));
    if (!path.startsWith(dist + sep)) return reply.code(404).type('text/plain').send('Not found');
    try {
      const body = await readFile(path);
      return reply
        .type(TYPES[extname(path)] ?? 'application/octet-stream')
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(body);
    } catch {
      if (rel === 'index.html') {
        return reply
          .code(503)
          .type('text/plain')
          .send('The console web UI is not built: npm start builds it (services/console/src/web/build.ts).');
      }
      return reply.code(404).type('text/plain').send('Not found');
    }
  };

  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const path = req.url.split('?')[0] ?? '';
    if (!APP_PATHS.has(path)) return;
    // `/` stays the kit's discovery document for API clients; a browser gets the UI.
    if (path === '/' && !wantsHtml(req)) return;
    await sendFile(reply, 'index.html', false);
    return reply;
  });

  app.get('/assets/*', { schema: { hide: true } }, async (req, reply) => {
    const rest = (req.params as { '*': string })['*'];
    return sendFile(reply, join('assets', rest), true);
  });

  app.get('/ui/config.json', { schema: { hide: true } }, async (_req, reply) => {
    const s = opts.signIn;
    reply.header('cache-control', 'no-store');
    if (!s) return { mode: 'gateway' };
    return {
      mode: 'identity',
      issuer: s.issuer,
      client_id: s.clientId,
      audience: s.platformAudience,
      gateway_token_path: '/ui/gateway-token',
    };
  });

  const signIn = opts.signIn;
  if (signIn) {
    /**
     * The page's identity access token for a console gateway token from identity's stand-in.
     * Server to server because identity's API answers no other origin; the token is the
     * caller's own, sent on unchanged and never logged.
     */
    app.get('/ui/gateway-token', { schema: { hide: true } }, async (req, reply) => {
      const authorization = req.headers.authorization;
      reply.header('cache-control', 'no-store');
      if (!authorization?.startsWith('Bearer ')) {
        return reply.code(401).send({ error: 'unauthenticated', message: 'Send the identity access token' });
      }
      const base = (signIn.identityUrl ?? signIn.issuer).replace(/\/$/, '');
      const url = `${base}/v1/gateway/token?${new URLSearchParams({ audience: signIn.consoleAudience })}`;
      try {
        const res = await doFetch(url, { headers: { authorization, accept: 'application/json' } });
        return reply
          .code(res.status)
          .type('application/json')
          .send(await res.text());
      } catch {
        return reply.code(502).send({ error: 'identity_unavailable', message: 'Identity did not answer' });
      }
    });
  }
}
