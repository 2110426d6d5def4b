import { encodeCursor } from '@platform/kit';
import { closedLoop, type GetLoadWorker, median, round } from '@platform/kit/testing';
import { sql } from 'kysely';
import type { Db } from '../src/store/db.ts';
import type { startServer } from './lib.ts';

/**
 * Evidence benchmarks (issue 19):
 *
 * 1. Utterances: appending one line over HTTP (POST /v1/meetings/{id}/utterances) and reading the
 *    last page of 100 (GET …/utterances?after=) on a meeting of `large` lines against one of
 *    `small` (goal: p50 ratio <= 1.5 for each: an append takes the next seq from the record, a page
 *    is a range of the primary key (evidence_id, seq), neither follows the meeting's length).
 * 2. The whole transcript of 8,000 lines over HTTP (GET /v1/evidence/{id}/transcript, markdown)
 *    against its raw SQL (the same lines with speaker names and the participants through the same
 *    driver) (goal: throughput ratio >= 0.5).
 */
export const UTTERANCE_BENCH_PAGE = 100;
export const GOAL_UTTERANCE_GROWTH_MAX = 1.5;
export const TRANSCRIPT_LINES = 8000;
export const GOAL_TRANSCRIPT_RATIO_MIN = 0.5;

type Server = Awaited<ReturnType<typeof startServer>>;
export interface EvidenceBenchOptions {
  small: number;
  large: number;
  clients: number;
  count: number;
  rounds: number;
  warmupMs: number;
  /** Lines of the transcript case (8000; smaller for a quick check). */
  transcriptLines?: number;
}
type Row = (measure: string, value: string, goal?: string, result?: string) => void;
type Goal = (name: string, ok: boolean) => string;

/** `count` lines written straight to the table (two speakers in turn), as a long meeting would hold. */
export async function seedLines(db: Db, evidenceId: string, count: number, author: string) {
  for (let from = 1; from <= count; from += 20_000) {
    const to = Math.min(count, from + 19_999);
    await sql`INSERT INTO evidence_utterances (evidence_id, seq, speaker, text, start_ms, origin, written_by, created_at)
      SELECT ${evidenceId}, i, 'Speaker ' || (1 + i % 2),
        'Line number ' || i || ' of a long meeting about leases, budgets and the refund run', i * 1000, 'posted',
        ${author}, timestamptz '2025-01-01T00:00:00Z' + make_interval(secs => i)
      FROM generate_series(${from}::int, ${to}::int) AS i`.execute(db);
  }
  await sql`UPDATE evidence SET last_seq = ${count}, transcription_status = 'transcribed' WHERE id = ${evidenceId}`.execute(
    db,
  );
}

/** A meeting opened through the API holding `count` lines (participants Ana and Ben, the names of Speakers 1 and 2). */
async function meetingWith(db: Db, server: Server, count: number, author: string): Promise<string> {
  const m = await server.request(
    'POST',
    '/v1/meetings',
    { data: { source: 'zoom', title: `Bench ${count} lines`, participants: ['Ana', 'Ben'] } },
    201,
  );
  const id = m.id as string;
  await seedLines(db, id, count, author);
  for (const [label, name] of [
    ['Speaker 1', 'Ana'],
    ['Speaker 2', 'Ben'],
  ]) {
    await server.request('POST', `/v1/meetings/${id}/speakers/assign`, { data: { label, name } });
  }
  return id;
}

const lastPage = (id: string, count: number) =>
  `/v1/meetings/${id}/utterances?limit=${UTTERANCE_BENCH_PAGE}&after=${encodeCursor([count - UTTERANCE_BENCH_PAGE])}`;

