import { randomUUID } from 'node:crypto';
import { authenticatorFromConfig, type Database, devFid, emptyDirectory } from '@platform/kit';
import { listenOnFreePort } from '@platform/kit/testing';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { buildApp } from '../src/app.ts';
import { workspaceConfig } from '../src/config.ts';
import type { DB, Db } from '../src/store/db.ts';

const ISSUER = 'http://127.0.0.1:1/bench-issuer';
export const BENCH_OWNER = devFid('bench.owner@ws.test');

/**
 * The workspace on a free port with the production authenticator: platform bearer tokens verified
 * against a key set the bench holds (the verified token is cached, as for any signed-in client).
 */
export async function startServer(database: Database<DB>) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256' }] });
  const config = workspaceConfig({ AUTH_ISSUER: ISSUER, SERVICE_TOKEN: randomUUID(), LOG_LEVEL: 'silent' });
  const app = await buildApp({
    database,
    authenticator: authenticatorFromConfig(config, { jwks, directory: emptyDirectory }),
    logLevel: 'silent',
  });
  const server = await listenOnFreePort(app);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: 'bench', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(config.PLATFORM_AUDIENCE)
    .setSubject(BENCH_OWNER)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const headers = { authorization: `Bearer ${token}` };
  const pool = new Pool(server.url, { connections: 16, pipelining: 1, keepAliveTimeout: 60_000 });

  /** One request; throws unless the status is the expected one. Commands get a fresh Idempotency-Key. */
  const request = async (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, status = 200) => {
    const res = await pool.request({
      method,
      path,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as { payload: { data: unknown } };
    if (res.statusCode !== status) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json.payload.data as Record<string, unknown>;
  };

  return {
    url: server.url,
    headers,
    request,
    close: async () => {
      await pool.close();
      await server.close();
    },
  };
}

/**
 * `count` tasks written straight to the table, as a bulk load would, top first from rank 1024, each
 * with its own change number 1..count (so the project reads as after `count` task writes); 70% are
 * tasks, the rest bugs and questions; statuses spread over the workflow.
 */
export async function seedTasks(db: Db, projectId: string, count: number) {
  for (let from = 1; from <= count; from += 20_000) {
    const to = Math.min(count, from + 19_999);
    await sql`INSERT INTO tasks (id, project_id, type, title, body, status_id, category, status_changed_at, rank,
        created_by, created_at, updated_at, change_seq)
      SELECT gen_random_uuid(), ${projectId},
        CASE WHEN i % 10 < 7 THEN 'task' WHEN i % 10 < 9 THEN 'bug' ELSE 'question' END,
        'Seeded task ' || i, 'Body of seeded task ' || i,
        (ARRAY['triage','backlog','todo','in_progress','in_review','done'])[1 + i % 6],
        (ARRAY['backlog','backlog','unstarted','started','review','completed'])[1 + i % 6],
        now() - (i || ' minutes')::interval, i * 1024, ${BENCH_OWNER}, now(), now(), i
      FROM generate_series(${from}::int, ${to}::int) AS i`.execute(db);
  }
  await sql`UPDATE projects SET change_seq = ${count} WHERE id = ${projectId}`.execute(db);
}
