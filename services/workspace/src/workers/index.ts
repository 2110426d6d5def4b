import { KubeConfig } from '@kubernetes/client-node';
import type { Database } from '@platform/kit';
import { HttpPeople } from '../clients/people.ts';
import { HttpSlack } from '../clients/slack.ts';
import { recordActivity } from '../commands/activity.ts';
import type { WorkspaceConfig } from '../config.ts';
import { events } from '../events.ts';
import type { DB } from '../store/db.ts';
import { ChatSyncWorker } from './chat-sync.ts';
import { MeetingBotRunner } from './meeting-bots.ts';
import { QuestionMessagingWorker } from './question-messaging.ts';

interface Log {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
}

/** The allowlist setting: comma-separated channel names (with or without #) or ids. */
export const channelAllowlist = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');

/**
 * Starts the background workers that are configured (src/start.ts) and returns what stops them:
 * - question messaging: QUESTION_MESSAGING_RELEASE on, SLACK_BOT_TOKEN and IDENTITY_URL set;
 * - chat sync: SLACK_BOT_TOKEN set and CHAT_SYNC_CHANNELS not empty;
 * - meeting bots: MEETING_BOT_IMAGE set (the cluster from the in-cluster or default kubeconfig).
 */
export function startWorkers(config: WorkspaceConfig, database: Database<DB>, log: Log): () => Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  const clock = () => new Date();
  const slack = config.SLACK_BOT_TOKEN
    ? new HttpSlack({ token: config.SLACK_BOT_TOKEN, baseUrl: config.SLACK_API_URL })
    : undefined;
  if (slack && config.QUESTION_MESSAGING_RELEASE && config.IDENTITY_URL) {
    const worker = new QuestionMessagingWorker(
      {
        db: database.db,
        slack,
        people: new HttpPeople({ baseUrl: config.IDENTITY_URL, serviceToken: config.SERVICE_TOKEN }),
        clock,
        source: { database, clock, events, onEmit: recordActivity },
        onError: (e) => log.warn({ err: e }, 'question messaging'),
      },
      { postHourUtc: config.QUESTION_MESSAGING_POST_HOUR_UTC },
    );
    worker.start(config.QUESTION_MESSAGING_INTERVAL_MS);
    stops.push(() => worker.stop());
  }
  const allowlist = channelAllowlist(config.CHAT_SYNC_CHANNELS);
  if (slack && allowlist.length > 0) {
    const worker = new ChatSyncWorker(
      {
        db: database.db,
        slack,
        clock,
        onError: (e) => log.warn({ err: e }, 'chat sync'),
        onReport: (r) =>
          log.info(
            { fetched: r.fetched, stored: r.stored, revisit: r.revisit, stale: r.stale, pendingJoins: r.pendingJoins },
            'chat sync run',
          ),
      },
      {
        allowlist,
        discovery: config.CHAT_SYNC_DISCOVERY,
        joinCap: config.CHAT_SYNC_JOIN_CAP,
        budget: config.CHAT_SYNC_BUDGET,
        windowDays: config.CHAT_SYNC_WINDOW_DAYS,
      },
    );
    worker.start(config.CHAT_SYNC_INTERVAL_MS);
    stops.push(() => worker.stop());
  }
  if (config.MEETING_BOT_IMAGE) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromDefault();
    const runner = new MeetingBotRunner({
      db: database.db,
      kubeConfig,
      namespace: config.MEETING_BOT_NAMESPACE,
      image: config.MEETING_BOT_IMAGE,
      workspaceUrl: config.MEETING_BOT_WORKSPACE_URL,
      onError: (e) => log.warn({ err: e }, 'meeting bots'),
    });
    runner.start(config.MEETING_BOT_RECONCILE_MS, { watch: true });
    stops.push(() => runner.stop());
  }
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
