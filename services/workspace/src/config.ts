import { authConfig, commonConfig, flag, loadConfig, port } from '@platform/kit';

export const DEFAULT_PORT = 4104;

/** Workspace's configuration: the common and authentication settings; fails fast naming a bad variable. */
export const workspaceConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_WORKSPACE: port(DEFAULT_PORT),
    /** GET /api-docs (interactive docs) is served only when on. */
    SWAGGER_ON: flag(false),
  });

export type WorkspaceConfig = ReturnType<typeof workspaceConfig>;
