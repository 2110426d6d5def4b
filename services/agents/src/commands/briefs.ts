import { AppError, type Database, devFid, forbidden, notFound, type Principal, unprocessable } from '@platform/kit';
import type { BrokerClient, SpeechAnswer } from '../clients/broker.ts';
import type { WorkspaceReader } from '../clients/workspace.ts';
import {
  type BriefFeedbackKind,
  briefPrompt,
  isCalendarDay,
  newYorkToday,
  parseBriefReply,
  renderBrief,
  renderDraft,
  sourceLines,
} from '../domain/briefs.ts';
import {
  type BriefView,
  findBrief,
  holdsPassage,
  insertFeedback,
  type NewRevision,
  publishedBrief,
  writeRevision,
  writeRevisionAlone,
  writeRevisionsAlone,
} from '../store/briefs.ts';
import type { DB } from '../store/db.ts';
import type { CommandCtx } from './context.ts';

/** What the morning job runs with (BRIEF_* settings). */
export interface BriefSettings {
  /** BRIEF_RECIPIENTS, lower case. */
  recipients: readonly string[];
  /** BRIEF_MODEL: the broker model of the one call per brief. */
  model: string;
  /** BRIEF_CONCURRENCY: recipients worked on at once. */
  concurrency: number;
  /** A person's FID by email (workspace names task assignees by FID); default the platform's stable dev FID. */
  personId?: (email: string) => Promise<string>;
}

export interface BriefJobDeps {
  database: Database<DB>;
  clock: () => Date;
  settings: BriefSettings;
  workspace?: WorkspaceReader;
  broker?: BrokerClient;
  /** Who the job writes as (the scheduler's principal id). */
  writtenBy: string;
}

export interface BriefJobParams {
  email?: string;
  date?: string;
  regenerate?: boolean;
}

export interface BriefJobResult {
  date: string;
  /** Recipients whose brief was written (a new published revision). */
  written: string[];
  /** Recipients whose published brief for the day was there and kept (AGT-278). */
  kept: string[];
  /** Recipients not written: each got a draft naming the reason (AGT-266). */
  failed: { email: string; reason: string }[];
}

export const briefsIncomplete = (r: BriefJobResult) =>
  new AppError(
    503,
    'briefs_incomplete',
    `Daily briefs could not be written for ${r.failed.map((f) => f.email).join(', ')}`,
    [
      {
        code: 'briefs_incomplete',
        message: `Not written (a draft was stored): ${r.failed.map((f) => `${f.email} (${f.reason})`).join('; ')}`,
        value: r,
      },
    ],
  );

/** The day a request names: date (YYYY-MM-DD) or today in New York (AGT-264, AGT-268). */
export function briefDate(now: Date, date: string | undefined): string {
  if (date === undefined) return newYorkToday(now);
  if (!isCalendarDay(date)) {
    throw unprocessable('invalid_brief_date', 'date is a calendar day YYYY-MM-DD', 'querystring/date');
  }
  return date;
}

const reasonOf = (e: unknown, fallback: string) => (e instanceof AppError ? e.code : fallback);

type One = { outcome: 'written' | 'kept' } | { outcome: 'failed'; reason: string };
type Lines = ReturnType<typeof sourceLines>;

/** A recipient after the reads: decided already (kept, or a draft to write), or ready for the model call. */
type Prepared =
  | { email: string; done: One }
  | { email: string; draft: { reason: string; lines: Lines | null; model: string | null } }
  | { email: string; lines: Lines };

/** The reads of one recipient (never rejects: a failure is a draft to write). */
async function prepare(deps: BriefJobDeps, email: string, date: string, regenerate: boolean): Promise<Prepared> {
  try {
    // A published brief, written or pasted, is kept without reading anything (the write checks again).
    if (!regenerate && (await publishedBrief(deps.database.db, email, date)))
      return { email, done: { outcome: 'kept' } };
    if (!deps.workspace) return { email, draft: { reason: 'workspace_not_configured', lines: null, model: null } };
    const id = deps.settings.personId ? await deps.settings.personId(email) : devFid(email);
    const lines = sourceLines(await deps.workspace.briefSources({ email, id }, date));
    if (!deps.broker) return { email, draft: { reason: 'broker_not_configured', lines, model: null } };
    return { email, lines };
  } catch (e) {
    return { email, draft: { reason: reasonOf(e, 'workspace_unavailable'), lines: null, model: null } };
  }
}

