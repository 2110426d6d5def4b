import { createHash } from 'node:crypto';
import {
  ApiException,
  BatchV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Job,
  Watch,
} from '@kubernetes/client-node';
import type { Db } from '../store/db.ts';
import { insertOccurrence, type Occurrence, openOccurrences, updateOccurrence } from '../store/meeting-bots.ts';

/**
 * Meeting bots (issue 19; ARCHITECTURE.md "runners with reconcilers"): one Kubernetes Job per
 * occurrence of a meeting series, created through @kubernetes/client-node.
 *
 * - The bot's exit code decides what Kubernetes does: 0 done; 1 a passing failure, answered with a
 *   replacement pod, at most two (backoffLimit 2); 2 a failure a new pod cannot fix (the meeting is
 *   gone, the link is refused), which fails the Job at once (a podFailurePolicy rule, FailJob on
 *   exit code 2). The pod template restarts nothing itself (restartPolicy Never, which the policy
 *   requires): every retry is a new pod the Job controller counts.
 * - Occurrences of a series run one after another: the first unfinished one runs, later ones are
 *   created suspended, and the pass that sees the earlier Job finished (its Complete or Failed
 *   condition) unsuspends the next one in the same pass. Passes run at most MEETING_BOT_RECONCILE_MS
 *   apart (10 s by default, 25 s at most) and a watch on the Jobs wakes one at once, so the next
 *   occurrence is unsuspended within 30 seconds of the earlier Job finishing.
 * Everything is found again by label and by the name stored with the occurrence.
 */

export const MEETING_BOT_LABELS = {
  managedBy: 'app.kubernetes.io/managed-by',
  series: 'workspace.platform/meeting-series',
  occurrence: 'workspace.platform/meeting-occurrence',
} as const;
export const MEETING_BOT_MANAGER = 'workspace-meeting-bots';
export const MEETING_BOT_CONTAINER = 'bot';
/** Replacement pods after exit code 1. */
export const MEETING_BOT_BACKOFF_LIMIT = 2;
/** The exit code that fails the Job without a replacement. */
export const MEETING_BOT_FATAL_EXIT_CODE = 2;
/** The longest a finished Job waits before the next occurrence is unsuspended (WS-598). */
export const UNSUSPEND_WITHIN_MS = 30_000;

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const hash = (text: string, n: number) => createHash('sha256').update(text).digest('hex').slice(0, n);

/** The Job name of an occurrence: a DNS label from the series and the occurrence reference. */
export const meetingBotJobName = (seriesId: string, occurrenceRef: string) =>
  `meeting-bot-${hash(`${seriesId}\n${occurrenceRef}`, 20)}`;

export interface MeetingBotOptions {
  db: Db;
  kubeConfig: KubeConfig;
  namespace: string;
  /** MEETING_BOT_IMAGE. */
  image: string;
  /** The workspace as the bot reaches it from inside the cluster (MEETING_BOT_WORKSPACE_URL), passed as WORKSPACE_URL. */
  workspaceUrl?: string;
  clock?: () => Date;
  onError?: (error: unknown) => void;
}

export interface MeetingBotReport {
  /** Jobs created this pass (job names), and which of them were created suspended. */
  created: string[];
  createdSuspended: string[];
  /** Jobs unsuspended this pass. */
  unsuspended: string[];
  /** Occurrences whose Job finished (Complete or Failed), seen this pass. */
  succeeded: string[];
  failed: string[];
}

export interface ScheduleOccurrence {
  seriesId: string;
  occurrenceRef: string;
  startsAt: Date;
  meetingUrl: string;
}

type Finished = { state: 'succeeded' | 'failed'; at: Date | null; reason: string | null } | undefined;

/** The Job's end as its conditions say (Complete or Failed, status True); undefined while it runs. */
export function jobFinished(job: V1Job): Finished {
  for (const c of job.status?.conditions ?? []) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete' || c.type === 'Failed') {
      const at = c.lastTransitionTime ? new Date(c.lastTransitionTime) : null;
      return { state: c.type === 'Complete' ? 'succeeded' : 'failed', at, reason: c.reason ?? null };
    }
  }
  return undefined;
}

export class MeetingBotRunner {
  private readonly batch: BatchV1Api;
  private readonly clock: () => Date;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private again = false;
  private stopped = false;
  private started = false;
  private watchRequest?: { abort(): void };

  constructor(private readonly o: MeetingBotOptions) {
    this.batch = o.kubeConfig.makeApiClient(BatchV1Api);
    this.clock = o.clock ?? (() => new Date());
  }

  /** Records an occurrence to run (the same series and reference again is the same one) and wakes a pass. */
  async schedule(s: ScheduleOccurrence): Promise<Occurrence> {
    const occurrence = await insertOccurrence(
      this.o.db,
      { ...s, jobName: meetingBotJobName(s.seriesId, s.occurrenceRef) },
      this.clock(),
    );
    void this.wake();
    return occurrence;
  }

