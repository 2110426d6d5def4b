import { randomUUID } from 'node:crypto';
import { type App, devFid } from '@platform/kit';
import { gatewayKeys, injectJson, outboxEvents, rowCounts, testDatabase } from '@platform/kit/testing';
import { buildApp, type ConstructionDeps } from '../src/app.ts';
import { callerPolicy, constructionAuthenticator } from '../src/auth.ts';
import { constructionConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

/** The access gateway of the tests: its issuer, construction's audience. */
export const GATEWAY_ISSUER = 'https://gateway.construction.test';
export const ACCESS_AUD = 'construction-app';
/** People: two listed in CONSTRUCTION_EDITORS (the second listed in another case), one reader who is not. */
export const EDITOR = 'editor@construction.test';
export const SECOND_EDITOR = 'second.editor@construction.test';
export const READER = 'reader@construction.test';
/** A person's FID, as the dev header gives it. */
export const fid = devFid;
export const tag = () => randomUUID().slice(0, 8);

/** The environment of the tests' construction service; `env` overrides entries (undefined removes one). */
export const testEnv = (env: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  CONSTRUCTION_ACCESS_AUD: ACCESS_AUD,
  CONSTRUCTION_EDITORS: `${EDITOR}, Second.Editor@Construction.test`,
  GATEWAY_ISSUER,
  DEV_AUTH: '1',
  ...env,
});

/**
 * How a test request proves who it is: an email (the dev header, DEV_AUTH=1); {gateway: email}
 * for an access-gateway token (audience overridable); {headers} for exactly these; null for nothing.
 */
export type As = string | { gateway: string; aud?: string } | { headers: Record<string, string> } | null;

export interface HarnessOptions {
  now?: string;
  env?: Record<string, string | undefined>;
  /** Clients of the neighbouring services (fakes, or HTTP clients of fake servers). */
  app?: Pick<ConstructionDeps, 'vendors' | 'documents' | 'swaggerOn'>;
}

/**
 * One construction app per test file on a fresh database, with the real authenticator over a
 * gateway key pair the test holds, and a clock the test sets. `call` sends a request as someone;
 * commands get a fresh Idempotency-Key unless given one (null: none).
 */
export async function harness(opts: HarnessOptions = {}) {
  const database = await testDatabase<DB>('construction', MIGRATIONS);
  const gateway = await gatewayKeys({ issuer: GATEWAY_ISSUER, audience: ACCESS_AUD });
  const config = constructionConfig(testEnv(opts.env));
  let now = new Date(opts.now ?? '2026-03-02T12:00:00Z');
  const app = (await buildApp({
    database,
    authenticator: constructionAuthenticator(config, { gatewayJwks: gateway.jwks }),
    callers: callerPolicy(config),
    clock: () => now,
    logLevel: 'silent',
    ...opts.app,
  })) as App;
  await app.ready();

  const headersFor = async (as: As): Promise<Record<string, string>> => {
    if (as === null) return {};
    if (typeof as === 'string') return { 'x-dev-principal': as };
    if ('gateway' in as) return { 'cf-access-jwt-assertion': await gateway.token(as.gateway, as.aud) };
    return as.headers;
  };

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    as: As = EDITOR,
    body?: unknown,
    key: string | null = method === 'GET' ? null : randomUUID(),
  ) => injectJson(app, method, url, { headers: await headersFor(as), body, key });

  /** Sends a command as the editor and returns its data, throwing with the answer when it is not `status`. */
  const ok = async <T = Record<string, unknown>>(
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    data: unknown,
    status = 200,
  ): Promise<T> => {
    const r = await call(method, url, EDITOR, { data });
    if (r.status !== status) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.data as T;
  };

  return {
    app,
    database,
    db: database.db,
    config,
    call,
    ok,
    gatewayToken: gateway.token,
    now: () => now,
    setNow: (iso: string) => {
      now = new Date(iso);
    },
    /** Every table's row count and the outbox: equal before and after a refused command. */
    state: () => rowCounts(database.db),
    events: (type?: string) => outboxEvents(database.db, type),
    /** A fresh project as the editor (POST /v1/development-projects); fields override the defaults. */
    async project(input: Record<string, unknown> = {}) {
      return ok<{ id: string; code: string; stage: string; status: string } & Record<string, unknown>>(
        'POST',
        '/v1/development-projects',
        { code: `P-${tag()}`, name: `Project ${tag()}`, kind: 'ground_up', ...input },
        201,
      );
    },
    close_: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof harness>>;