/** The one model call of a recipient ready for it; its reply checked in code. */
async function call(
  deps: BriefJobDeps,
  p: { email: string; lines: Lines },
  date: string,
): Promise<Prepared | BriefReady> {
  let model = deps.settings.model;
  try {
    const answer = await (deps.broker as BrokerClient).chat({
      onBehalfOf: p.email,
      model,
      messages: briefPrompt(p.email, date, p.lines),
    });
    model = answer.model;
    const reply = parseBriefReply(answer.content, new Set(p.lines.map((l) => l.id)));
    if (!reply) return { email: p.email, draft: { reason: 'model_reply_invalid', lines: p.lines, model } };
    return { email: p.email, text: renderBrief(reply), model };
  } catch (e) {
    return { email: p.email, draft: { reason: reasonOf(e, 'broker_unavailable'), lines: p.lines, model } };
  }
}

interface BriefReady {
  email: string;
  text: string;
  model: string;
}

type Write = (r: NewRevision) => Promise<Awaited<ReturnType<typeof writeRevisionAlone>>>;

/** Most revisions written in one statement by the job. */
const BATCH_MAX = 32;
/** How long the first revision of a batch waits for others (the job's calls do not wait on it). */
const GATHER_MS = 50;

/**
 * The job's writes, batched: a revision waits up to GATHER_MS, or until BATCH_MAX are waiting, for
 * others ready meanwhile, and they go in one statement (writeRevisions; embedded PGlite spends its
 * CPU per statement more than per row, and runs a whole transaction without yielding to I/O, so
 * each batch holds up every call in flight). `last()` says no more will come: what waits is
 * written at once, so the job's end never waits out the window. The model calls never wait on a
 * write. A batch that fails is written again one recipient at a time, so one recipient's failure
 * never loses another's brief.
 */
function batchedWrites(database: Database<DB>): { write: Write; last: () => void } {
  const pending: { r: NewRevision; resolve: (w: Awaited<ReturnType<Write>>) => void; reject: (e: unknown) => void }[] =
    [];
  let flushing = false;
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    flushing = true;
    try {
      while (pending.length > 0) {
        const batch = pending.splice(0, BATCH_MAX);
        try {
          const written = await writeRevisionsAlone(
            database.db,
            batch.map((b) => b.r),
          );
          for (const [i, b] of batch.entries()) b.resolve(written[i] as Awaited<ReturnType<Write>>);
        } catch {
          for (const b of batch) await writeRevisionAlone(database.db, b.r).then(b.resolve, b.reject);
        }
      }
    } finally {
      flushing = false;
    }
  };
  const schedule = () => {
    if (flushing) return;
    if (ended || pending.length >= BATCH_MAX) void flush();
    else timer ??= setTimeout(() => void flush(), GATHER_MS);
  };
  return {
    write: (r) =>
      new Promise((resolve, reject) => {
        pending.push({ r, resolve, reject });
        schedule();
      }),
    last: () => {
      ended = true;
      schedule();
    },
  };
}

/** Stores what became of a recipient: the brief, or a draft naming the reason. */
async function store(
  deps: BriefJobDeps,
  write: Write,
  r: Prepared | BriefReady,
  date: string,
  regenerate: boolean,
): Promise<One> {
  if ('done' in r) return r.done;
  const common = { recipient: r.email, date, origin: 'job' as const, writtenBy: deps.writtenBy, now: deps.clock() };
  if ('draft' in r) {
    const { reason, lines, model } = r.draft;
    await write({
      ...common,
      text: renderDraft(reason, lines),
      status: 'draft',
      model,
      failure: reason,
    });
    return { outcome: 'failed', reason };
  }
  if ('lines' in r) throw new Error('a recipient was stored before its model call');
  const stored = await write({
    ...common,
    text: r.text,
    status: 'published',
    model: r.model,
    failure: null,
    keepPublished: !regenerate,
  });
  return { outcome: stored.outcome };
}

/**
 * POST /internal/jobs/daily-briefs: the day's brief (date, default today in New York) for each of
 * BRIEF_RECIPIENTS (`email`: only that one), from the person's own workspace data read on their
 * behalf and one model call through the broker; stored, never emailed (AGT-261..AGT-266). A
 * published brief already there, written or pasted, is kept unless regenerate (AGT-278, AGT-279).
 * Anyone not written gets a draft and makes the job 503.
 *
 * At most `concurrency` model calls are in flight. Each of the `concurrency` workers reads its next
 * recipient while its current one waits on the model, and stores a reply without holding up its
 * next call, so the provider's time is what the job takes (the bench's goal).
 */
