import { authConfig, commonConfig, flag, int, loadConfig, optionalStr, port, str, url } from '@platform/kit';

export const DEFAULT_PORT = 4104;

/** Workspace's configuration: the common and authentication settings; fails fast naming a bad variable. */
export const workspaceConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_WORKSPACE: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The intelligence service (conversation suggestions); unset: they answer degraded: true. */
    INTELLIGENCE_URL: url(['http:', 'https:']),
    /** How long a call to the intelligence service may take before its answer is degraded. */
    INTELLIGENCE_TIMEOUT_MS: int(2_000, 50, 60_000),
    /** The key a redaction approval must present (data.approval_key); unset: approvals are 503. */
    REDACTION_APPROVAL_KEY: optionalStr(),
    /** The model broker (its relay writes digest lines and pack summaries); unset: they answer degraded. */
    BROKER_URL: url(['http:', 'https:']),
    /** The documents service (the output upload path registers files there); unset: that path answers 503. */
    DOCUMENTS_URL: url(['http:', 'https:']),
    /** The documents storage account output uploads go to (a name in documents' catalog). */
    OUTPUTS_STORAGE_ACCOUNT: str('local'),
    /** The communications service (sharing a presentation goes through it); unset: a share answers 503. */
    COMMUNICATIONS_URL: url(['http:', 'https:']),
  });

export type WorkspaceConfig = ReturnType<typeof workspaceConfig>;
