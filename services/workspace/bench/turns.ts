import { encodeCursor } from '@platform/kit';
import { type GetLoadWorker, median, round } from '@platform/kit/testing';
import { sql } from 'kysely';
import type { Db } from '../src/store/db.ts';
import type { startServer } from './lib.ts';

/**
 * The last page of a conversation's turns (issue 16) at a large conversation against a small one:
 * turns are cursor paged by seq, so a page is a range scan of the primary key and its cost must not
 * follow the conversation's length (goal: p50 ratio <= 1.5).
 */
export const TURN_PAGE = 100;
export const GOAL_TURNS_GROWTH_MAX = 1.5;

type Server = Awaited<ReturnType<typeof startServer>>;

/** `count` turns written straight to the table (every fourth one a lookup), as a long thread would hold. */
export async function seedTurns(db: Db, conversationId: string, count: number, author: string) {
  for (let from = 1; from <= count; from += 20_000) {
    const to = Math.min(count, from + 19_999);
    await sql`INSERT INTO conversation_turns (conversation_id, seq, turn_kind, author, text, extra, written_by, created_at)
      SELECT ${conversationId}, i, CASE WHEN i % 4 = 0 THEN 'lookup' ELSE 'utterance' END, ${author},
        'Turn number ' || i || ' of a long conversation about leases and budgets', '{}'::jsonb, ${author},
        timestamptz '2025-01-01T00:00:00Z' + make_interval(secs => i)
      FROM generate_series(${from}::int, ${to}::int) AS i`.execute(db);
  }
  await sql`UPDATE conversations SET last_seq = ${count}, utterance_count = ${count - Math.floor(count / 4)},
    last_turn_at = now(), last_activity_at = now() WHERE id = ${conversationId}`.execute(db);
}

/** A conversation started through the API holding `count` turns, and the path of its last page. */
export async function turnsConversation(db: Db, server: Server, count: number, author: string) {
  const c = await server.request('POST', '/v1/conversations', { data: { title: `Bench ${count} turns` } }, 201);
  const id = c.id as string;
  await seedTurns(db, id, count, author);
  const path = `/v1/conversations/${id}/turns?limit=${TURN_PAGE}&after=${encodeCursor([count - TURN_PAGE])}`;
  const page = (await server.request('GET', path)) as unknown as { seq: number }[];
  if (!Array.isArray(page) || page.length !== TURN_PAGE || page.at(-1)?.seq !== count) {
    throw new Error(`turns: the last page of ${count} is not seqs ${count - TURN_PAGE + 1}..${count}`);
  }
  return path;
}

/** p50 latency of the last page at each size over HTTP, in alternating rounds, and their ratio. */
export async function measureLastPage(
  server: Server,
  worker: GetLoadWorker,
  paths: { small: string; large: string },
  o: { clients: number; count: number; rounds: number; warmupMs: number },
) {
  const p50: Record<'small' | 'large', number[]> = { small: [], large: [] };
  const perRound = Math.ceil(o.count / o.rounds);
  for (let i = 0; i < o.rounds; i++) {
    for (const name of ['small', 'large'] as const) {
      const r = await worker.run({
        url: server.url,
        paths: [paths[name]],
        headers: server.headers,
        clients: o.clients,
        warmupMs: i === 0 ? o.warmupMs : 0,
        count: perRound,
        expectItems: TURN_PAGE,
      });
      p50[name].push(median(r.latenciesMs));
    }
  }
  return {
    p50_ms: { small: round(median(p50.small)), large: round(median(p50.large)) },
    ratio: round(median(p50.large.map((l, i) => l / (p50.small[i] ?? l)))),
  };
}
