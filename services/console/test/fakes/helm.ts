import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The fake `helm` executable (test/fixtures/fake-helm.mjs) and the files it reads and writes. */
export const FAKE_HELM_BIN = join(import.meta.dirname, '..', 'fixtures', 'fake-helm.mjs');

export interface FakeRevision {
  revision: number;
  updated: string;
  status: string;
  chart: string;
  app_version: string;
  description: string;
}

export interface FakeRelease {
  name: string;
  namespace: string;
  history: FakeRevision[];
}

/** A release with `n` revisions, the last one deployed. */
export const release = (namespace: string, name: string, n: number): FakeRelease => ({
  name,
  namespace,
  history: Array.from({ length: n }, (_, i) => ({
    revision: i + 1,
    updated: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString(),
    status: i + 1 === n ? 'deployed' : 'superseded',
    chart: `${name}-1.${i}.0`,
    app_version: `1.${i}.0`,
    description: i === 0 ? 'Install complete' : 'Upgrade complete',
  })),
});

export function fakeHelm(releases: FakeRelease[]) {
  const dir = mkdtempSync(join(tmpdir(), 'console-helm-'));
  const state = join(dir, 'state.json');
  const calls = join(dir, 'calls.jsonl');
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(state, JSON.stringify({ releases }));
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
  return {
    bin: FAKE_HELM_BIN,
    kubeconfig,
    /** The environment the console runs Helm with, pointing the fake at its files. */
    env: { ...process.env, FAKE_HELM_STATE: state, FAKE_HELM_CALLS: calls },
    /** Every argv Helm was run with, in order. */
    calls: (): string[][] =>
      existsSync(calls)
        ? readFileSync(calls, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as string[])
        : [],
    releases: (): FakeRelease[] => (JSON.parse(readFileSync(state, 'utf8')) as { releases: FakeRelease[] }).releases,
  };
}
