import { authConfig, commonConfig, flag, loadConfig, port, url } from '@platform/kit';

export const DEFAULT_PORT = 4104;

/** Workspace's configuration: the common and authentication settings; fails fast naming a bad variable. */
export const workspaceConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_WORKSPACE: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
    /** The model broker (its relay writes digest lines and pack summaries); unset: they answer degraded. */
    BROKER_URL: url(['http:', 'https:']),
  });

export type WorkspaceConfig = ReturnType<typeof workspaceConfig>;