export async function dailyBriefs(deps: BriefJobDeps, params: BriefJobParams): Promise<BriefJobResult> {
  const date = briefDate(deps.clock(), params.date);
  const regenerate = params.regenerate === true;
  let people = [...new Set(deps.settings.recipients)];
  if (params.email !== undefined) {
    const email = params.email.trim().toLowerCase();
    if (!people.includes(email)) {
      throw unprocessable('not_a_brief_recipient', 'email is not one of BRIEF_RECIPIENTS', 'querystring/email');
    }
    people = [email];
  }
  const result: BriefJobResult = { date, written: [], kept: [], failed: [] };
  const queue = [...people];
  const stores: Promise<void>[] = [];
  const { write, last } = batchedWrites(deps.database);
  const finish = (r: Prepared | BriefReady) =>
    stores.push(
      store(deps, write, r, date, regenerate).then(
        (one) => {
          if (one.outcome === 'failed') result.failed.push({ email: r.email, reason: one.reason });
          else if (one.outcome === 'written') result.written.push(r.email);
          else result.kept.push(r.email);
        },
        // Even the draft could not be stored (the database refused): still named in the 503.
        (e) => {
          result.failed.push({ email: r.email, reason: reasonOf(e, 'not_stored') });
        },
      ),
    );
  const next = () => {
    const email = queue.shift();
    return email === undefined ? undefined : prepare(deps, email, date, regenerate);
  };
  const worker = async () => {
    for (let reading = next(); reading !== undefined; ) {
      const current = await reading;
      reading = next();
      finish('lines' in current ? await call(deps, current, date) : current);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.settings.concurrency, people.length)) }, worker));
  last();
  await Promise.all(stores);
  result.written.sort();
  result.kept.sort();
  result.failed.sort((a, b) => a.email.localeCompare(b.email));
  return result;
}

/** The caller's email: a brief is a person's own (403 brief_person_only for a caller naming none). */
export function personEmail(p: Principal): string {
  if (p.kind !== 'person' || !p.email) {
    throw forbidden('A brief is a person’s own: sign in as a person with an email', 'brief_person_only');
  }
  return p.email.toLowerCase();
}

export const briefNotFound = () => notFound('Brief', 'brief_not_found');

/**
 * POST /v1/briefs: pasted text stored as the person's published brief for the day (default today
 * in New York), a new revision superseding the day's brief and draft (AGT-276). WriteBrief holders only.
 */
export async function pasteBrief(
  ctx: CommandCtx,
  data: { recipient: string; date?: string; text: string },
): Promise<BriefView> {
  const date = data.date === undefined ? newYorkToday(ctx.now) : data.date;
  if (!isCalendarDay(date))
    throw unprocessable('invalid_brief_date', 'date is a calendar day YYYY-MM-DD', 'body/data/date');
  const text = data.text.trim();
  if (text.length === 0) throw unprocessable('validation_failed', 'text must not be blank', 'body/data/text');
  const stored = await writeRevision(ctx.trx, {
    recipient: data.recipient.trim().toLowerCase(),
    date,
    text,
    status: 'published',
    origin: 'pasted',
    writtenBy: ctx.principal.id,
    model: null,
    failure: null,
    now: ctx.now,
  });
  return stored.brief;
}

/**
 * POST /v1/briefs/feedback: one of the six kinds on one brief the caller may read: their own, or
 * any published one for holders of ReadAnyBrief (drafts too). Anything else is 404, nothing stored.
 */
export async function briefFeedback(
  ctx: CommandCtx,
  data: { brief_id: string; kind: BriefFeedbackKind; note?: string },
  readsAny: boolean,
) {
  const brief = await findBrief(ctx.trx, data.brief_id);
  const own = brief !== undefined && ctx.principal.email?.toLowerCase() === brief.recipient;
  if (!brief || !(own || readsAny)) throw briefNotFound();
  if (own && !readsAny && brief.status === 'draft') throw briefNotFound();
  const note = data.note?.trim() || null;
  return insertFeedback(ctx.trx, { briefId: brief.id, kind: data.kind, note, givenBy: ctx.principal.id, now: ctx.now });
}

/**
 * POST /v1/briefs/speech: the passage read aloud by the broker's speech relay, billed to the
 * caller, only when it is a passage of one of the caller's own published briefs (else 422, and
 * nothing is sent to the broker). The broker's bytes come back unchanged.
 */
export async function speakPassage(
  db: Database<DB>['db'],
  broker: BrokerClient | undefined,
  principal: Principal,
  text: string,
): Promise<SpeechAnswer> {
  const email = personEmail(principal);
  if (!(await holdsPassage(db, email, text))) {
    throw unprocessable(
      'passage_not_in_brief',
      'The text is not a passage of one of your stored briefs',
      'body/data/text',
    );
  }
  if (!broker) throw new AppError(503, 'broker_not_configured', 'No model broker is configured (AGENTS_BROKER_URL)');
  return broker.speech({ onBehalfOf: email, text: text.trim() });
}
