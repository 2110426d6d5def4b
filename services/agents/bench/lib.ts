import { randomUUID } from 'node:crypto';
import type { Database } from '@platform/kit';
import { gatewayKeys, listenOnFreePort } from '@platform/kit/testing';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { type AgentsDeps, buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { agentsConfig } from '../src/config.ts';
import { mailDomainOf } from '../src/start.ts';
import type { DB, Db } from '../src/store/db.ts';

const ISSUER = 'https://gateway.bench.test';
const AUD = 'agents-bench';
export const BENCH_PERSON = 'bench.person@agents.test';
/** The bench person's id: the gateway's subject, as the gateway authenticator takes it for a person identity does not know. */
export const BENCH_PERSON_ID = `gw-${BENCH_PERSON}`;
export const BENCH_SERVICE_TOKEN = 'agents-bench-service-token';

/**
 * The agents service on a free port with the production authenticator: access-gateway tokens
 * verified against a key set the bench holds (the bench's person), and the shared service token
 * the harness uses. No runner: the benchmark measures the service, not workloads. `extra` adds
 * outside systems (a case's fake connector).
 */
export async function startServer(database: Database<DB>, extra: Partial<AgentsDeps> = {}) {
  const gateway = await gatewayKeys({ issuer: ISSUER, audience: AUD, ttlSeconds: 7200 });
  const config = agentsConfig({
    AGENTS_ACCESS_AUD: AUD,
    GATEWAY_ISSUER: ISSUER,
    SERVICE_TOKEN: BENCH_SERVICE_TOKEN,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({
    database,
    authenticator: agentsAuthenticator(config, { gatewayJwks: gateway.jwks }),
    callers: callerPolicy(config),
    mailDomain: mailDomainOf(config),
    logLevel: 'silent',
    ...extra,
  });
  const server = await listenOnFreePort(app as never);
  const token = await gateway.token(BENCH_PERSON);
  const person = { 'cf-access-jwt-assertion': token };
  /** The shared service token, as a harness sends it; with an agent id, acting as that agent. */
  const service = (agentId?: string) => ({
    'x-platform-service-token': BENCH_SERVICE_TOKEN,
    ...(agentId ? { 'x-platform-agent-id': agentId } : {}),
  });
  const pool = new Pool(server.url, { connections: 16, pipelining: 1, keepAliveTimeout: 60_000 });

  /** One request; throws unless the status is the expected one. Commands get a fresh Idempotency-Key. */
  const request = async (
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    o: { body?: unknown; status?: number; headers?: Record<string, string> } = {},
  ) => {
    const res = await pool.request({
      method,
      path,
      headers: {
        ...(o.headers ?? person),
        ...(o.body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const json = (await res.body.json()) as { payload: { data: unknown; meta?: unknown } };
    const status = o.status ?? 200;
    if (res.statusCode !== status) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json.payload as { data: unknown; meta?: Record<string, unknown> };
  };

  return {
    url: server.url,
    headers: person,
    service,
    request,
    close: async () => {
      await pool.close();
      await server.close();
    },
  };
}
export type BenchServer = Awaited<ReturnType<typeof startServer>>;

/** `n` agents written straight to their table, as a bulk load would; slugs start with `prefix`. */
export async function seedAgents(db: Db, n: number, prefix: string): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  for (const id of ids) {
    const slug = `${prefix}-${id.slice(0, 8)}`;
    await sql`INSERT INTO agents (id, slug, owner_fid, created_by, email, top_id, harness_id, created_at, updated_at)
      VALUES (${id}, ${slug}, 'bench-owner', 'bench-owner', ${`${slug}@agents.bench`}, ${id}, 'platform', now(), now())`.execute(
      db,
    );
  }
  return ids;
}
