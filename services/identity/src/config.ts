import { fileURLToPath } from 'node:url';
import { authConfig, commonConfig, flag, int, loadConfig, optionalStr, port, str } from '@platform/kit';

export const DEFAULT_PORT = 4100;
export const DEFAULT_CLIENTS_DIR = fileURLToPath(new URL('../../../config/clients', import.meta.url));

/**
 * Identity's configuration. The issuer is compared exactly everywhere (SIGN-003), so it is one
 * setting; locally it is the loopback IP, never a host name (SIGN-004).
 */
export const identityConfig = (env: Record<string, string | undefined> = process.env) => {
  const c = loadConfig(env, {
    ...commonConfig(),
    ...authConfig(),
    PORT_IDENTITY: port(DEFAULT_PORT),
    /** Which client definition file to load: config/clients/<CLIENTS_ENV>.json. */
    CLIENTS_ENV: str('local'),
    CLIENTS_DIR: str(DEFAULT_CLIENTS_DIR),
    /** Signing keys as a JWKS JSON string (distributed); embedded keeps them in the data folder. */
    SIGNING_KEYS: optionalStr(),
    /** Cookie signing keys, comma separated (distributed); embedded keeps them with the signing keys. */
    COOKIE_KEYS: optionalStr(),
    /** Application audiences the local access-gateway stand-in issues tokens for, comma separated. */
    GATEWAY_AUDIENCES: optionalStr(),
    /** Seed the dev principals (config/dev-principals.json) as people with their grants: local mode only. */
    SEED_DEV_PRINCIPALS: flag(false),
    SESSION_TTL_SECONDS: int(8 * 3600, 60, 30 * 24 * 3600),
  });
  const issuer = c.AUTH_ISSUER ?? `http://127.0.0.1:${c.PORT_IDENTITY}`;
  return { ...c, AUTH_ISSUER: issuer };
};

export type IdentityConfig = ReturnType<typeof identityConfig>;
