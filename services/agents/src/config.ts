import {
  authConfig,
  commonConfig,
  emailList,
  flag,
  int,
  loadConfig,
  oneOf,
  optionalStr,
  port,
  str,
  url,
} from '@platform/kit';

export const DEFAULT_PORT = 4107;

/**
 * The agents service's configuration (spec 3, Agents service). Callers are people signed in at
 * the access gateway for AGENTS_ACCESS_AUD, a person's platform access token or broker credential,
 * platform services with SERVICE_TOKEN, or locally the dev header (DEV_AUTH=1). Fails fast naming
 * a bad variable.
 */
export const agentsConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_AGENTS: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The agents application's audience at the access gateway; the gateway is off when unset. */
    AGENTS_ACCESS_AUD: optionalStr(),
    /** prod gives agents' mailboxes AGENTS_MAIL_DOMAIN_PROD; anything else AGENTS_MAIL_DOMAIN (AGT-024). */
    AGENTS_ENVIRONMENT: str('dev'),
    AGENTS_MAIL_DOMAIN_PROD: str('agents.company.com'),
    AGENTS_MAIL_DOMAIN: str('agents.dev.company.com'),
    /** Where agents run: child processes on this machine (process) or a Kubernetes cluster (kubernetes). */
    AGENTS_RUNNER: oneOf(['process', 'kubernetes'] as const, 'process'),
    /** How often the reconciler makes the world match the records, besides after every commit. */
    AGENTS_RECONCILE_MS: int(5_000, 100, 600_000),
    /** Kubernetes: the namespace agents' Deployments, Jobs and Secrets live in. */
    AGENTS_K8S_NAMESPACE: str('platform-agents'),
    /** Kubernetes: the image of each harness, as `harness=image` pairs separated by commas. */
    AGENTS_K8S_IMAGES: optionalStr(),
    /** Kubernetes: a kubeconfig file; unset, the in-cluster account or ~/.kube/config. */
    KUBECONFIG: optionalStr(),
    /** The agents service's address as the harness reaches it (the process runner defaults to this server). */
    AGENTS_PUBLIC_URL: url(['http:', 'https:']),
    /** The model broker (its relay): the harness's one model call per wake, and on-demand calls. */
    AGENTS_BROKER_URL: url(['http:', 'https:']),
    /** The `iss` of the broker's credential tokens (its BROKER_TOKEN_ISSUER): a person's token signs them in here (AGT-312). */
    AGENTS_BROKER_TOKEN_ISSUER: str('urn:platform:model-broker'),
    /** The documents service: skill archives (upload-url, document_id, blob_name). */
    AGENTS_DOCUMENTS_URL: url(['http:', 'https:']),
    /** The scheduler's token (X-Platform-Scheduler-Token) on POST /v1/agents/{id}/wake; unset, the header is ignored. */
    SCHEDULER_TOKEN: optionalStr(),
    /** The property-management connector (move-ins, sync logs, spaces, mappings, resyncs, email write-back); its tools answer 503 without it. */
    PM_CONNECTOR_URL: url(['http:', 'https:']),
    /** The connector's credential (Authorization: Bearer); never logged. Its tools answer 503 without it. */
    PM_CONNECTOR_TOKEN: optionalStr(),
    /** The resident directory fill_pms_emails_from_directory reads residents by name from. */
    DIRECTORY_URL: url(['http:', 'https:']),
    /** The directory's credential (Authorization: Bearer); never logged. */
    DIRECTORY_TOKEN: optionalStr(),
    /** Weekly coaching: the people the job writes a report for (comma-separated emails). */
    COACH_RECIPIENTS: emailList(),
    /** Weekly coaching: those of them who also get the communication part (one model call over their own lines). */
    COACH_COMMUNICATION_RECIPIENTS: emailList(),
    /** Weekly coaching: the broker model of the communication call. */
    COACH_MODEL: str('gpt-4.1-mini'),
    /** The issue tracker of the tracker tools: a Jira Cloud site (REST v3); with TRACKER_EMAIL and TRACKER_API_TOKEN, else they answer 503. */
    TRACKER_URL: url(['http:', 'https:']),
    /** The tracker account's email (HTTP Basic with TRACKER_API_TOKEN). */
    TRACKER_EMAIL: optionalStr(),
    /** The tracker account's API token; never logged. */
    TRACKER_API_TOKEN: optionalStr(),
    /** GitHub's REST API: tracker/reports reads the pull request it names there. */
    GITHUB_API_URL: str('https://api.github.com'),
    /** The GitHub token (Authorization: Bearer); never logged. Unset: tracker/reports answers 503. */
    GITHUB_TOKEN: optionalStr(),
    /** The GitHub organization holding deepsky and platform, the repositories tracker claims work in. */
    TRACKER_GITHUB_ORG: optionalStr(),
    /** The read-only checks of tracker/investigate: each system's address and bearer token (docs/decisions.md). */
    CHECK_IDENTITY_URL: url(['http:', 'https:']),
    CHECK_IDENTITY_TOKEN: optionalStr(),
    CHECK_LINKAGE_URL: url(['http:', 'https:']),
    CHECK_LINKAGE_TOKEN: optionalStr(),
    CHECK_LEASE_URL: url(['http:', 'https:']),
    CHECK_LEASE_TOKEN: optionalStr(),
    CHECK_DASHBOARD_URL: url(['http:', 'https:']),
    CHECK_DASHBOARD_TOKEN: optionalStr(),
    CHECK_DOOR_ACCESS_URL: url(['http:', 'https:']),
    CHECK_DOOR_ACCESS_TOKEN: optionalStr(),
    /** The workspace service, read on a person's behalf (their daily brief's sources, their coaching's meetings). */
    AGENTS_WORKSPACE_URL: url(['http:', 'https:']),
    /** Daily briefs: the people the morning job writes a brief for (comma-separated emails). */
    BRIEF_RECIPIENTS: emailList(),
    /** Daily briefs: the broker model of the one call per brief. */
    BRIEF_MODEL: str('gpt-4.1-mini'),
    /** Daily briefs: how many recipients the job works on at once. */
    BRIEF_CONCURRENCY: int(8, 1, 64),
    /** How long a call to the broker or documents may take before it counts as not answering. */
    AGENTS_UPSTREAM_TIMEOUT_MS: int(30_000, 50, 600_000),
  });

export type AgentsConfig = ReturnType<typeof agentsConfig>;
