import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * The question-messaging worker's SQL (migration 0016): which open questions (open unblock
 * requests) still need today's direct message, the claims and records of those messages, the
 * replies read and the direct-message channels' cursors.
 */

export interface QuestionToMessage {
  request_id: string;
  recipient: string;
  needed: string;
  project_name: string;
}

/**
 * Open unblock requests whose recipient has no message about them on `day`, oldest first; a
 * request snoozed past `now` waits (its card is hidden too).
 */
export async function questionsToMessage(db: Db, day: string, now: Date): Promise<QuestionToMessage[]> {
  return db
    .selectFrom('unblock_requests as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .leftJoin('chat_question_messages as m', (j) => j.onRef('m.request_id', '=', 'r.id').on('m.day', '=', day))
    .select(['r.id as request_id', 'r.recipient', 'r.needed', 'p.name as project_name'])
    .where('r.status', '=', 'open')
    .where((eb) => eb.or([eb('r.snoozed_until', 'is', null), eb('r.snoozed_until', '<=', now)]))
    .where('m.request_id', 'is', null)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
}

/** Claims the day's message of a question; false when it is already claimed (sent, or being sent). */
export async function claimQuestionMessage(
  db: Db,
  c: { requestId: string; day: string; recipient: string; slackUser: string },
  now: Date,
): Promise<boolean> {
  const r = await db
    .insertInto('chat_question_messages')
    .values({ request_id: c.requestId, day: c.day, recipient: c.recipient, slack_user: c.slackUser, posted_at: now })
    .onConflict((o) => o.columns(['request_id', 'day']).doNothing())
    .returning('request_id')
    .executeTakeFirst();
  return r !== undefined;
}

export async function recordQuestionPosted(db: Db, requestId: string, day: string, channel: string, ts: string) {
  await db
    .updateTable('chat_question_messages')
    .set({ channel, ts })
    .where('request_id', '=', requestId)
    .where('day', '=', day)
    .execute();
}

/** A post that failed gives its claim back, so a later pass the same day tries again. */
export async function releaseQuestionClaim(db: Db, requestId: string, day: string) {
  await db
    .deleteFrom('chat_question_messages')
    .where('request_id', '=', requestId)
    .where('day', '=', day)
    .where('ts', 'is', null)
    .execute();
}

export interface PostedQuestion {
  request_id: string;
  channel: string;
  ts: string;
  slack_user: string;
  recipient: string;
}

/** Messages posted since `since` about questions still open: the threads a reply may come in. */
export async function postedOpenQuestions(db: Db, since: Date): Promise<PostedQuestion[]> {
  const rows = await db
    .selectFrom('chat_question_messages as m')
    .innerJoin('unblock_requests as r', 'r.id', 'm.request_id')
    .select(['m.request_id', 'm.channel', 'm.ts', 'm.slack_user', 'm.recipient'])
    .where('r.status', '=', 'open')
    .where('m.ts', 'is not', null)
    .where('m.posted_at', '>=', since)
    .orderBy('m.posted_at')
    .execute();
  return rows.map((r) => ({ ...r, channel: r.channel as string, ts: r.ts as string }));
}

/** Direct-message channels a question went to since `since`, with their read cursor. */
export async function questionChannels(
  db: Db,
  since: Date,
): Promise<{ channel: string; latest_ts: string | null; first_ts: string }[]> {
  const rows = await sql<{ channel: string; latest_ts: string | null; first_ts: string }>`
    SELECT m.channel, c.latest_ts, min(m.ts) AS first_ts
    FROM chat_question_messages m
    LEFT JOIN chat_question_channel_cursor c ON c.channel = m.channel
    WHERE m.channel IS NOT NULL AND m.ts IS NOT NULL AND m.posted_at >= ${since}
    GROUP BY m.channel, c.latest_ts
    ORDER BY m.channel`.execute(db);
  return rows.rows;
}

export async function saveChannelCursor(db: Db, channel: string, latestTs: string, now: Date) {
  await db
    .insertInto('chat_question_channel_cursor')
    .values({ channel, latest_ts: latestTs, updated_at: now })
    .onConflict((o) => o.column('channel').doUpdateSet({ latest_ts: latestTs, updated_at: now }))
    .execute();
}

/** The person a Slack user is, as the messages sent to them say. */
export async function personOfSlackUser(db: Db, slackUser: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('chat_question_messages')
    .select('recipient')
    .where('slack_user', '=', slackUser)
    .orderBy('posted_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.recipient;
}

/** The latest open question (by when it was asked) messaged to this Slack user: what a message outside a thread answers. */
export async function latestOpenQuestionOf(
  db: Db,
  slackUser: string,
): Promise<{ request_id: string; project_id: string } | undefined> {
  return db
    .selectFrom('unblock_requests as r')
    .select(['r.id as request_id', 'r.project_id'])
    .where('r.status', '=', 'open')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('chat_question_messages as m')
          .select('m.request_id')
          .whereRef('m.request_id', '=', 'r.id')
          .where('m.slack_user', '=', slackUser)
          .where('m.ts', 'is not', null),
      ),
    )
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function projectOfRequest(db: Db, requestId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('unblock_requests')
    .select('project_id')
    .where('id', '=', requestId)
    .executeTakeFirst();
  return row?.project_id;
}

/** Whether a reply was already read (each reply is applied once). */
export async function replySeen(db: Db, channel: string, ts: string): Promise<boolean> {
  const row = await db
    .selectFrom('chat_question_replies')
    .select('ts')
    .where('channel', '=', channel)
    .where('ts', '=', ts)
    .executeTakeFirst();
  return row !== undefined;
}

export type ReplyOutcome = 'answered' | 'not_open' | 'no_question' | 'refused';

/** Records a reply as read; false when another pass recorded it first (its effect is then that pass's). */
export async function recordReply(
  db: Db,
  r: {
    channel: string;
    ts: string;
    slackUser: string;
    requestId: string | null;
    via: 'thread' | 'direct';
    outcome: ReplyOutcome;
  },
  now: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('chat_question_replies')
    .values({
      channel: r.channel,
      ts: r.ts,
      slack_user: r.slackUser,
      request_id: r.requestId,
      via: r.via,
      outcome: r.outcome,
      read_at: now,
    })
    .onConflict((o) => o.columns(['channel', 'ts']).doNothing())
    .returning('ts')
    .executeTakeFirst();
  return row !== undefined;
}
