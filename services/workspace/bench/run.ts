import { randomUUID } from 'node:crypto';
import {
  type BenchKind,
  BenchRun,
  benchDatabase,
  benchEnv,
  closedLoop,
  GetLoadWorker,
  type LoadResult,
  median,
  mergeRounds,
  quantile,
  round,
} from '@platform/kit/testing';
import { sql } from 'kysely';
import { MIGRATIONS } from '../src/migrations.ts';
import { changesSince } from '../src/store/changes.ts';
import type { DB, Db } from '../src/store/db.ts';
import { listTasks, type TaskListFilter } from '../src/store/task-list.ts';
import { benchAudit } from './audit.ts';
import { rawCaseValue, seedCases } from './cases.ts';
import { digestProject, GOAL_DIGEST_GROWTH_MAX, measureDigest, NEW_ROWS } from './digest.ts';
import { benchEvidence } from './evidence.ts';
import { BENCH_OWNER, seedTasks, startServer } from './lib.ts';
import { GOAL_TURNS_GROWTH_MAX, measureLastPage, TURN_PAGE, turnsConversation } from './turns.ts';

/**
 * The workspace benchmark: `npm run bench -w services/workspace`.
 *
 * 1. GET /v1/projects/{id}/changes?since= with 50 tasks changed (by real moves through the API),
 *    on a project of 100,000 tasks against one of 1,000 (goal: p50 latency ratio <= 1.5 — the cost
 *    follows the changes, not the size of the project).
 * 2. Task create and move throughput over HTTP (idempotency record, project lock, change number,
 *    version or change-log row, outbox event, feed row, one transaction each) against the bare SQL
 *    writes of the same rows but the key record, through the same driver (issue 22 goals: create
 *    >= 0.5, move >= 0.4).
 * 3. A list of 500 tasks with filters over HTTP against the raw SQL of the same statements
 *    (page and total) through the same driver (goal: ratio >= 0.5).
 * 4. GET /v1/projects/{id}/case-value over 10,000 cases (BENCH_CASES) with their amounts, over HTTP
 *    against hand-written SQL of the same sums, duplicates and dismissed cases through the same
 *    driver (goal: ratio >= 0.5).
 * 5. GET /v1/projects/{id}/digest with 50 activity rows since the reader's visit, on a feed of
 *    100,000 rows against one of 1,000 (goal: p50 ratio <= 1.5), and its count right after the feed
 *    moved (informational).
 * 6. GET /v1/conversations/{id}/turns, the last page of 100, on a conversation of 100,000 turns
 *    against one of 1,000 (goal: p50 ratio <= 1.5: a page is a range of seqs, whatever the length).
 * 7. Evidence (issue 19, bench/evidence.ts): appending an utterance line and the last page of 100
 *    lines on a meeting of 100,000 lines against one of 1,000 (goal: p50 ratio <= 1.5 each), and the
 *    8,000-line transcript over HTTP against its raw SQL (goal: ratio >= 0.5). BENCH_TRANSCRIPT_LINES
 *    (8000) sizes the transcript case.
 * 8. Audit (issue 19, bench/audit.ts): events from the outbox through NATS JetStream to audit rows
 *    against publishing the same events with the NATS client (goal: throughput ratio >= 0.5);
 *    BENCH_AUDIT_EVENTS (5000) per round; skipped, saying so, without a reachable NATS server.
 *
 * HTTP GET loads come from keep-alive clients in a worker thread; rounds alternate between the
 * two sides and ratios are medians of the rounds' ratios. Always on in-memory PGlite; also on
 * PostgreSQL when DATABASE_URL is set. Writes bench/results/workspace.json.
 *
 * Knobs: BENCH_LARGE (100000), BENCH_SMALL (1000), BENCH_CLIENTS (8), BENCH_COUNT (requests per
 * side and case, 600), BENCH_WRITES (writes per side, 400), BENCH_ROUNDS (3), BENCH_WARMUP_MS (1000),
 * BENCH_STRICT=1 (exit 1 when a goal is missed).
 */

