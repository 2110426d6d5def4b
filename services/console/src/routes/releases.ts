import { AppError, Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { HelmCli, type ReleaseManager } from '../releases/helm.ts';
import { checkRelease } from '../releases/names.ts';
import { rollbackRelease } from '../releases/releases.ts';
import { P, ScopeParams } from '../schemas/common.ts';
import { Release, ReleaseParams, Revision, RollbackBody, RollbackOutcome } from '../schemas/releases.ts';
import { logWrite } from '../writes.ts';
import { type RouteDeps, type Routes, route } from './deps.ts';

const tags = ['releases'];

const clusterNotConfigured = (key: string) =>
  new AppError(
    501,
    'cluster_not_configured',
    `The cluster of ${key} is not configured (its kubeconfig variable is unset)`,
  );

/** The subscription's kubeconfig path (Helm is always pointed at the subscription's own cluster). */
function kubeconfigOf(deps: RouteDeps, region: string, subscription: string): string {
  const s = deps.registry.resolve(region, subscription);
  if (!s.kubeconfig) throw clusterNotConfigured(s.key);
  return s.kubeconfig;
}

const helmOf = (deps: RouteDeps): ReleaseManager =>
  deps.releases ?? new HelmCli({ bin: deps.config.HELM_BIN, timeoutMs: deps.config.HELM_TIMEOUT_MS });

const READ_ERRORS = ['scope_not_found', 'cluster_not_configured', 'release_manager_failed'] as const;

/**
 * Releases through Helm (OPS-019, OPS-020, OPS-057): list and history for a viewer (the surface
 * table leaves their role open: docs/decisions.md), rollback for an admin. Names are checked before
 * Helm runs; a rollback's outcome is read back from `helm history`.
 */
export const RELEASE_ROUTES: Routes = [
  route({
    method: 'GET',
    url: `${P}/releases`,
    role: 'viewer',
    tags,
    summary: "Every Helm release of the subscription's cluster, all namespaces (helm list -o json)",
    params: ScopeParams,
    response: Envelope(Type.Array(Release)),
    errors: [...READ_ERRORS],
    handler: async ({ params, reply }, deps) => {
      const kubeconfig = kubeconfigOf(deps, params.region, params.subscription);
      const rows = await helmOf(deps).list(kubeconfig);
      return reply.envelope(rows.map((r) => ({ ...r, revision: Number(r.revision) })));
    },
  }),
  route({
    method: 'GET',
    url: `${P}/releases/:namespace/:name/history`,
    role: 'viewer',
    tags,
    summary: "A release's revisions (helm history -o json), oldest first",
    params: ReleaseParams,
    response: Envelope(Type.Array(Revision)),
    errors: [...READ_ERRORS, 'invalid_release_name', 'invalid_namespace', 'release_not_found'],
    handler: async ({ params, reply }, deps) => {
      checkRelease(params.namespace, params.name);
      const kubeconfig = kubeconfigOf(deps, params.region, params.subscription);
      return reply.envelope(await helmOf(deps).history(kubeconfig, params.namespace, params.name));
    },
  }),
  route({
    method: 'POST',
    url: `${P}/releases/:namespace/:name/rollback`,
    role: 'admin',
    tags,
    summary:
      'Rolls a release back to an earlier revision (one in its history, not the deployed one); the outcome is read from helm history',
    params: ReleaseParams,
    body: RollbackBody,
    response: Envelope(RollbackOutcome),
    errors: [
      ...READ_ERRORS,
      'invalid_release_name',
      'invalid_namespace',
      'invalid_revision',
      'release_not_found',
      'revision_not_in_history',
      'revision_is_deployed',
    ],
    handler: async ({ params, body, req, reply }, deps) => {
      checkRelease(params.namespace, params.name);
      const kubeconfig = kubeconfigOf(deps, params.region, params.subscription);
      return deps.writeKeys.run(req, reply, async () => {
        logWrite(req, {
          action: 'release.rollback',
          target: `${params.region}/${params.subscription}/releases/${params.namespace}/${params.name}@${body.data.revision}`,
          why: body.why,
        });
        const data = await rollbackRelease(helmOf(deps), kubeconfig, params.namespace, params.name, body.data.revision);
        return { data };
      });
    },
  }),
];
