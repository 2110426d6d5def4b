import type { SlackChannel, SlackMessage, SlackReader } from '../clients/slack.ts';
import { insertChatEvidence, type SyncCursor, saveSyncCursor, syncCursors } from '../store/chat-sync.ts';
import type { Db } from '../store/db.ts';

/**
 * The chat-sync worker (spec 2, "Other background workers"; WS-516..521): reads the allowlisted
 * Slack channels, and only those, into evidence (one row per message, kind chat, source slack,
 * external_ref slack:<channel id>:<ts>, so a message read twice is stored once).
 *
 * - Discovery mode: `joined` reads the allowlisted channels the bot is already a member of (someone
 *   invites it); `public` also joins allowlisted public channels, at most the join cap per run.
 * - Each run reads at most the budget (messages fetched, over all channels), and only messages
 *   inside the window (the last CHAT_SYNC_WINDOW_DAYS days). Channels with an unfinished read go
 *   first, then the least recently read.
 * - The cursor (evidence_slack_sync_cursor): per channel the newest ts stored; a read the budget
 *   cut short keeps Slack's page cursor and its bounds, and the next run resumes from there. Every
 *   page's evidence and cursor are written in one transaction.
 * - The report names `revisit` (channels whose read stopped at the budget or a rate limit and goes
 *   on next run), `stale` (allowlisted channels that cannot be read: unknown, archived, private
 *   without the bot, gone since the last run) and `pendingJoins` (allowlisted channels the bot is not
 *   in and did not join this run: the join cap was reached, or the mode is joined).
 * Thread replies are not read: a message's thread stays with its parent in Slack (docs/decisions.md).
 */

export const DISCOVERY_MODES = ['joined', 'public'] as const;
export type DiscoveryMode = (typeof DISCOVERY_MODES)[number];

export interface ChatSyncSettings {
  /** Channel names (with or without #) or ids; empty: the worker reads nothing. */
  allowlist: readonly string[];
  discovery: DiscoveryMode;
  /** Channels joined per run at most (public mode). */
  joinCap: number;
  /** Messages fetched per run at most. */
  budget: number;
  /** Only messages of the last this many days. */
  windowDays: number;
}

export interface ChatSyncReport {
  /** Allowlisted channels read this run (ids). */
  read: string[];
  /** Messages fetched (never above the budget) and how many of them were new evidence. */
  fetched: number;
  stored: number;
  /** Channels joined this run (ids). */
  joined: string[];
  revisit: string[];
  stale: string[];
  pendingJoins: string[];
}

const PAGE = 200;
const DAY_MS = 86_400_000;

/** A Slack ts for an instant ("<seconds>.<microseconds>"). */
export const slackTs = (d: Date) => `${Math.floor(d.getTime() / 1000)}.000000`;
const tsDate = (ts: string) => new Date(Math.floor(Number(ts) * 1000));
const laterTs = (a: string | null, b: string | null) => {
  if (a === null) return b;
  if (b === null) return a;
  return Number(a) >= Number(b) ? a : b;
};

async function allChannels(slack: SlackReader): Promise<SlackChannel[] | undefined> {
  const out: SlackChannel[] = [];
  let cursor: string | undefined;
  do {
    const r = await slack.listChannels({ types: 'public_channel,private_channel', limit: 1000, cursor });
    if (!r.ok) return undefined;
    out.push(...r.data.items);
    cursor = r.data.next;
  } while (cursor);
  return out;
}

const storable = (m: SlackMessage) => !m.subtype || m.subtype === 'thread_broadcast' || m.subtype === 'file_share';