const { num } = benchEnv;
const LARGE = num('BENCH_LARGE', 100_000);
const SMALL = num('BENCH_SMALL', 1_000);
const CLIENTS = num('BENCH_CLIENTS', 8);
const COUNT = num('BENCH_COUNT', 600);
const WRITES = num('BENCH_WRITES', 400);
const ROUNDS = num('BENCH_ROUNDS', 3);
const WARMUP_MS = num('BENCH_WARMUP_MS', 1_000);
const CHANGED = 50;
const LIST_PAGE = { page: 1, pageSize: 500 };
const GOAL_FEED_GROWTH_MAX = 1.5;
const GOAL_LIST_RATIO_MIN = 0.5;
const CASES = num('BENCH_CASES', 10_000);
const GOAL_CASE_VALUE_RATIO_MIN = 0.5;
/** Issue 22: task create and move over HTTP against the bare SQL writes of the same rows. */
const GOAL_CREATE_RATIO_MIN = 0.5;
const GOAL_MOVE_RATIO_MIN = 0.4;

const run = new BenchRun('workspace');
const { log, goal, row } = run;

const summary = (r: LoadResult) => ({
  requests: r.count,
  seconds: round(r.seconds, 3),
  per_second: round(r.perSecond, 1),
  latency_ms: {
    p50: round(median(r.latenciesMs)),
    p95: round(quantile(r.latenciesMs, 0.95)),
    p99: round(quantile(r.latenciesMs, 0.99)),
  },
});

/** EXPLAIN of the change feed's statement: which index the changed tasks come from. */
async function explainFeed(db: Db, projectId: string, since: number) {
  const r = await sql<Record<string, string>>`EXPLAIN (COSTS OFF)
    SELECT * FROM tasks WHERE project_id = ${projectId} AND change_seq > ${since}::bigint
    ORDER BY change_seq, id LIMIT 501`.execute(db);
  const plan = r.rows.map((x) => Object.values(x)[0] as string);
  return { plan, index_used: plan.join('\n').includes('tasks_project_change') };
}

