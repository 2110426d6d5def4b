import { KubeConfig } from '@kubernetes/client-node';
import { type FakeKubernetes, startFakeKubernetes } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOccurrence } from '../src/store/meeting-bots.ts';
import {
  MEETING_BOT_CONTAINER,
  MeetingBotRunner,
  meetingBotJobName,
  UNSUSPEND_WITHIN_MS,
} from '../src/workers/meeting-bots.ts';
import { fakeJobController } from './fakes/job-controller.ts';
import { type Harness, harness, tag } from './harness.ts';

const NS = 'meeting-bots';

let h: Harness;
let k8s: FakeKubernetes;
let now = new Date('2026-03-02T09:00:00Z');
const clock = () => now;
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
let runner: MeetingBotRunner;

beforeAll(async () => {
  h = await harness();
  k8s = await startFakeKubernetes();
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(k8s.kubeconfig(NS));
  runner = new MeetingBotRunner({ db: h.db, kubeConfig, namespace: NS, image: 'registry.test/meeting-bot:1', clock });
});
afterAll(async () => {
  await runner.stop();
  await k8s.close();
  await h.close_();
});

const occurrence = (series: string, ref: string, startsAt: string) =>
  runner.schedule({
    seriesId: series,
    occurrenceRef: ref,
    startsAt: new Date(startsAt),
    meetingUrl: 'https://meet.test/abc',
  });

const controller = () => fakeJobController(k8s, NS, clock);
const job = (name: string) => k8s.get('Job', NS, name)!;

