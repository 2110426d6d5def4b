import { AppError } from '@platform/kit';

/**
 * Helm 3's own release-name rule (pkg/chartutil ValidateReleaseName): lowercase DNS-1123
 * subdomain characters, at most 53 so the names Helm derives from it fit Kubernetes' 63.
 */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const RELEASE_NAME_MAX = 53;

/** A Kubernetes namespace is a DNS-1123 label: lowercase alphanumerics and '-', at most 63. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const NAMESPACE_MAX = 63;

export const isReleaseName = (name: string): boolean => name.length <= RELEASE_NAME_MAX && RELEASE_NAME.test(name);
export const isNamespace = (ns: string): boolean => ns.length <= NAMESPACE_MAX && DNS_LABEL.test(ns);

/**
 * Checks a release's namespace and name before anything reaches Helm (OPS-020): a name that is
 * not Helm's could only be a mistake or an attempt to smuggle an argument or a path.
 */
export function checkRelease(namespace: string, name: string): void {
  if (!isNamespace(namespace)) {
    throw new AppError(422, 'invalid_namespace', 'A namespace is a DNS-1123 label: a-z, 0-9 and -, at most 63', [
      {
        code: 'invalid_namespace',
        message: 'A namespace is a DNS-1123 label: a-z, 0-9 and -, at most 63',
        field: '/params/namespace',
      },
    ]);
  }
  if (!isReleaseName(name)) {
    const message = `A release name is lowercase DNS-1123 (a-z, 0-9, - and .), at most ${RELEASE_NAME_MAX} characters`;
    throw new AppError(422, 'invalid_release_name', message, [
      { code: 'invalid_release_name', message, field: '/params/name' },
    ]);
  }
}

/** One row of `helm history -o json` (Helm 3's releaseInfo). */
export interface HistoryEntry {
  revision: number;
  updated: string;
  status: string;
  chart: string;
  app_version: string;
  description: string;
}

/**
 * The revision a rollback may go to: one that is in the release's history and is not the one
 * deployed now (rolling back to the deployed revision makes a new identical revision and hides
 * the real previous one: helm-dashboard #569). 422 otherwise, before the rollback runs.
 */
export function checkRollbackTarget(history: readonly HistoryEntry[], revision: number): HistoryEntry {
  const entry = history.find((h) => h.revision === revision);
  if (!entry) {
    throw new AppError(422, 'revision_not_in_history', `Revision ${revision} is not in the release's history`, [
      {
        code: 'revision_not_in_history',
        message: `Revision ${revision} is not in the release's history`,
        field: '/data/revision',
      },
    ]);
  }
  if (entry.status === 'deployed') {
    throw new AppError(422, 'revision_is_deployed', `Revision ${revision} is the one deployed now`, [
      {
        code: 'revision_is_deployed',
        message: `Revision ${revision} is the one deployed now`,
        field: '/data/revision',
      },
    ]);
  }
  return entry;
}