export async function benchEvidence(
  db: Db,
  server: Server,
  worker: GetLoadWorker,
  author: string,
  o: EvidenceBenchOptions,
  report: { row: Row; goal: Goal },
) {
  const { row, goal } = report;
  const out: Record<string, unknown> = {};
  const ids = {
    small: await meetingWith(db, server, o.small, author),
    large: await meetingWith(db, server, o.large, author),
  };
  await sql`VACUUM ANALYZE evidence_utterances`.execute(db);
  for (const name of ['small', 'large'] as const) {
    const size = o[name];
    const page = (await server.request('GET', lastPage(ids[name], size))) as unknown as { seq: number }[];
    if (!Array.isArray(page) || page.length !== UTTERANCE_BENCH_PAGE || page.at(-1)?.seq !== size) {
      throw new Error(`utterances: the last page of ${size} is not seqs ${size - UTTERANCE_BENCH_PAGE + 1}..${size}`);
    }
  }

  // 1a. Append one line, large against small, alternating rounds.
  const append: Record<'small' | 'large', number[]> = { small: [], large: [] };
  const perRound = Math.ceil(o.count / o.rounds);
  for (let i = 0; i < o.rounds; i++) {
    for (const name of ['small', 'large'] as const) {
      const r = await closedLoop(o.clients, i === 0 ? o.warmupMs : 0, perRound, async () => {
        await server.request(
          'POST',
          `/v1/meetings/${ids[name]}/utterances`,
          { data: { lines: [{ speaker: 'Speaker 2', text: 'One more line of the bench' }] } },
          201,
        );
      });
      append[name].push(median(r.latenciesMs));
    }
  }
  const appendRatio = round(median(append.large.map((l, i) => l / (append.small[i] ?? l))));
  out.utterance_append = {
    small_lines: o.small,
    large_lines: o.large,
    p50_ms: { small: round(median(append.small)), large: round(median(append.large)) },
    ratio: appendRatio,
  };
  row(`POST .../utterances p50, ${o.small} lines`, `${round(median(append.small))} ms`);
  row(`POST .../utterances p50, ${o.large} lines`, `${round(median(append.large))} ms`);
  row(
    `  ratio ${o.large} / ${o.small}`,
    `${appendRatio}`,
    `<= ${GOAL_UTTERANCE_GROWTH_MAX}`,
    goal('utterance append flat in meeting length', appendRatio <= GOAL_UTTERANCE_GROWTH_MAX),
  );

  // 1b. The last page, read after the appends (the seqs grew: the page is the last 100 as seeded).
  const read: Record<'small' | 'large', number[]> = { small: [], large: [] };
  for (let i = 0; i < o.rounds; i++) {
    for (const name of ['small', 'large'] as const) {
      const r = await worker.run({
        url: server.url,
        paths: [lastPage(ids[name], o[name])],
        headers: server.headers,
        clients: o.clients,
        warmupMs: i === 0 ? o.warmupMs : 0,
        count: perRound,
        expectItems: UTTERANCE_BENCH_PAGE,
      });
      read[name].push(median(r.latenciesMs));
    }
  }
  const readRatio = round(median(read.large.map((l, i) => l / (read.small[i] ?? l))));
  out.utterance_last_page = {
    small_lines: o.small,
    large_lines: o.large,
    page: UTTERANCE_BENCH_PAGE,
    p50_ms: { small: round(median(read.small)), large: round(median(read.large)) },
    ratio: readRatio,
  };
  row(`GET .../utterances last page p50, ${o.small} lines`, `${round(median(read.small))} ms`);
  row(`GET .../utterances last page p50, ${o.large} lines`, `${round(median(read.large))} ms`);
  row(
    `  ratio ${o.large} / ${o.small} (pages of ${UTTERANCE_BENCH_PAGE})`,
    `${readRatio}`,
    `<= ${GOAL_UTTERANCE_GROWTH_MAX}`,
    goal('last page of utterances flat in meeting length', readRatio <= GOAL_UTTERANCE_GROWTH_MAX),
  );

  // 2. The whole transcript over HTTP against its raw SQL.
  const lines = o.transcriptLines ?? TRANSCRIPT_LINES;
  const tid = await meetingWith(db, server, lines, author);
  await sql`ANALYZE evidence_utterances`.execute(db);
  const path = `/v1/evidence/${tid}/transcript?format=markdown&max_lines=0`;
  const check = await server.request('GET', path);
  if (check.lines !== lines) throw new Error(`transcript: ${check.lines} lines, expected ${lines}`);
  const raw = async () => {
    const [participants, rows] = await Promise.all([
      sql<{
        name: string;
      }>`SELECT name FROM evidence_participants WHERE evidence_id = ${tid} ORDER BY position`.execute(db),
      sql<{ speaker: string; text: string }>`SELECT coalesce(s.name, u.speaker) AS speaker, u.text
        FROM evidence_utterances u
        LEFT JOIN evidence_speakers s ON s.evidence_id = u.evidence_id AND s.label = u.speaker
        WHERE u.evidence_id = ${tid} AND u.seq >= 1 ORDER BY u.seq LIMIT ${lines}`.execute(db),
    ]);
    // Participants: those listed, then any speaker not listed (as the route does).
    const names = participants.rows.map((p) => p.name);
    for (const l of rows.rows) if (!names.includes(l.speaker)) names.push(l.speaker);
    const md = [`Participants: ${names.join(', ')}`, '', ...rows.rows.map((l) => `${l.speaker}: ${l.text}`)].join('\n');
    if (rows.rows.length !== lines || md.length === 0) throw new Error('raw transcript: wrong line count');
  };
  const httpPerSecond: number[] = [];
  const rawPerSecond: number[] = [];
  const tCount = Math.max(o.rounds, Math.ceil(o.count / 10));
  for (let i = 0; i < o.rounds; i++) {
    const h = await worker.run({
      url: server.url,
      paths: [path],
      headers: server.headers,
      clients: o.clients,
      warmupMs: i === 0 ? o.warmupMs : 0,
      count: Math.ceil(tCount / o.rounds),
      expectItems: 2,
      itemsAt: 'participants',
    });
    const r = await closedLoop(o.clients, i === 0 ? o.warmupMs : 0, Math.ceil(tCount / o.rounds), raw);
    httpPerSecond.push(h.perSecond);
    rawPerSecond.push(r.perSecond);
  }
  const tRatio = round(median(httpPerSecond.map((x, i) => x / (rawPerSecond[i] ?? x))));
  out.transcript = {
    lines,
    http_per_second: round(median(httpPerSecond), 1),
    raw_sql_per_second: round(median(rawPerSecond), 1),
    ratio: tRatio,
  };
  row(`GET /v1/evidence/{id}/transcript, ${lines} lines`, `${round(median(httpPerSecond), 1)}/s`);
  row('  its raw SQL', `${round(median(rawPerSecond), 1)}/s`);
  row(
    '  ratio HTTP / raw SQL',
    `${tRatio}`,
    `>= ${GOAL_TRANSCRIPT_RATIO_MIN}`,
    goal(`transcript of ${lines} lines against its raw SQL`, tRatio >= GOAL_TRANSCRIPT_RATIO_MIN),
  );
  return out;
}