async function runKind(kind: BenchKind) {
  const bench = await benchDatabase<DB>('workspace', MIGRATIONS, kind);
  const db = bench.database.db;
  const server = await startServer(bench.database);
  const worker = new GetLoadWorker();
  const out: Record<string, unknown> = {};
  run.section(kind);
  try {
    const project = async (name: string) =>
      (await server.request('POST', '/v1/projects', { data: { name } }, 201)).id as string;
    const small = await project('Small');
    const large = await project('Large');
    const t0 = performance.now();
    await seedTasks(db, small, SMALL);
    await seedTasks(db, large, LARGE);
    // As autovacuum would after a bulk load (PGlite has none): visibility map and statistics.
    await sql`VACUUM ANALYZE tasks`.execute(db);
    log(`${kind}: ${SMALL} + ${LARGE} tasks seeded (${round((performance.now() - t0) / 1000, 1)} s)`);

    // 1. The change feed: 50 tasks changed by real moves to another status.
    const feed: Record<string, unknown> = {};
    const since: Record<string, number> = {};
    for (const [name, id, size] of [
      ['small', small, SMALL],
      ['large', large, LARGE],
    ] as const) {
      since[name] = Number((await server.request('GET', `/v1/projects/${id}/changes`)).seq);
      const ids = await sql<{ id: string }>`SELECT id FROM tasks WHERE project_id = ${id} AND status_id <> 'in_progress'
        ORDER BY rank LIMIT ${CHANGED}`.execute(db);
      for (const t of ids.rows) {
        await server.request('POST', `/v1/projects/${id}/items/${t.id}/move`, { data: { status_id: 'in_progress' } });
      }
      const check = await changesSince(db, id, BigInt(since[name] as number));
      if (check.items.length !== CHANGED) throw new Error(`${name}: ${check.items.length} changed, not ${CHANGED}`);
      feed[`${name}_tasks`] = size;
    }
    const feedRounds: Record<string, LoadResult[]> = { small: [], large: [] };
    const perRound = Math.ceil(COUNT / ROUNDS);
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, id] of [
        ['small', small],
        ['large', large],
      ] as const) {
        feedRounds[name]?.push(
          await worker.run({
            url: server.url,
            paths: [`/v1/projects/${id}/changes?since=${since[name]}`],
            headers: server.headers,
            clients: CLIENTS,
            warmupMs: i === 0 ? WARMUP_MS : 0,
            count: perRound,
            expectItems: CHANGED,
            itemsAt: 'items',
          }),
        );
      }
    }
    const fs = summary(mergeRounds(feedRounds.small as LoadResult[]));
    const fl = summary(mergeRounds(feedRounds.large as LoadResult[]));
    const growth = median(
      (feedRounds.large as LoadResult[]).map(
        (r, i) => median(r.latenciesMs) / median((feedRounds.small as LoadResult[])[i]?.latenciesMs ?? [1]),
      ),
    );
    const plan = await explainFeed(db, large, since.large as number);
    out.change_feed = {
      ...feed,
      changed: CHANGED,
      small: fs,
      large: fl,
      p50_ratio_large_to_small: round(growth),
      plan,
    };
    row(`GET /changes?since= p50, ${SMALL} tasks`, `${fs.latency_ms.p50} ms`);
    row(`GET /changes?since= p50, ${LARGE} tasks`, `${fl.latency_ms.p50} ms`);
    row(
      `  ratio ${LARGE} / ${SMALL} (50 changed each)`,
      `${round(growth)}`,
      `<= ${GOAL_FEED_GROWTH_MAX}`,
      goal('change feed flat in project size', growth <= GOAL_FEED_GROWTH_MAX),
    );
    row('  feed reads the index tasks_project_change', String(plan.index_used));

    // 2. Writes: create and move over HTTP against the bare SQL of the same rows.
    const writes: Record<string, unknown> = {};
    const target = await project('Writes');
    await seedTasks(db, target, SMALL);
    await sql`ANALYZE tasks`.execute(db);
    // Moves go between two of the top 500 tasks (anchors, which never move, so their order holds
    // under concurrent moves); the moved tasks are the others.
    const ordered = (
      await sql<{ id: string }>`SELECT id FROM tasks WHERE project_id = ${target} ORDER BY rank, id`.execute(db)
    ).rows.map((r) => r.id);
    const anchors = ordered.slice(0, 500);
    const taskIds = ordered.slice(500);
    const pickTask = () => taskIds[Math.floor(Math.random() * taskIds.length)] as string;
    // The bare side writes the rows the route writes, each in the plainest statement: the change
    // number and the task (and its first version, or its change-log row), one outbox event and the
    // feed's row with its head, in one transaction. Like accounting's baseline it leaves out the
    // Idempotency-Key record: that is the command path's own cost, which issue 22 asks to shrink.
    const rawEvent = (trx: Db, type: string, data: object) => {
      const id = randomUUID();
      const payload = { id, type, source: 'workspace', occurred_at: new Date().toISOString(), data };
      return sql`INSERT INTO outbox (event_id, subject, event_type, restricted, payload, occurred_at)
        VALUES (${id}, ${`workspace.${type}`}, ${type}, false, ${JSON.stringify(payload)}, now())`.execute(trx);
    };
    const rawActivity = async (trx: Db, kind: string, subject: string) => {
      await sql`WITH head AS (
          INSERT INTO activity_heads (project_id, position) VALUES (${target}, 1)
          ON CONFLICT (project_id) DO UPDATE SET position = activity_heads.position + 1 RETURNING position)
        INSERT INTO activity (id, project_id, kind, subject_id, actor, position, created_at)
        SELECT ${randomUUID()}, ${target}, ${kind}, ${subject}, ${BENCH_OWNER}, position, now() FROM head`.execute(trx);
    };
    const rawCreate = async () => {
      await db.transaction().execute(async (trx) => {
        const seq = await sql<{ s: string }>`UPDATE projects SET change_seq = change_seq + 1 WHERE id = ${target}
          RETURNING change_seq AS s`.execute(trx);
        const id = randomUUID();
        await sql`INSERT INTO tasks (id, project_id, type, title, status_id, category, status_changed_at, rank,
            created_by, created_at, updated_at, change_seq)
          VALUES (${id}, ${target}, 'task', 'Raw', 'triage', 'backlog', now(),
            (SELECT coalesce(min(rank), 0) - 1024 FROM tasks WHERE project_id = ${target}), ${BENCH_OWNER}, now(), now(),
            ${seq.rows[0]?.s})`.execute(trx);
        await sql`INSERT INTO task_versions (task_id, version, type, title, body, fields, links, author, created_at)
          VALUES (${id}, 1, 'task', 'Raw', '', '{}', '[]', ${BENCH_OWNER}, now())`.execute(trx);
        await rawEvent(trx, 'project.item_created', {
          projectId: target,
          itemId: id,
          type: 'task',
          actor: BENCH_OWNER,
        });
        await rawActivity(trx, 'item_created', id);
      });
    };
    const rawMove = async () => {
      await db.transaction().execute(async (trx) => {
        const seq = await sql<{ s: string }>`UPDATE projects SET change_seq = change_seq + 1 WHERE id = ${target}
          RETURNING change_seq AS s`.execute(trx);
        const id = pickTask();
        await sql`UPDATE tasks SET status_id = 'todo', category = 'unstarted', status_changed_at = now(),
            updated_at = now(), change_seq = ${seq.rows[0]?.s} WHERE id = ${id}`.execute(trx);
        await sql`INSERT INTO task_changes (id, project_id, task_id, field, old_value, new_value, actor, change_seq, created_at)
          VALUES (${randomUUID()}, ${target}, ${id}, 'status_id', '"triage"', '"todo"', ${BENCH_OWNER}, ${seq.rows[0]?.s},
            now())`.execute(trx);
        await rawEvent(trx, 'project.item_status_changed', { projectId: target, itemId: id, actor: BENCH_OWNER });
        await rawActivity(trx, 'item_status_changed', id);
      });
    };
    const httpCreate = () =>
      server.request('POST', `/v1/projects/${target}/items`, { data: { title: 'Bench task', type: 'task' } }, 201);
    const httpMove = async () => {
      const at = Math.floor(Math.random() * (anchors.length - 1));
      const [a, b] = [anchors[at], anchors[at + 1]];
      await server.request('POST', `/v1/projects/${target}/items/${pickTask()}/move`, {
        data: { status_id: 'in_progress', after_id: a, before_id: b },
      });
    };
    for (const [name, http, raw] of [
      ['create', httpCreate, rawCreate],
      ['move', httpMove, rawMove],
    ] as const) {
      const h: LoadResult[] = [];
      const r: LoadResult[] = [];
      const n = Math.ceil(WRITES / ROUNDS);
      for (let i = 0; i < ROUNDS; i++) {
        h.push(await closedLoop(CLIENTS, 0, n, async () => void (await http())));
        r.push(await closedLoop(CLIENTS, 0, n, async () => void (await raw())));
      }
      const ratio = median(h.map((x, i) => x.perSecond / (r[i] as LoadResult).perSecond));
      const hs = summary(mergeRounds(h));
      const rs = summary(mergeRounds(r));
      writes[name] = { http: hs, raw_sql: rs, ratio: round(ratio) };
      const min = name === 'create' ? GOAL_CREATE_RATIO_MIN : GOAL_MOVE_RATIO_MIN;
      row(`task ${name} over HTTP`, `${hs.per_second}/s`, '', `p50 ${hs.latency_ms.p50} ms`);
      row(`  against the bare SQL writes of the same rows`, `${rs.per_second}/s`, '', '');
      row(`  ratio`, `${round(ratio)}`, `>= ${min}`, goal(`task ${name} against its bare writes`, ratio >= min));
    }
    out.writes = writes;

    // 3. A list of 500 tasks with filters, over HTTP and as the raw statements.
    const filter: TaskListFilter = {
      type: 'task',
      state: 'open',
      archived: 'false',
      sort: 'position',
      sortDesc: false,
    };
    const listPath = `/v1/projects/${small}/items?type=task&state=open&pagination[pageSize]=${LIST_PAGE.pageSize}`;
    const { total } = await listTasks(db, small, filter, LIST_PAGE);
    if (total < LIST_PAGE.pageSize) throw new Error(`the list filter matches ${total} tasks, fewer than a page`);
    const lh: LoadResult[] = [];
    const lr: LoadResult[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const warmupMs = i === 0 ? WARMUP_MS : 0;
      lh.push(
        await worker.run({
          url: server.url,
          paths: [listPath],
          headers: server.headers,
          clients: CLIENTS,
          warmupMs,
          count: perRound,
          expectItems: LIST_PAGE.pageSize,
        }),
      );
      lr.push(
        await closedLoop(CLIENTS, warmupMs, perRound, async () => {
          const page = await listTasks(db, small, filter, LIST_PAGE);
          if (page.items.length !== LIST_PAGE.pageSize) throw new Error(`raw list has ${page.items.length} rows`);
        }),
      );
    }
    const listRatio = median(lh.map((x, i) => x.perSecond / (lr[i] as LoadResult).perSecond));
    const ls = summary(mergeRounds(lh));
    const lrs = summary(mergeRounds(lr));
    out.list = { filter: listPath, matching: total, http: ls, raw_sql: lrs, ratio: round(listRatio) };
    row(`list 500 tasks (type=task, state=open) over HTTP`, `${ls.per_second}/s`, '', `p50 ${ls.latency_ms.p50} ms`);
    row(
      `  HTTP / raw SQL of the same statements`,
      `${round(listRatio)}`,
      `>= ${GOAL_LIST_RATIO_MIN}`,
      goal('list of 500 tasks against raw SQL', listRatio >= GOAL_LIST_RATIO_MIN),
    );

    // 4. case-value over CASES cases, over HTTP and as hand-written SQL.
    const casesProject = await project('Cases');
    await seedCases(db, casesProject, CASES);
    await sql`ANALYZE cases`.execute(db);
    await sql`ANALYZE case_amounts`.execute(db);
    const valuePath = `/v1/projects/${casesProject}/case-value`;
    const fromRoute = await server.request('GET', valuePath);
    const fromRaw = await rawCaseValue(db, casesProject);
    const duplicates = (fromRoute.duplicates as unknown[]).length;
    const identified = (fromRoute.stages as { identified: { totals: { currency: string; amount: number }[] } })
      .identified.totals;
    const rawIdentified = fromRaw.stages
      .filter((r) => r.stage === 'identified')
      .map((r) => ({ currency: r.currency, amount: Number(r.amount) }))
      .sort((a, b) => a.currency.localeCompare(b.currency));
    if (duplicates !== fromRaw.duplicates.length || JSON.stringify(identified) !== JSON.stringify(rawIdentified)) {
      throw new Error('case-value: the route and the raw SQL disagree');
    }
    const vh: LoadResult[] = [];
    const vr: LoadResult[] = [];
    const valueCount = Math.max(ROUNDS, Math.ceil(COUNT / 10 / ROUNDS));
    for (let i = 0; i < ROUNDS; i++) {
      const warmupMs = i === 0 ? WARMUP_MS : 0;
      vh.push(
        await worker.run({
          url: server.url,
          paths: [valuePath],
          headers: server.headers,
          clients: CLIENTS,
          warmupMs,
          count: valueCount,
          expectItems: duplicates,
          itemsAt: 'duplicates',
        }),
      );
      vr.push(
        await closedLoop(CLIENTS, warmupMs, valueCount, async () => {
          const r = await rawCaseValue(db, casesProject);
          if (r.duplicates.length !== duplicates)
            throw new Error(`raw case-value has ${r.duplicates.length} duplicates`);
        }),
      );
    }
    const valueRatio = median(vh.map((x, i) => x.perSecond / (vr[i] as LoadResult).perSecond));
    const vs = summary(mergeRounds(vh));
    const vrs = summary(mergeRounds(vr));
    out.case_value = {
      cases: CASES,
      duplicates,
      dismissed: fromRaw.dismissed.length,
      http: vs,
      raw_sql: vrs,
      ratio: round(valueRatio),
    };
    row(`case-value over ${CASES} cases over HTTP`, `${vs.per_second}/s`, '', `p50 ${vs.latency_ms.p50} ms`);
    row(
      `  HTTP / hand-written SQL of the same work`,
      `${round(valueRatio)}`,
      `>= ${GOAL_CASE_VALUE_RATIO_MIN}`,
      goal(`case-value over ${CASES} cases against its raw SQL`, valueRatio >= GOAL_CASE_VALUE_RATIO_MIN),
    );

    // 5. The digest at LARGE activity rows against SMALL, NEW_ROWS since the reader's visit (issue 16).
    const digestSmall = await digestProject(db, server, 'Digest small', SMALL);
    const digestLarge = await digestProject(db, server, 'Digest large', LARGE);
    await sql`ANALYZE activity`.execute(db);
    const dg = await measureDigest(
      db,
      server,
      { small: digestSmall, large: digestLarge },
      { clients: CLIENTS, count: COUNT, rounds: ROUNDS, warmupMs: WARMUP_MS },
    );
    out.digest = { small_rows: SMALL, large_rows: LARGE, new_rows: NEW_ROWS, ...dg };
    row(`GET /digest p50, ${SMALL} activity rows`, `${dg.read_p50_ms.small} ms`);
    row(`GET /digest p50, ${LARGE} activity rows`, `${dg.read_p50_ms.large} ms`);
    row(
      `  ratio ${LARGE} / ${SMALL} (${NEW_ROWS} rows since the visit)`,
      `${dg.read_ratio}`,
      `<= ${GOAL_DIGEST_GROWTH_MAX}`,
      goal('digest flat in feed length', dg.read_ratio <= GOAL_DIGEST_GROWTH_MAX),
    );
    row(
      '  its count right after the feed moved, ratio',
      `${dg.recount_ratio}`,
      '',
      `p50 ${dg.recount_p50_ms.small} / ${dg.recount_p50_ms.large} ms`,
    );

    // 6. The last page of turns at LARGE turns against SMALL (issue 16).
    const turnsSmall = await turnsConversation(db, server, SMALL, BENCH_OWNER);
    const turnsLarge = await turnsConversation(db, server, LARGE, BENCH_OWNER);
    await sql`VACUUM ANALYZE conversation_turns`.execute(db);
    const tp = await measureLastPage(
      server,
      worker,
      { small: turnsSmall, large: turnsLarge },
      { clients: CLIENTS, count: COUNT, rounds: ROUNDS, warmupMs: WARMUP_MS },
    );
    out.last_page_of_turns = { small_turns: SMALL, large_turns: LARGE, page: TURN_PAGE, ...tp };
    row(`GET .../turns last page p50, ${SMALL} turns`, `${tp.p50_ms.small} ms`);
    row(`GET .../turns last page p50, ${LARGE} turns`, `${tp.p50_ms.large} ms`);
    row(
      `  ratio ${LARGE} / ${SMALL} (pages of ${TURN_PAGE})`,
      `${tp.ratio}`,
      `<= ${GOAL_TURNS_GROWTH_MAX}`,
      goal('last page of turns flat in conversation length', tp.ratio <= GOAL_TURNS_GROWTH_MAX),
    );

    // 7. Evidence: utterance append and last page at LARGE lines against SMALL; the transcript (issue 19).
    out.evidence = await benchEvidence(
      db,
      server,
      worker,
      BENCH_OWNER,
      {
        small: SMALL,
        large: LARGE,
        clients: CLIENTS,
        count: COUNT,
        rounds: ROUNDS,
        warmupMs: WARMUP_MS,
        transcriptLines: num('BENCH_TRANSCRIPT_LINES', 8000),
      },
      { row, goal },
    );

    // 8. Audit (issue 19): outbox to audit row on JetStream against the NATS client's publish.
    out.audit = await benchAudit(db, { events: num('BENCH_AUDIT_EVENTS', 5000), rounds: ROUNDS }, { row, goal });
  } finally {
    await worker.close();
    await server.close();
    await bench.drop();
  }
  return out;
}

const results: Record<string, unknown> = {};
results.pglite = await runKind('pglite');
if (process.env.DATABASE_URL) results.postgres = await runKind('postgres');
run.finish(new URL('./results/', import.meta.url), {
  settings: {
    large: LARGE,
    small: SMALL,
    clients: CLIENTS,
    count: COUNT,
    writes: WRITES,
    rounds: ROUNDS,
    cases: CASES,
  },
  ...results,
});
