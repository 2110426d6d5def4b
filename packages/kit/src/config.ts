import { EMAIL_RE } from './auth/directory.ts';

/**
 * Typed configuration from the environment, parsed once at start-up. A bad value stops the
 * process with a message naming the variable.
 */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;
export type Reader<T> = (env: Env, name: string) => T;

const fail = (name: string, why: string, raw: string | undefined): never => {
  throw new ConfigError(`Invalid configuration: ${name} ${why} (got ${JSON.stringify(raw)})`);
};

export const str =
  (fallback?: string): Reader<string> =>
  (env, name) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback ?? fail(name, 'is required', v);
    return v;
  };

export const optionalStr = (): Reader<string | undefined> => (env, name) => env[name] || undefined;

export const int =
  (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): Reader<number> =>
  (env, name) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (!/^-?\d+$/.test(v)) return fail(name, 'must be an integer', v);
    const n = Number(v);
    if (n < min || n > max) return fail(name, `must be between ${min} and ${max}`, v);
    return n;
  };

export const port = (fallback: number) => int(fallback, 0, 65535);

export const flag =
  (fallback: boolean): Reader<boolean> =>
  (env, name) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
    return fail(name, 'must be a boolean (1/0, true/false)', v);
  };

export const url =
  (protocols: string[]): Reader<string | undefined> =>
  (env, name) => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    let parsed: URL;
    try {
      parsed = new URL(v);
    } catch {
      return fail(name, 'must be a URL', v);
    }
    if (!protocols.includes(parsed.protocol)) return fail(name, `must use ${protocols.join(' or ')}`, v);
    return v;
  };

export const oneOf =
  <T extends string>(values: readonly T[], fallback: T): Reader<T> =>
  (env, name) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    return (values as readonly string[]).includes(v) ? (v as T) : fail(name, `must be one of ${values.join(', ')}`, v);
  };

/** A comma-separated list of emails, lower-case and without repeats; empty when unset. A malformed one stops start-up. */
export const emailList = (): Reader<string[]> => (env, name) => {
  const raw = env[name] ?? '';
  const emails = raw
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  const bad = emails.find((e) => !EMAIL_RE.test(e));
  if (bad !== undefined) {
    throw new ConfigError(`Invalid configuration: ${name} must be comma-separated emails (got ${JSON.stringify(bad)})`);
  }
  return [...new Set(emails)];
};

/**
 * Whether the process runs under test (vitest sets VITEST; NODE_ENV=test elsewhere): turns on the
 * checks that make a test fail on an undeclared error code or an event payload off its schema.
 */
export const underTest = () => process.env.VITEST !== undefined || process.env.NODE_ENV === 'test';

/** Build a typed config object: `loadConfig(process.env, { PORT: port(4101) })`. */
export function loadConfig<S extends Record<string, Reader<unknown>>>(
  env: Env,
  spec: S,
): { [K in keyof S]: ReturnType<S[K]> } {
  const out = {} as { [K in keyof S]: ReturnType<S[K]> };
  for (const [name, read] of Object.entries(spec)) {
    (out as Record<string, unknown>)[name] = read(env, name);
  }
  return out;
}

/** The settings every service shares; a service adds its own on top. */
export const commonConfig = () => ({
  HOST: str('127.0.0.1'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  PLATFORM_DATA_DIR: str('./.data'),
  BUS_URL: url(['nats:']),
  DEV_AUTH: flag(false),
  DEV_PRINCIPALS_FILE: optionalStr(),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
  OUTBOX_POLL_MS: int(200, 10, 60_000),
  // 0 starts without migrating: a rollout ran the migrate entry first; a schema behind stops start-up.
  MIGRATE_ON_START: flag(true),
  // How long requests in flight may take to finish after SIGTERM/SIGINT before they are cut off.
  SHUTDOWN_GRACE_MS: int(10_000, 0, 600_000),
  // How long stored command results (replays of a retried Idempotency-Key) and sent events are
  // kept; at least an hour, at most ten years.
  IDEMPOTENCY_RETENTION_HOURS: int(168, 1, 87_600),
  OUTBOX_RETENTION_HOURS: int(168, 1, 87_600),
});
