import { type CommandSource, commandScope, isAppError, type Principal } from '@platform/kit';
import type { People } from '../clients/people.ts';
import type { Slack, SlackMessage, SlackReader } from '../clients/slack.ts';
import type { CommandCtx } from '../commands/context.ts';
import { actOnUnblockRequest } from '../commands/unblock-requests.ts';
import type { DB, Db } from '../store/db.ts';
import {
  claimQuestionMessage,
  latestOpenQuestionOf,
  personOfSlackUser,
  postedOpenQuestions,
  projectOfRequest,
  questionChannels,
  questionsToMessage,
  type ReplyOutcome,
  recordQuestionPosted,
  recordReply,
  releaseQuestionClaim,
  replySeen,
  saveChannelCursor,
} from '../store/question-messages.ts';

/**
 * The question-messaging worker (spec 2, "Other background workers"; WS-513..515).
 *
 * A company question is an open unblock request: one question a project member put to another,
 * assigned to its recipient (docs/decisions.md). Each UTC day, from QUESTION_MESSAGING_POST_HOUR_UTC
 * on, the recipient gets one direct message per open question (the recipient's email from the
 * identity service, their Slack account by users.lookupByEmail). The day's message is claimed
 * before it is posted (chat_question_messages, one row per question per day), so neither a repeat
 * pass nor a concurrent one sends it twice; a failed post gives its claim back.
 *
 * Replies are read from the direct-message channels the questions went to:
 * - a reply in a question message's thread answers that question;
 * - a message outside any thread answers the sender's latest open question (the one most recently
 *   asked among those messaged to them).
 * An answer is the unblock request's own answer action, run as the replying person (the same
 * rules, event, activity and notice as the route), in one transaction with the record of the
 * reply, so each reply is applied once. A reply that cannot answer (the question is no longer
 * open, the answer is not one of a choice's options) is recorded and told in the thread.
 */

export interface QuestionMessagingDeps {
  db: Db;
  slack: Slack & SlackReader;
  people: People;
  clock: () => Date;
  /** How commands run here (the app's database, clock, events and activity hook). */
  source: CommandSource<DB>;
}

export interface QuestionMessagingSettings {
  /** The UTC hour from which the day's messages are posted. */
  postHourUtc: number;
  /** How far back posted questions are still read for replies (days). */
  replyDays?: number;
}

export interface QuestionMessagingReport {
  posted: number;
  /** Questions whose recipient has no email or no chat account. */
  skipped: number;
  failed: number;
  /** Replies read: what each did. */
  answered: number;
  notAnswered: number;
}

const DAY_MS = 86_400_000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

export function questionText(q: { project_name: string; needed: string }): string {
  return `A question for you on *${q.project_name}*:\n>${q.needed.replace(/\n/g, '\n>')}\nReply in this thread to answer it.`;
}

/** One pass: today's messages (from the posting hour), then the replies. Tests call it directly. */
export async function questionMessagingPass(
  deps: QuestionMessagingDeps,
  settings: QuestionMessagingSettings,
): Promise<QuestionMessagingReport> {
  const report: QuestionMessagingReport = { posted: 0, skipped: 0, failed: 0, answered: 0, notAnswered: 0 };
  const now = deps.clock();
  if (now.getUTCHours() >= settings.postHourUtc) await postToday(deps, now, report);
  await readReplies(deps, new Date(now.getTime() - (settings.replyDays ?? 14) * DAY_MS), report);
  return report;
}

async function postToday(deps: QuestionMessagingDeps, now: Date, report: QuestionMessagingReport) {
  const day = utcDay(now);
  const accounts = new Map<string, string | undefined>();
  const slackUserOf = async (person: string) => {
    if (!accounts.has(person)) {
      const email = await deps.people.emailOf(person);
      const user = email ? await deps.slack.lookupByEmail(email) : undefined;
      accounts.set(person, user?.ok && !user.data.deleted ? user.data.id : undefined);
    }
    return accounts.get(person);
  };
  for (const q of await questionsToMessage(deps.db, day, now)) {
    const slackUser = await slackUserOf(q.recipient);
    if (!slackUser) {
      report.skipped += 1;
      continue;
    }
    const claimed = await claimQuestionMessage(
      deps.db,
      { requestId: q.request_id, day, recipient: q.recipient, slackUser },
      now,
    );
    if (!claimed) continue;
    const sent = await deps.slack.postMessage({ channel: slackUser, text: questionText(q), unfurl_links: false });
    if (sent.ok) {
      await recordQuestionPosted(deps.db, q.request_id, day, sent.data.channel, sent.data.ts);
      report.posted += 1;
    } else {
      await releaseQuestionClaim(deps.db, q.request_id, day);
      report.failed += 1;
    }
  }
}

const fromPerson = (m: SlackMessage) => !!m.user && !m.bot_id && (!m.subtype || m.subtype === 'thread_broadcast');

