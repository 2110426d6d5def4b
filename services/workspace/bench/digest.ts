import { closedLoop, median, round } from '@platform/kit/testing';
import { sql } from 'kysely';
import type { Db } from '../src/store/db.ts';
import { digestFor } from '../src/store/digests.ts';
import { BENCH_OWNER, type startServer } from './lib.ts';

/**
 * The digest (issue 16) at a large activity feed against a small one: `count` activity rows
 * written straight to the table before the reader's visit, as a project's history would be, then
 * NEW_ROWS real task creations through the API after it. The digest then counts NEW_ROWS rows of
 * either feed; its cost must follow them, not the feed's length (goal: p50 ratio <= 1.5).
 */
export const NEW_ROWS = 50;
export const GOAL_DIGEST_GROWTH_MAX = 1.5;

export async function seedActivity(db: Db, projectId: string, count: number) {
  const kinds = `(ARRAY['item.created','item.status_changed','item.updated','goal.checked_in','decision.proposed'])[1 + i % 5]`;
  for (let from = 1; from <= count; from += 20_000) {
    const to = Math.min(count, from + 19_999);
    await sql`INSERT INTO activity (id, project_id, kind, subject_id, actor, position, created_at)
      SELECT gen_random_uuid(), ${projectId}, ${sql.raw(kinds)}, gen_random_uuid(), ${BENCH_OWNER}, i,
        timestamptz '2025-01-01T00:00:00Z' + make_interval(secs => i)
      FROM generate_series(${from}::int, ${to}::int) AS i`.execute(db);
  }
  await sql`INSERT INTO activity_heads (project_id, position) VALUES (${projectId}, ${count})
    ON CONFLICT (project_id) DO UPDATE SET position = ${count}`.execute(db);
}

type Server = Awaited<ReturnType<typeof startServer>>;

/** A project whose feed holds `count` rows before the owner's visit and NEW_ROWS after it. */
export async function digestProject(db: Db, server: Server, name: string, count: number): Promise<string> {
  const p = await server.request('POST', '/v1/projects', { data: { name } }, 201);
  const id = p.id as string;
  await seedActivity(db, id, count);
  await server.request('POST', `/v1/projects/${id}/visit`, {});
  for (let i = 0; i < NEW_ROWS; i++) {
    await server.request('POST', `/v1/projects/${id}/items`, { data: { title: `After the visit ${i}` } }, 201);
  }
  const d = await server.request('GET', `/v1/projects/${id}/digest`);
  if (d.total !== NEW_ROWS) throw new Error(`${name}: the digest counts ${d.total}, not ${NEW_ROWS}`);
  return id;
}

/**
 * p50 latencies of the digest at each size, in alternating rounds: GET over HTTP (the cached
 * digest, as readers see it between feed moves), and the count itself (the store's digestFor with
 * its cached row removed first, what a read costs right after the feed moved).
 */
export async function measureDigest(
  db: Db,
  server: Server,
  projects: { small: string; large: string },
  o: { clients: number; count: number; rounds: number; warmupMs: number },
) {
  const read: Record<'small' | 'large', number[]> = { small: [], large: [] };
  const recount: Record<'small' | 'large', number[]> = { small: [], large: [] };
  const perRound = Math.ceil(o.count / o.rounds);
  for (let i = 0; i < o.rounds; i++) {
    for (const name of ['small', 'large'] as const) {
      const id = projects[name];
      const r = await closedLoop(o.clients, i === 0 ? o.warmupMs : 0, perRound, async () => {
        await server.request('GET', `/v1/projects/${id}/digest`);
      });
      read[name].push(median(r.latenciesMs));
      const c = await closedLoop(1, 0, Math.ceil(perRound / 4), async () => {
        await sql`DELETE FROM digests WHERE project_id = ${id}`.execute(db);
        const d = await digestFor(db, id, BENCH_OWNER, new Date(), false);
        if (d.total !== NEW_ROWS) throw new Error(`recount: ${d.total}`);
      });
      recount[name].push(median(c.latenciesMs));
    }
  }
  const ratio = (m: Record<'small' | 'large', number[]>) => round(median(m.large.map((l, i) => l / (m.small[i] ?? l))));
  return {
    read_p50_ms: { small: round(median(read.small)), large: round(median(read.large)) },
    read_ratio: ratio(read),
    recount_p50_ms: { small: round(median(recount.small)), large: round(median(recount.large)) },
    recount_ratio: ratio(recount),
  };
}
