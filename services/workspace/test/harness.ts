import { randomUUID } from 'node:crypto';
import {
  type App,
  chain,
  DevPrincipals,
  devFid,
  devHeaderAuthenticator,
  serviceTokenAuthenticator,
} from '@platform/kit';
import { injectJson, outboxEvents, rowCount, rowCounts, testDatabase } from '@platform/kit/testing';
import { sql } from 'kysely';
import { buildApp, type WorkspaceDeps } from '../src/app.ts';
import type { Role } from '../src/domain/roles.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { Checkin, Goal } from '../src/schemas/goals.ts';
import type { Project } from '../src/schemas/projects.ts';
import type { Task } from '../src/schemas/tasks.ts';
import type { DB } from '../src/store/db.ts';
import { changeCounters, upsertMember } from '../src/store/projects.ts';

/** A platform admin of config/dev-principals.json; every other email is a person with no grants. */
export const ADMIN = 'admin@dev.local';
export const OWNER = 'owner@ws.test';
export const EDITOR = 'editor@ws.test';
export const VIEWER = 'viewer@ws.test';
export const OUTSIDER = 'outsider@ws.test';

/** A person's FID, as the dev header gives it (DECISIONS item 3). */
export const fid = devFid;

export const tag = () => randomUUID().slice(0, 8);

/** The shared service token the harness accepts (X-Platform-Service-Token). */
export const SERVICE_TOKEN = 'workspace-harness-service-token';
/** The shared service token acting for `email` (X-Platform-On-Behalf-Of). */
export const viaToken = (email: string) => ({
  headers: { 'x-platform-service-token': SERVICE_TOKEN, 'x-platform-on-behalf-of': email },
});

/**
 * How a request proves who it is: an email (the dev header), {headers} for exactly these
 * headers, or null for nothing.
 */
export type As = string | { headers: Record<string, string> } | null;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One workspace app per test file on a fresh database, with the dev-header authenticator and a
 * clock the test sets. `call` sends a request as someone; commands get a fresh Idempotency-Key
 * unless given one (null sends none).
 */
/** The redaction approval key the harness's app is configured with (unless a test says otherwise). */
export const REDACTION_KEY = 'harness-redaction-approval-key';

export async function harness(
  opts: { now?: string; app?: Partial<Omit<WorkspaceDeps, 'database' | 'authenticator' | 'clock'>> } = {},
) {
  const database = await testDatabase<DB>('workspace', MIGRATIONS);
  let now = new Date(opts.now ?? '2025-06-16T15:00:00Z');
  const directory = DevPrincipals.load();
  const app = await buildApp({
    database,
    authenticator: chain(
      serviceTokenAuthenticator({ tokens: [SERVICE_TOKEN], directory }),
      devHeaderAuthenticator(directory),
    ),
    clock: () => now,
    logLevel: 'silent',
    redactionApprovalKey: REDACTION_KEY,
    ...opts.app,
  });
  await app.ready();

  const headersFor = (as: As): Record<string, string> => {
    if (as === null) return {};
    if (typeof as === 'string') return { 'x-dev-principal': as };
    return as.headers;
  };

  const call = (
    method: Method,
    url: string,
    as: As,
    body?: unknown,
    key: string | null = method === 'GET' ? null : randomUUID(),
  ) => injectJson(app as App, method as 'GET', url, { headers: headersFor(as), body, key });

  const expectStatus = (what: string, r: { status: number; body: unknown }, status: number) => {
    if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  };

  const h = {
    app: app as App,
    database,
    db: database.db,
    call,
    expectStatus,
    setNow: (isoTime: string) => {
      now = new Date(isoTime);
    },
    now: () => now,
    /** A project created by `owner` (OWNER by default); the name gets a unique tag unless given. */
    async project(input: Record<string, unknown> = {}, owner: string = OWNER): Promise<Project> {
      const r = await call('POST', '/v1/projects', owner, { data: { name: `Project ${tag()}`, ...input } });
      expectStatus('project', r, 201);
      return r.data as Project;
    },
    /** Makes `email` a member with `role` (test set-up; the members routes have their own tests). */
    async member(projectId: string, email: string, role: Role) {
      await upsertMember(database.db, projectId, fid(email), role, 'test', now);
    },
    /** A project with an owner, an editor and a viewer. */
    async team(input: Record<string, unknown> = {}) {
      const p = await h.project(input);
      await h.member(p.id, EDITOR, 'editor');
      await h.member(p.id, VIEWER, 'viewer');
      return p;
    },
    /** A task added by `as` (EDITOR by default); the title gets a unique tag unless given. */
    async task(projectId: string, data: Record<string, unknown> = {}, as: string = EDITOR): Promise<Task> {
      const r = await call('POST', `/v1/projects/${projectId}/items`, as, {
        data: { title: `Task ${tag()}`, ...data },
      });
      expectStatus('task', r, 201);
      return r.data as Task;
    },
    /** The project's latest change number. */
    seq: async (projectId: string) => (await changeCounters(database.db, projectId)).seq,
    /** Rows of the outbox, oldest first: what commands committed for publishing. */
    events: (type?: string) => outboxEvents(database.db, type),
    count: (table: string) => rowCount(database.db, table),
    counts: () => rowCounts(database.db),
    /**
     * A fingerprint of everything a command could write: a digest of every row of every table of
     * the schema (so an update shows, not only an insert), the outbox and the stored keys included.
     */
    async state() {
      const out: Record<string, unknown> = {};
      for (const table of Object.keys(await rowCounts(database.db))) {
        const r = await sql<{ n: string; digest: string | null }>`
          SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest
          FROM ${sql.table(table)} t`.execute(database.db);
        out[table] = r.rows[0];
      }
      return out;
    },
    async close_() {
      await app.close();
      await database.drop();
    },
    /** A goal added by `as` (OWNER by default); the title gets a unique tag unless given. */
    async goal(projectId: string, data: Record<string, unknown> = {}, as: string = OWNER): Promise<Goal> {
      const r = await call('POST', `/v1/projects/${projectId}/goals`, as, {
        data: { title: `Goal ${tag()}`, ...data },
      });
      expectStatus('goal', r, 201);
      return r.data as Goal;
    },
    /** A check-in on a goal by `as` (OWNER by default): on_track with a short note unless given. */
    async checkin(projectId: string, goalId: string, data: Record<string, unknown> = {}, as: string = OWNER) {
      const r = await call('POST', `/v1/projects/${projectId}/goals/${goalId}/checkins`, as, {
        data: { status: 'on_track', note: 'Moving along', ...data },
      });
      expectStatus('checkin', r, 201);
      return r.data as Checkin;
    },
    /** A task as GET .../items/{id} reads it (as OWNER). */
    async readTask(projectId: string, taskId: string): Promise<Task> {
      const r = await call('GET', `/v1/projects/${projectId}/items/${taskId}`, OWNER);
      expectStatus('read task', r, 200);
      return r.data as Task;
    },
    /** Everything a refused task write must leave alone: row counts, the change number, the task. */
    taskState: async (projectId: string, taskId: string) => ({
      counts: await h.counts(),
      seq: await h.seq(projectId),
      task: await h.readTask(projectId, taskId),
    }),
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof harness>>;