async function readReplies(deps: QuestionMessagingDeps, since: Date, report: QuestionMessagingReport) {
  // Thread replies first: each answers the question its thread is about.
  for (const q of await postedOpenQuestions(deps.db, since)) {
    const r = await deps.slack.replies({ channel: q.channel, ts: q.ts, limit: 200 });
    if (!r.ok) continue;
    for (const m of r.data.items) {
      if (m.ts === q.ts || !fromPerson(m) || (await replySeen(deps.db, q.channel, m.ts))) continue;
      const outcome = await applyReply(deps, {
        channel: q.channel,
        ts: m.ts,
        threadTs: q.ts,
        slackUser: m.user as string,
        text: m.text ?? '',
        requestId: q.request_id,
        via: 'thread',
      });
      count(report, outcome);
    }
  }
  // Then messages outside threads: each answers the sender's latest open question.
  for (const c of await questionChannels(deps.db, since)) {
    const oldest = c.latest_ts ?? c.first_ts;
    const found: SlackMessage[] = [];
    let cursor: string | undefined;
    let ok = true;
    do {
      const r = await deps.slack.history({ channel: c.channel, oldest, limit: 200, cursor });
      if (!r.ok) {
        ok = false;
        break;
      }
      found.push(...r.data.items);
      cursor = r.data.next;
    } while (cursor);
    if (!ok) continue;
    found.sort((a, b) => Number(a.ts) - Number(b.ts));
    for (const m of found) {
      if (!fromPerson(m) || (m.thread_ts && m.thread_ts !== m.ts) || (await replySeen(deps.db, c.channel, m.ts)))
        continue;
      const latest = await latestOpenQuestionOf(deps.db, m.user as string);
      const outcome = await applyReply(deps, {
        channel: c.channel,
        ts: m.ts,
        slackUser: m.user as string,
        text: m.text ?? '',
        requestId: latest?.request_id ?? null,
        via: 'direct',
      });
      count(report, outcome);
    }
    const newest = found.at(-1)?.ts;
    if (newest) await saveChannelCursor(deps.db, c.channel, newest, deps.clock());
  }
}

const count = (report: QuestionMessagingReport, outcome: ReplyOutcome | 'seen') => {
  if (outcome === 'answered') report.answered += 1;
  else if (outcome !== 'seen') report.notAnswered += 1;
};

interface Reply {
  channel: string;
  ts: string;
  threadTs?: string;
  slackUser: string;
  text: string;
  requestId: string | null;
  via: 'thread' | 'direct';
}

/** Answers the reply's question as the person who wrote it, recording the reply in the same transaction. */
async function applyReply(deps: QuestionMessagingDeps, reply: Reply): Promise<ReplyOutcome | 'seen'> {
  const now = deps.clock();
  const person = await personOfSlackUser(deps.db, reply.slackUser);
  const record = (db: Db, outcome: ReplyOutcome, requestId = reply.requestId) =>
    recordReply(db, { ...reply, requestId, outcome }, now);
  if (!person || !reply.requestId) {
    return (await record(deps.db, 'no_question', null)) ? 'no_question' : 'seen';
  }
  const requestId = reply.requestId;
  const projectId = await projectOfRequest(deps.db, requestId);
  if (!projectId) return (await record(deps.db, 'no_question', null)) ? 'no_question' : 'seen';
  try {
    return await deps.db.transaction().execute(async (trx) => {
      if (!(await record(trx, 'answered'))) return 'seen' as const;
      const principal: Principal = { id: person, kind: 'person', grants: [] };
      const scope = commandScope<DB>(deps.source, trx, principal, now);
      const ctx = { ...scope, asMember: false } as unknown as CommandCtx;
      await actOnUnblockRequest(ctx, projectId, requestId, { action: 'answer', answer: reply.text });
      return 'answered' as const;
    });
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    const outcome: ReplyOutcome = error.status === 409 ? 'not_open' : 'refused';
    if (!(await record(deps.db, outcome))) return 'seen';
    await deps.slack.postMessage({
      channel: reply.channel,
      thread_ts: reply.threadTs ?? reply.ts,
      text:
        outcome === 'not_open'
          ? 'This question is no longer open, so your reply did not answer it.'
          : `Your reply could not answer the question: ${error.message}`,
    });
    return outcome;
  }
}

/** Runs passes one at a time, every `intervalMs`, until stopped (src/start.ts). */
export class QuestionMessagingWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly deps: QuestionMessagingDeps & { onError?: (e: unknown) => void },
    private readonly settings: QuestionMessagingSettings,
  ) {}

  run(): Promise<unknown> {
    if (this.running) return this.running;
    this.running = questionMessagingPass(this.deps, this.settings)
      .catch((e) => this.deps.onError?.(e))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.run(), intervalMs);
    this.timer.unref?.();
    void this.run();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
