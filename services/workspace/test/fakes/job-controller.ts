/**
 * A stand-in for Kubernetes' Job controller on the kit's fake API server (which runs no
 * controllers): it reads each Job as stored (suspend, backoffLimit, podFailurePolicy) and does what
 * the real controller does with them, writing Pods and the Job's status the way the API server would
 * show them. A test decides when a pod exits and with which code; the controller's decisions follow
 * from the Job's own spec, never from the test:
 * - an unsuspended, unfinished Job without an active pod gets one (`sync`);
 * - exit 0 completes the Job (Complete condition, completionTime);
 * - another code: the podFailurePolicy rules in order (FailJob on a matching exit code fails the
 *   Job, reason PodFailurePolicy; Ignore does not count); otherwise the failure counts, and more
 *   failures than backoffLimit fail the Job (BackoffLimitExceeded), else a replacement pod starts.
 */
import type { FakeKubernetes, KubeObject } from '@platform/kit/testing';

export interface FakeJobController {
  /** Starts a pod for every runnable Job that has none. */
  sync(): void;
  /** The running pod of a Job exits with `code`; the controller then acts as above. */
  exit(jobName: string, code: number): void;
  /** Pods made for a Job, oldest first. */
  pods(jobName: string): KubeObject[];
}

const stamp = (d: Date) => d.toISOString().replace(/\.\d+Z$/, 'Z');

export function fakeJobController(k8s: FakeKubernetes, namespace: string, now: () => Date): FakeJobController {
  const job = (name: string) => {
    const j = k8s.get('Job', namespace, name);
    if (!j) throw new Error(`no Job ${name}`);
    return j;
  };
  const pods = (jobName: string) =>
    k8s
      .objects('Pod', namespace)
      .filter((p) => p.metadata.labels?.['job-name'] === jobName)
      .sort((a, b) => Number(a.metadata.labels.attempt) - Number(b.metadata.labels.attempt));
  const finished = (j: KubeObject) =>
    (j.status?.conditions ?? []).some(
      (c: KubeObject) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    );
  const active = (jobName: string) => pods(jobName).filter((p) => p.status?.phase === 'Running');

  const startPod = (j: KubeObject) => {
    const attempt = pods(j.metadata.name).length;
    k8s.seed({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${j.metadata.name}-${attempt}`,
        namespace,
        labels: { ...j.spec.template.metadata?.labels, 'job-name': j.metadata.name, attempt: String(attempt) },
      },
      spec: j.spec.template.spec,
    });
    k8s.setStatus('Pod', namespace, `${j.metadata.name}-${attempt}`, { phase: 'Running', startTime: stamp(now()) });
    k8s.setStatus('Job', namespace, j.metadata.name, {
      ...j.status,
      active: 1,
      startTime: j.status?.startTime ?? stamp(now()),
    });
  };

  const finish = (j: KubeObject, type: 'Complete' | 'Failed', reason: string, counts: KubeObject) => {
    const at = stamp(now());
    k8s.setStatus('Job', namespace, j.metadata.name, {
      ...j.status,
      ...counts,
      active: 0,
      ...(type === 'Complete' ? { completionTime: at } : {}),
      conditions: [{ type, status: 'True', reason, lastProbeTime: at, lastTransitionTime: at }],
    });
  };

  const controller: FakeJobController = {
    pods,
    sync() {
      for (const j of k8s.objects('Job', namespace)) {
        if (j.spec.suspend || finished(j) || active(j.metadata.name).length > 0) continue;
        startPod(j);
      }
    },
    exit(jobName, code) {
      const j = job(jobName);
      const pod = active(jobName)[0];
      if (!pod) throw new Error(`Job ${jobName} has no running pod`);
      k8s.setStatus('Pod', namespace, pod.metadata.name, {
        ...pod.status,
        phase: code === 0 ? 'Succeeded' : 'Failed',
        containerStatuses: pod.spec.containers.map((c: KubeObject) => ({
          name: c.name,
          image: c.image,
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode: code, reason: code === 0 ? 'Completed' : 'Error' } },
        })),
      });
      const failedSoFar = j.status?.failed ?? 0;
      if (code === 0) return finish(j, 'Complete', 'CompletionsReached', { succeeded: 1 });
      for (const rule of j.spec.podFailurePolicy?.rules ?? []) {
        const on = rule.onExitCodes;
        if (!on) continue;
        if (on.containerName && !pod.spec.containers.some((c: KubeObject) => c.name === on.containerName)) continue;
        const listed = (on.values as number[]).includes(code);
        if (on.operator === 'In' ? !listed : listed) continue;
        if (rule.action === 'FailJob') return finish(j, 'Failed', 'PodFailurePolicy', { failed: failedSoFar + 1 });
        if (rule.action === 'Ignore') {
          startPod(job(jobName));
          return;
        }
        break;
      }
      const failed = failedSoFar + 1;
      if (failed > (j.spec.backoffLimit ?? 6)) return finish(j, 'Failed', 'BackoffLimitExceeded', { failed });
      k8s.setStatus('Job', namespace, jobName, { ...j.status, failed, active: 0 });
      startPod(job(jobName));
    },
  };
  return controller;
}