describe('meeting-bot jobs', () => {
  it('19 WS-596 a bot exiting with code 1 gets at most two replacement pods, then the job and the occurrence read failed', async () => {
    const series = `series-${tag()}`;
    const o = await occurrence(series, 'r1', '2026-03-02T10:00:00Z');
    const report = await runner.pass();
    expect(report.created).toEqual([o.job_name]);
    const created = job(o.job_name);
    expect(created.spec.backoffLimit).toBe(2);
    expect(created.spec.suspend).toBe(false);
    expect(created.spec.template.spec.restartPolicy).toBe('Never');
    const jc = controller();
    jc.sync();
    jc.exit(o.job_name, 1);
    jc.exit(o.job_name, 1);
    expect(jc.pods(o.job_name)).toHaveLength(3);
    expect(job(o.job_name).status.conditions ?? []).toEqual([]);
    jc.exit(o.job_name, 1);
    // The first pod and two replacements; no fourth.
    jc.sync();
    expect(jc.pods(o.job_name)).toHaveLength(3);
    expect(job(o.job_name).status.conditions[0]).toMatchObject({ type: 'Failed', reason: 'BackoffLimitExceeded' });
    const after = await runner.pass();
    expect(after.failed).toEqual([o.job_name]);
    expect((await findOccurrence(h.db, o.id))?.state).toBe('failed');
  });

  it('19 WS-596 a bot exiting 1 once and then 0 completes on its first replacement', async () => {
    const o = await occurrence(`series-${tag()}`, 'r1', '2026-03-02T10:00:00Z');
    await runner.pass();
    const jc = controller();
    jc.sync();
    jc.exit(o.job_name, 1);
    jc.exit(o.job_name, 0);
    expect(jc.pods(o.job_name)).toHaveLength(2);
    expect((await runner.pass()).succeeded).toEqual([o.job_name]);
    expect((await findOccurrence(h.db, o.id))?.state).toBe('succeeded');
  });

  it('19 WS-597 a bot exiting with code 2 fails the job without a replacement pod', async () => {
    const o = await occurrence(`series-${tag()}`, 'r1', '2026-03-02T10:00:00Z');
    await runner.pass();
    expect(job(o.job_name).spec.podFailurePolicy.rules).toEqual([
      { action: 'FailJob', onExitCodes: { containerName: MEETING_BOT_CONTAINER, operator: 'In', values: [2] } },
    ]);
    const jc = controller();
    jc.sync();
    jc.exit(o.job_name, 2);
    jc.sync();
    expect(jc.pods(o.job_name)).toHaveLength(1);
    expect(job(o.job_name).status.conditions[0]).toMatchObject({ type: 'Failed', reason: 'PodFailurePolicy' });
    expect((await runner.pass()).failed).toEqual([o.job_name]);
    const stored = await findOccurrence(h.db, o.id);
    expect(stored?.state).toBe('failed');
    expect(stored?.failure_reason).toBe('PodFailurePolicy');
  });

  it('19 WS-598 later occurrences are created suspended and the next is unsuspended within 30 s of the earlier job finishing', async () => {
    const series = `series-${tag()}`;
    const first = await occurrence(series, 'mon', '2026-03-02T10:00:00Z');
    const second = await occurrence(series, 'tue', '2026-03-03T10:00:00Z');
    const third = await occurrence(series, 'wed', '2026-03-04T10:00:00Z');
    const report = await runner.pass();
    expect(report.created).toEqual([first.job_name, second.job_name, third.job_name]);
    expect(report.createdSuspended).toEqual([second.job_name, third.job_name]);
    expect(job(first.job_name).spec.suspend).toBe(false);
    expect(job(second.job_name).spec.suspend).toBe(true);
    const jc = controller();
    jc.sync();
    // Suspended Jobs get no pod.
    expect(jc.pods(second.job_name)).toHaveLength(0);
    // A pass while the first still runs changes nothing.
    advance(10_000);
    expect((await runner.pass()).unsuspended).toEqual([]);
    // The first job finishes; the next reconciler pass (at most ~10 s later) unsuspends the second only.
    advance(4_000);
    jc.exit(first.job_name, 0);
    const finishedAt = now.getTime();
    advance(10_000);
    const next = await runner.pass();
    expect(next.succeeded).toEqual([first.job_name]);
    expect(next.unsuspended).toEqual([second.job_name]);
    expect(job(second.job_name).spec.suspend).toBe(false);
    expect(job(third.job_name).spec.suspend).toBe(true);
    const stored = await findOccurrence(h.db, second.id);
    expect(stored!.unsuspended_at!.getTime() - finishedAt).toBeLessThanOrEqual(UNSUSPEND_WITHIN_MS);
    jc.sync();
    expect(jc.pods(second.job_name)).toHaveLength(1);
    // A failed occurrence also moves the series on.
    jc.exit(second.job_name, 2);
    const failedAt = now.getTime();
    advance(9_000);
    expect((await runner.pass()).unsuspended).toEqual([third.job_name]);
    expect((await findOccurrence(h.db, third.id))!.unsuspended_at!.getTime() - failedAt).toBeLessThanOrEqual(
      UNSUSPEND_WITHIN_MS,
    );
  });

  it('19 WS-598 a started runner passes at once and on every wake (the watch path), one Job per occurrence however many passes', async () => {
    const series = `series-${tag()}`;
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(k8s.kubeconfig(NS));
    const started = new MeetingBotRunner({
      db: h.db,
      kubeConfig,
      namespace: NS,
      image: 'registry.test/meeting-bot:1',
      clock,
    });
    // An interval far beyond the test: only start() and wake() run passes here.
    started.start(3_600_000);
    try {
      await started.wake();
      const o = await started.schedule({
        seriesId: series,
        occurrenceRef: 'only',
        startsAt: new Date('2026-03-05T10:00:00Z'),
        meetingUrl: 'https://meet.test/abc',
      });
      await started.wake();
      expect(k8s.get('Job', NS, o.job_name)?.spec.suspend).toBe(false);
      await Promise.all([started.wake(), started.wake(), runner.pass()]);
      const creates = k8s.requests.filter(
        (r) => r.method === 'POST' && (r.body as { metadata?: { name?: string } })?.metadata?.name === o.job_name,
      );
      expect(creates.filter((r) => r.status === 201)).toHaveLength(1);
      expect(k8s.objects('Job', NS).filter((j) => j.metadata.name === o.job_name)).toHaveLength(1);
      expect(meetingBotJobName(series, 'only')).toBe(o.job_name);
    } finally {
      await started.stop();
    }
  });
});
