import type { People } from '../clients/people.ts';
import type { Slack } from '../clients/slack.ts';
import { checkinSchedule } from '../domain/checkin-schedule.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { openGoalsOnActiveProjects, recordWindow, windowRecorded } from '../store/goal-checkin-chat.ts';

/** The run allows itself this long (WS-508): no goal is started after it. */
export const GOAL_CHAT_LIMIT_MS = 15 * 60_000;

export interface GoalCheckinChatResult {
  sent: number;
  skipped: number;
  failed: number;
}

export interface GoalChatClients {
  /** The chat system (Slack); absent: every lead is skipped (no chat account can be found). */
  slack?: Slack;
  /** Where a lead's email comes from (identity); absent: every lead is skipped. */
  people?: People;
}

/** The message a lead gets: the goal, its project and the check-in day; no check-in notes. */
export const checkinMessage = (g: { title: string; project_name: string }, state: 'due' | 'overdue', day: string) =>
  state === 'due'
    ? `Check-in due today (${day}) for your goal "${g.title}" on ${g.project_name}.`
    : `Check-in overdue since ${day} for your goal "${g.title}" on ${g.project_name}.`;

/**
 * POST /internal/jobs/goal-checkin-chat (WS-499…WS-509), 13:00 UTC on weekdays, on the
 * question-messaging release: the lead of every due or overdue open goal on an active project gets
 * one direct message per window, a window being the check-in state and its due day (so at most two
 * per goal a week: due on the day, overdue after it). Skipped (counted): leads not on the project,
 * without a chat account (no email, or Slack knows none), or already messaged in the window. The
 * window is recorded only after Slack accepted the message: a failed send records nothing and the
 * next run tries again. No goal is started after fifteen minutes. Two runs at once are not
 * prevented (each may message a goal the other has not recorded yet).
 */
export async function goalCheckinChat(deps: RouteDeps, clients: GoalChatClients): Promise<GoalCheckinChatResult> {
  const db = deps.database.db;
  const started = deps.clock();
  const result: GoalCheckinChatResult = { sent: 0, skipped: 0, failed: 0 };
  const goals = await openGoalsOnActiveProjects(db);
  const chatIds = new Map<string, string | null>();
  for (const g of goals) {
    const now = deps.clock();
    if (now.getTime() - started.getTime() >= GOAL_CHAT_LIMIT_MS) break;
    const s = checkinSchedule({ now, weekday: g.weekday, createdAt: g.created_at, lastCheckinAt: g.last_checkin_at });
    if (s.state === 'current') continue;
    const window = { state: s.state, day: s.next_checkin_on };
    if (!g.lead_is_member || (await windowRecorded(db, g.goal_id, window.state, window.day))) {
      result.skipped += 1;
      continue;
    }
    let chatId = chatIds.get(g.lead);
    if (chatId === undefined) {
      const email = clients.people ? await clients.people.emailOf(g.lead) : undefined;
      const found = email && clients.slack ? await clients.slack.lookupByEmail(email) : undefined;
      chatId = found?.ok && !found.data.deleted ? found.data.id : null;
      chatIds.set(g.lead, chatId);
    }
    if (chatId === null || !clients.slack) {
      result.skipped += 1;
      continue;
    }
    const posted = await clients.slack.postMessage({
      channel: chatId,
      text: checkinMessage(g, window.state, window.day),
    });
    if (!posted.ok) {
      result.failed += 1;
      continue;
    }
    await recordWindow(
      db,
      {
        goal_id: g.goal_id,
        state: window.state,
        checkin_day: window.day,
        project_id: g.project_id,
        lead: g.lead,
        chat_user: chatId,
        chat_channel: posted.data.channel,
        chat_ts: posted.data.ts,
      },
      deps.clock(),
    );
    result.sent += 1;
  }
  return result;
}