/** One run. Tests call it directly with an injected clock and the fake Slack. */
export async function chatSyncPass(
  deps: { db: Db; slack: SlackReader; clock: () => Date },
  settings: ChatSyncSettings,
): Promise<ChatSyncReport> {
  const report: ChatSyncReport = {
    read: [],
    fetched: 0,
    stored: 0,
    joined: [],
    revisit: [],
    stale: [],
    pendingJoins: [],
  };
  const wanted = [...new Set(settings.allowlist.map((c) => c.trim().replace(/^#/, '')).filter((c) => c !== ''))];
  if (wanted.length === 0) return report;
  const now = deps.clock();
  const channels = await allChannels(deps.slack);
  if (!channels) {
    // Slack could not list channels: nothing is read, every allowlisted channel waits for the next run.
    report.revisit.push(...wanted);
    return report;
  }
  const byKey = new Map<string, SlackChannel>();
  for (const c of channels) {
    byKey.set(c.id, c);
    if (c.name) byKey.set(c.name.toLowerCase(), c);
  }
  const readable: { channel: SlackChannel; joinedAt?: Date }[] = [];
  for (const entry of wanted) {
    const c = byKey.get(entry) ?? byKey.get(entry.toLowerCase());
    if (!c || c.is_archived) {
      report.stale.push(entry);
      continue;
    }
    if (c.is_member) {
      readable.push({ channel: c });
      continue;
    }
    if (settings.discovery === 'public' && !c.is_private && report.joined.length < settings.joinCap) {
      const joined = await deps.slack.joinChannel(c.id);
      if (joined.ok) {
        report.joined.push(c.id);
        readable.push({ channel: c, joinedAt: now });
      } else report.stale.push(entry);
      continue;
    }
    if (c.is_private) report.stale.push(entry);
    else report.pendingJoins.push(c.id);
  }

  const cursors = await syncCursors(
    deps.db,
    readable.map((r) => r.channel.id),
  );
  // An unfinished read first, then the channel read longest ago (never read: first of all).
  readable.sort((a, b) => {
    const ca = cursors.get(a.channel.id);
    const cb = cursors.get(b.channel.id);
    const pa = ca?.page_cursor ? 0 : 1;
    const pb = cb?.page_cursor ? 0 : 1;
    if (pa !== pb) return pa - pb;
    return (ca?.last_run_at.getTime() ?? 0) - (cb?.last_run_at.getTime() ?? 0);
  });

  const windowStart = slackTs(new Date(now.getTime() - settings.windowDays * DAY_MS));
  let budget = settings.budget;
  for (const { channel, joinedAt } of readable) {
    if (budget <= 0) {
      report.revisit.push(channel.id);
      continue;
    }
    const stored = cursors.get(channel.id);
    const state = await readChannel(deps, channel, stored, joinedAt, windowStart, budget, now);
    budget -= state.fetched;
    report.fetched += state.fetched;
    report.stored += state.stored;
    report.read.push(channel.id);
    if (state.outcome === 'revisit') report.revisit.push(channel.id);
    if (state.outcome === 'stale') report.stale.push(channel.id);
  }
  return report;
}

async function readChannel(
  deps: { db: Db; slack: SlackReader },
  channel: SlackChannel,
  stored: SyncCursor | undefined,
  joinedAt: Date | undefined,
  windowStart: string,
  budget: number,
  now: Date,
): Promise<{ fetched: number; stored: number; outcome: 'done' | 'revisit' | 'stale' }> {
  const name = channel.name ?? channel.id;
  let pageCursor = stored?.page_cursor ?? undefined;
  // A resumed read keeps its bounds; a new one starts after the newest message stored, inside the window.
  let oldest = stored?.page_cursor
    ? (stored.page_oldest ?? windowStart)
    : (laterTs(stored?.latest_ts ?? null, windowStart) as string);
  if (!stored?.page_cursor && Number(oldest) < Number(windowStart)) oldest = windowStart;
  let newest = stored?.page_cursor ? (stored.page_newest_ts ?? null) : null;
  const latestStored = stored?.latest_ts ?? null;
  let fetched = 0;
  let storedCount = 0;
  let joined: Date | null | undefined = joinedAt;
  for (;;) {
    const limit = Math.min(PAGE, budget - fetched);
    const r = await deps.slack.history({ channel: channel.id, oldest, limit, cursor: pageCursor });
    if (!r.ok) {
      if (r.error === 'not_in_channel' || r.error === 'channel_not_found' || r.error === 'is_archived') {
        return { fetched, stored: storedCount, outcome: 'stale' };
      }
      return { fetched, stored: storedCount, outcome: 'revisit' };
    }
    const messages = r.data.items.slice(0, limit);
    fetched += messages.length;
    for (const m of messages) newest = laterTs(newest, m.ts);
    const rows = messages.filter(storable).map((m) => ({
      externalRef: `slack:${channel.id}:${m.ts}`,
      author: `slack:${m.user ?? m.bot_id ?? 'unknown'}`,
      title: `#${name}`,
      body: m.text ?? '',
      at: tsDate(m.ts),
    }));
    const finished = !r.data.next;
    const outOfBudget = fetched >= budget;
    await deps.db.transaction().execute(async (trx) => {
      storedCount += await insertChatEvidence(trx, rows, now);
      await saveSyncCursor(
        trx,
        finished
          ? {
              channel_id: channel.id,
              channel_name: name,
              latest_ts: laterTs(latestStored, newest),
              page_cursor: null,
              page_oldest: null,
              page_newest_ts: null,
              joined_at: joined,
            }
          : {
              channel_id: channel.id,
              channel_name: name,
              latest_ts: latestStored,
              page_cursor: r.data.next ?? null,
              page_oldest: oldest,
              page_newest_ts: newest,
              joined_at: joined,
            },
        now,
      );
    });
    joined = undefined;
    if (finished) return { fetched, stored: storedCount, outcome: 'done' };
    if (outOfBudget) return { fetched, stored: storedCount, outcome: 'revisit' };
    pageCursor = r.data.next;
  }
}

/** Runs passes one at a time, every `intervalMs`, until stopped (src/start.ts). */
export class ChatSyncWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  last?: ChatSyncReport;

  constructor(
    private readonly deps: {
      db: Db;
      slack: SlackReader;
      clock?: () => Date;
      onError?: (e: unknown) => void;
      onReport?: (r: ChatSyncReport) => void;
    },
    private readonly settings: ChatSyncSettings,
  ) {}

  run(): Promise<unknown> {
    if (this.running) return this.running;
    this.running = chatSyncPass({ ...this.deps, clock: this.deps.clock ?? (() => new Date()) }, this.settings)
      .then((r) => {
        this.last = r;
        this.deps.onReport?.(r);
      })
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