  /** The Job an occurrence runs as. */
  jobFor(o: Occurrence, suspend: boolean): V1Job {
    const env = [
      { name: 'MEETING_URL', value: o.meeting_url },
      { name: 'MEETING_SERIES_ID', value: o.series_id },
      { name: 'MEETING_OCCURRENCE_REF', value: o.occurrence_ref },
      { name: 'MEETING_STARTS_AT', value: o.starts_at.toISOString() },
      { name: 'MEETING_BOT_OCCURRENCE_ID', value: o.id },
      ...(this.o.workspaceUrl ? [{ name: 'WORKSPACE_URL', value: this.o.workspaceUrl }] : []),
    ];
    const labels = {
      [MEETING_BOT_LABELS.managedBy]: MEETING_BOT_MANAGER,
      [MEETING_BOT_LABELS.series]: hash(o.series_id, 32),
      [MEETING_BOT_LABELS.occurrence]: o.id,
    };
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: o.job_name, namespace: this.o.namespace, labels },
      spec: {
        suspend,
        backoffLimit: MEETING_BOT_BACKOFF_LIMIT,
        podFailurePolicy: {
          rules: [
            {
              action: 'FailJob',
              onExitCodes: {
                containerName: MEETING_BOT_CONTAINER,
                operator: 'In',
                values: [MEETING_BOT_FATAL_EXIT_CODE],
              },
            },
          ],
        },
        // Kept a day after it finished, so a pass always sees how it ended.
        ttlSecondsAfterFinished: 86_400,
        template: {
          metadata: { labels },
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: MEETING_BOT_CONTAINER, image: this.o.image, env }],
          },
        },
      },
    };
  }

  /**
   * One reconciler pass: reads the Jobs, records the occurrences whose Job finished, creates the
   * Jobs still missing (suspended unless first in their series) and unsuspends each series' first
   * unfinished occurrence. Tests call it directly with an injected clock.
   */
  async pass(): Promise<MeetingBotReport> {
    const report: MeetingBotReport = { created: [], createdSuspended: [], unsuspended: [], succeeded: [], failed: [] };
    const { db, namespace } = this.o;
    const list = await this.batch.listNamespacedJob({
      namespace,
      labelSelector: `${MEETING_BOT_LABELS.managedBy}=${MEETING_BOT_MANAGER}`,
    });
    const jobs = new Map(list.items.map((j) => [j.metadata?.name ?? '', j]));
    const open = await openOccurrences(db);
    const pending: Occurrence[] = [];
    for (const o of open) {
      if (o.state !== 'created') {
        pending.push(o);
        continue;
      }
      const job = jobs.get(o.job_name);
      if (!job) {
        // Deleted by hand before it finished: it reads failed, and the series moves on.
        await updateOccurrence(
          db,
          o.id,
          { state: 'failed', finished_at: this.clock(), failure_reason: 'JobDeleted' },
          this.clock(),
        );
        report.failed.push(o.job_name);
        continue;
      }
      const end = jobFinished(job);
      if (end) {
        await updateOccurrence(
          db,
          o.id,
          { state: end.state, finished_at: end.at ?? this.clock(), failure_reason: end.reason },
          this.clock(),
        );
        report[end.state].push(o.job_name);
        continue;
      }
      pending.push({ ...o, suspended: job.spec?.suspend ?? false });
    }
    const seen = new Set<string>();
    for (const o of pending) {
      const first = !seen.has(o.series_id);
      seen.add(o.series_id);
      if (o.state === 'scheduled') {
        await this.create(o, !first, jobs.has(o.job_name));
        report.created.push(o.job_name);
        if (!first) report.createdSuspended.push(o.job_name);
      } else if (first && o.suspended) {
        await this.batch.patchNamespacedJob(
          { name: o.job_name, namespace, body: { spec: { suspend: false } } },
          mergePatch,
        );
        await updateOccurrence(db, o.id, { suspended: false, unsuspended_at: this.clock() }, this.clock());
        report.unsuspended.push(o.job_name);
      }
    }
    return report;
  }

  private async create(o: Occurrence, suspend: boolean, exists: boolean): Promise<void> {
    if (!exists) {
      try {
        await this.batch.createNamespacedJob({ namespace: this.o.namespace, body: this.jobFor(o, suspend) });
      } catch (error) {
        // Made meanwhile by another pass (or process): the occurrence's Job is there once.
        if (!(error instanceof ApiException && error.code === 409)) throw error;
      }
    }
    const now = this.clock();
    await updateOccurrence(
      this.o.db,
      o.id,
      { state: 'created', suspended: suspend, ...(suspend ? {} : { unsuspended_at: now }) },
      now,
    );
  }

  /**
   * Runs a pass now, or right after the one in progress (passes never overlap), once start() was
   * called; resolves when no pass is left to run.
   */
  wake(): Promise<unknown> {
    if (!this.started || this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (error) {
          this.o.onError?.(error);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Passes every `intervalMs` and, when `watch`, whenever a meeting-bot Job changes. */
  start(intervalMs: number, opts: { watch?: boolean } = {}): void {
    this.stopped = false;
    this.started = true;
    this.timer = setInterval(() => void this.wake(), intervalMs);
    this.timer.unref?.();
    if (opts.watch) void this.watch();
    void this.wake();
  }

  private async watch(): Promise<void> {
    if (this.stopped) return;
    try {
      this.watchRequest = await new Watch(this.o.kubeConfig).watch(
        `/apis/batch/v1/namespaces/${this.o.namespace}/jobs`,
        { labelSelector: `${MEETING_BOT_LABELS.managedBy}=${MEETING_BOT_MANAGER}` },
        () => void this.wake(),
        () => {
          // The watch ended (timeout, dropped connection): open it again shortly; passes go on meanwhile.
          if (!this.stopped) setTimeout(() => void this.watch(), 5_000).unref?.();
        },
      );
    } catch (error) {
      this.o.onError?.(error);
      if (!this.stopped) setTimeout(() => void this.watch(), 5_000).unref?.();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.watchRequest?.abort();
    await this.running;
  }
}
