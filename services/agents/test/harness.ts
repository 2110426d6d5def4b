import { randomUUID } from 'node:crypto';
import { type App, devFid } from '@platform/kit';
import { gatewayKeys, injectJson, outboxEvents, rowCounts, testDatabase } from '@platform/kit/testing';
import { type AgentsDeps, buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { agentsConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import { mailDomainOf } from '../src/start.ts';
import type { DB } from '../src/store/db.ts';

/** The access gateway of the tests: its issuer, the agents application's audience. */
export const GATEWAY_ISSUER = 'https://gateway.agents.test';
export const ACCESS_AUD = 'agents-app';
/** The shared service token of the tests (the harness, communications, the scheduler). */
export const SERVICE_TOKEN = 'agents-test-service-token';
/** People: an owner, an editor, a viewer, a stranger with no role, and a platform admin (dev-principals grant). */
export const OWNER = 'owner@agents.test';
export const EDITOR = 'editor@agents.test';
export const VIEWER = 'viewer@agents.test';
export const STRANGER = 'stranger@agents.test';
/** Granted platform_admin by the dev principals file of the platform (DEV_PRINCIPALS_FILE unset: the kit's defaults). */
export const ADMIN = 'admin@dev.local';
/** A person's FID, as the dev header gives it. */
export const fid = devFid;
export const tag = () => randomUUID().slice(0, 8);

/** The environment of the tests' agents service; `env` overrides entries (undefined removes one). */
export const testEnv = (env: Record<string, string | undefined> = {}): Record<string, string | undefined> => ({
  AGENTS_ACCESS_AUD: ACCESS_AUD,
  GATEWAY_ISSUER,
  SERVICE_TOKEN,
  DEV_AUTH: '1',
  ...env,
});

/**
 * How a test request proves who it is: an email (the dev header, DEV_AUTH=1); {gateway: email}
 * for an access-gateway token; {service: agentId?} for the shared service token (with
 * X-Platform-Agent-Id when an agent id is given); {headers} for exactly these; null for nothing.
 */
export type As =
  | string
  | { gateway: string; aud?: string }
  | { service: string | null }
  | { headers: Record<string, string> }
  | null;

export interface HarnessOptions {
  now?: string;
  env?: Record<string, string | undefined>;
  app?: Partial<
    Pick<
      AgentsDeps,
      | 'swaggerOn'
      | 'nudge'
      | 'settle'
      | 'onEmit'
      | 'broker'
      | 'documents'
      | 'propertyConnector'
      | 'directory'
      | 'tracker'
      | 'gitHost'
      | 'checks'
      | 'workspace'
      | 'schedulerToken'
      | 'coaching'
      | 'briefs'
    >
  >;
}

/**
 * One agents app per test file on a fresh database, with the real authenticator over a gateway
 * key pair the test holds, and a clock the test sets. `call` sends a request as someone; commands
 * get a fresh Idempotency-Key unless given one (null: none).
 */
export async function harness(opts: HarnessOptions = {}) {
  const database = await testDatabase<DB>('agents', MIGRATIONS);
  const gateway = await gatewayKeys({ issuer: GATEWAY_ISSUER, audience: ACCESS_AUD });
  const config = agentsConfig(testEnv(opts.env));
  let now = new Date(opts.now ?? '2026-03-02T12:00:00Z');
  const app = (await buildApp({
    database,
    authenticator: agentsAuthenticator(config, { gatewayJwks: gateway.jwks }),
    callers: callerPolicy(config),
    mailDomain: mailDomainOf(config),
    clock: () => now,
    logLevel: 'silent',
    ...opts.app,
  })) as App;
  await app.ready();

  const headersFor = async (as: As): Promise<Record<string, string>> => {
    if (as === null) return {};
    if (typeof as === 'string') return { 'x-dev-principal': as };
    if ('gateway' in as) return { 'cf-access-jwt-assertion': await gateway.token(as.gateway, as.aud) };
    if ('service' in as) {
      return {
        'x-platform-service-token': SERVICE_TOKEN,
        ...(as.service ? { 'x-platform-agent-id': as.service } : {}),
      };
    }
    return as.headers;
  };

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    as: As = OWNER,
    body?: unknown,
    key: string | null = method === 'GET' ? null : randomUUID(),
  ) => injectJson(app, method, url, { headers: await headersFor(as), body, key });

  /** Sends a command and returns its data, throwing with the answer when it is not `status`. */
  const ok = async <T = Record<string, unknown>>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    data: unknown,
    status = 200,
    as: As = OWNER,
  ): Promise<T> => {
    const r = await call(method, url, as, { data });
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
    /** A fresh agent owned by `as` (default OWNER); fields override the defaults. */
    async agent(input: Record<string, unknown> = {}, as: As = OWNER) {
      return ok<AgentData>('POST', '/v1/agents', { name: `Agent ${tag()}`, ...input }, 201, as);
    },
    close_: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type AgentData = {
  id: string;
  slug: string;
  owner_fid: string;
  lifetime: string;
  status: string;
  desired_state: string;
  generation: number;
} & Record<string, unknown>;

export type Harness = Awaited<ReturnType<typeof harness>>;
