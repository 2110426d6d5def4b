import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_ROOT } from '../src/web/build.ts';
import { registerWeb, webOptions } from '../src/web/serve.ts';
import { consoleHarness, type Harness } from './harness.ts';

/**
 * How the console serves its web UI, on a built folder of the test's own: the page at `/` for a
 * browser while API clients keep the discovery document, assets, the sign-in settings, and the
 * local trade of an identity access token for a gateway token (against a fake identity on the wire).
 */
let dist: string;
let identity: Server;
let identityUrl: string;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Operations console</title>');
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'console-secret.txt'), 'outside');
  identity = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.headers.authorization !== 'Bearer good') {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"payload":{"errors":[{"code":"unauthenticated"}]}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        payload: { data: { token: 'gw.jwt', audience: 'console-app', expires_at: '2030-01-01T00:00:00Z' } },
      }),
    );
  });
  await new Promise<void>((r) => identity.listen(0, '127.0.0.1', r));
  identityUrl = `http://127.0.0.1:${(identity.address() as { port: number }).port}`;
});

afterAll(async () => {
  rmSync(dist, { recursive: true, force: true });
  await new Promise((r) => identity.close(r));
});

async function webApp(signIn = true) {
  const app = Fastify();
  app.get('/', async () => ({ discovery: true }));
  registerWeb(
    app,
    signIn
      ? {
          dist,
          ...webOptions({
            CONSOLE_WEB_SIGN_IN_URL: identityUrl,
            CONSOLE_WEB_CLIENT_ID: 'console-web',
            PLATFORM_AUDIENCE: 'urn:platform:api',
            CONSOLE_ACCESS_AUD: 'console-app',
          }),
        }
      : { dist },
  );
  await app.ready();
  return app;
}

describe('21 the console serves its web UI', () => {
  it('21 OPS-065 `/` is the page for a browser and the discovery document for an API client; /callback is the page', async () => {
    const app = await webApp();
    const page = await app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Operations console');
    expect((await app.inject({ url: '/', headers: { accept: 'application/json' } })).json()).toEqual({
      discovery: true,
    });
    const callback = await app.inject({ url: '/callback?code=x&state=y', headers: { accept: 'text/html' } });
    expect(callback.body).toContain('Operations console');
    await app.close();
  });

  it('21 assets are served long-cached, nothing outside the build folder is', async () => {
    const app = await webApp();
    const js = await app.inject({ url: '/assets/index-abc.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    for (const url of [
      '/assets/../../console-secret.txt',
      '/assets/%2e%2e/%2e%2e/console-secret.txt',
      '/assets/none.js',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('outside');
    }
    await app.close();
  });

  it('21 the sign-in settings: identity locally, the real gateway otherwise', async () => {
    const local = await webApp(true);
    expect((await local.inject({ url: '/ui/config.json' })).json()).toEqual({
      mode: 'identity',
      issuer: identityUrl,
      client_id: 'console-web',
      audience: 'urn:platform:api',
      gateway_token_path: '/ui/gateway-token',
    });
    await local.close();
    const gateway = await webApp(false);
    expect((await gateway.inject({ url: '/ui/config.json' })).json()).toEqual({ mode: 'gateway' });
    // Behind the real gateway there is no token trade at all.
    expect((await gateway.inject({ url: '/ui/gateway-token' })).statusCode).toBe(404);
    await gateway.close();
  });

  it('21 OPS-037 the gateway-token trade sends the caller’s own access token to identity for the console audience, and answers as identity does', async () => {
    const app = await webApp();
    seen.length = 0;
    const ok = await app.inject({ url: '/ui/gateway-token', headers: { authorization: 'Bearer good' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.data.token).toBe('gw.jwt');
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/v1/gateway/token?audience=console-app');
    expect(seen[0]?.headers.authorization).toBe('Bearer good');
    const refused = await app.inject({ url: '/ui/gateway-token', headers: { authorization: 'Bearer bad' } });
    expect(refused.statusCode).toBe(401);
    // No access token: refused here, identity never asked.
    expect((await app.inject({ url: '/ui/gateway-token' })).statusCode).toBe(401);
    expect(seen).toHaveLength(2);
    await app.close();
  });

  it('21 an unbuilt UI answers 503 saying so, the API unaffected', async () => {
    const app = Fastify();
    app.get('/', async () => ({ discovery: true }));
    registerWeb(app, { dist: join(dist, 'missing') });
    const res = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('not built');
    expect((await app.inject({ url: '/' })).json()).toEqual({ discovery: true });
    await app.close();
  });
});

describe('21 the console app registers the UI beside its API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await consoleHarness();
  });
  afterAll(() => h.close());

  it('21 OPS-016 the UI routes stay out of the OpenAPI document; discovery still answers JSON at /', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    for (const p of Object.keys(doc.paths)) expect(p).not.toMatch(/^\/(ui|assets|callback)/);
    const discovery = await h.app.inject({ url: '/', headers: { accept: 'application/json' } });
    expect(discovery.json().payload.data.service).toBe('console');
    // Without CONSOLE_WEB_SIGN_IN_URL the page expects the real gateway in front.
    expect((await h.app.inject({ url: '/ui/config.json' })).json()).toEqual({ mode: 'gateway' });
  });
});

describe('21 the web UI typechecks', () => {
  it('21 services/console/web compiles with the DOM library (its own tsconfig; the root one has no DOM)', () => {
    const file = join(WEB_ROOT, 'tsconfig.json');
    const read = ts.readConfigFile(file, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, WEB_ROOT);
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(parsed.fileNames.some((f) => f.endsWith('App.tsx'))).toBe(true);
    expect(problems).toEqual([]);
  }, 240_000);
});
