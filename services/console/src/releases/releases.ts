import { AppError } from '@platform/kit';
import type { ReleaseManager } from './helm.ts';
import { checkRelease, checkRollbackTarget, type HistoryEntry } from './names.ts';

/** The newest revision of a history (Helm lists them oldest first; the order is not relied on). */
export const latest = (history: readonly HistoryEntry[]): HistoryEntry | undefined =>
  history.reduce<HistoryEntry | undefined>((a, h) => (!a || h.revision > a.revision ? h : a), undefined);

export interface RollbackOutcome {
  namespace: string;
  name: string;
  /** The revision asked for. */
  rolled_back_to: number;
  /** The newest revision after the attempt, as `helm history` tells it. */
  revision: number;
  status: string;
  description: string;
  chart: string;
  app_version: string;
}

export const invalidRevision = () =>
  new AppError(422, 'invalid_revision', 'A revision is a whole number from 1', [
    { code: 'invalid_revision', message: 'A revision is a whole number from 1', field: '/data/revision' },
  ]);

/**
 * A rollback: names checked before Helm runs, the target checked against the history (in it and
 * not the deployed one), the rollback, and its outcome read from the history afterwards.
 */
export async function rollbackRelease(
  helm: ReleaseManager,
  kubeconfig: string,
  namespace: string,
  name: string,
  revision: number,
): Promise<RollbackOutcome> {
  checkRelease(namespace, name);
  if (!Number.isSafeInteger(revision) || revision < 1) throw invalidRevision();
  checkRollbackTarget(await helm.history(kubeconfig, namespace, name), revision);
  await helm.rollback(kubeconfig, namespace, name, revision);
  const now = latest(await helm.history(kubeconfig, namespace, name));
  if (!now) throw new AppError(502, 'release_manager_failed', 'helm history is empty after the rollback');
  return {
    namespace,
    name,
    rolled_back_to: revision,
    revision: now.revision,
    status: now.status,
    description: now.description,
    chart: now.chart,
    app_version: now.app_version,
  };
}
