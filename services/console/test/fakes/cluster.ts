import type { FakeKubernetes } from '@platform/kit/testing';

/** Pods for the kit's fake API server, as a controller would leave them. */

export function pod(namespace: string, name: string, labels: Record<string, string> = {}, containers = ['app']) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: containers.map((c) => ({ name: c, image: 'example/app:1' })), nodeName: 'node-1' },
  };
}

export function running(fake: FakeKubernetes, namespace: string, name: string, containers = ['app']) {
  fake.setStatus('Pod', namespace, name, {
    phase: 'Running',
    containerStatuses: containers.map((c) => ({
      name: c,
      ready: true,
      restartCount: 1,
      image: 'example/app:1',
      imageID: '',
      state: { running: { startedAt: '2026-11-26T09:00:00Z' } },
    })),
  });
}
