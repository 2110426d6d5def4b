import { authConfig, commonConfig, loadConfig, port } from '@platform/kit';

export const DEFAULT_PORT = 4101;

/** Accounting's configuration: the common and authentication settings; fails fast naming a bad variable. */
export const accountingConfig = (env: Record<string, string | undefined> = process.env) =>
  loadConfig(env, { ...commonConfig(), ...authConfig(), PORT_ACCOUNTING: port(DEFAULT_PORT) });

export type AccountingConfig = ReturnType<typeof accountingConfig>;
