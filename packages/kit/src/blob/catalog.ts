import { type Static, Type } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from '../config.ts';

/**
 * The storage catalog: which blob storage accounts a service may use, their visibility, their
 * containers and SAS lifetime, and where each one lives. Given as JSON (an environment variable
 * or a file); parsed once at start-up, a bad catalog stops the process naming account and field.
 */

/** Azure container names: 3-63 of a-z, 0-9 and single hyphens, starting and ending alphanumeric. */
const CONTAINER_PATTERN = '^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$';

export const StorageAccountSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', description: 'The name callers use' }),
    visibility: Type.Union([Type.Literal('private'), Type.Literal('public')]),
    containers: Type.Array(Type.String({ pattern: CONTAINER_PATTERN }), { minItems: 1, uniqueItems: true }),
    sas_ttl_seconds: Type.Integer({
      minimum: 1,
      maximum: 86_400,
      description: 'Lifetime of read SAS URLs and the default lifetime of upload SAS URLs',
    }),
    endpoint: Type.String({ pattern: '^https?://[^\\s]+$', description: 'Blob endpoint URL' }),
    account_name: Type.String({ minLength: 1, maxLength: 64 }),
    key: Type.Optional(Type.String({ minLength: 1 })),
    key_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
  },
  { additionalProperties: false },
);

export const StorageCatalogSchema = Type.Object(
  { accounts: Type.Array(StorageAccountSchema, { minItems: 1 }) },
  { additionalProperties: false },
);
export type StorageCatalogInput = Static<typeof StorageCatalogSchema>;

export type Visibility = 'private' | 'public';

/** One account of a parsed catalog, its key resolved. */
export interface StorageAccount {
  name: string;
  visibility: Visibility;
  containers: readonly string[];
  sas_ttl_seconds: number;
  /** Blob endpoint without a trailing slash. */
  endpoint: string;
  account_name: string;
  key: string;
}

export interface StorageCatalog {
  accounts: readonly StorageAccount[];
}

const fail = (source: string, where: string, why: string): never => {
  throw new ConfigError(`Invalid configuration: ${source}: ${where} ${why}`);
};

/** Where in the catalog a schema error sits: `account "x" field containers/1`, or the top level. */
function locate(input: unknown, path: string): string {
  const m = /^\/accounts\/(\d+)(?:\/(.*))?$/.exec(path);
  if (!m) return path ? `field ${path.slice(1)}` : 'the catalog';
  const raw = (input as { accounts?: unknown[] }).accounts?.[Number(m[1])] as { name?: unknown } | undefined;
  const account = typeof raw?.name === 'string' ? `account "${raw.name}"` : `account #${Number(m[1]) + 1}`;
  return m[2] ? `${account} field ${m[2]}` : account;
}

/** Every key the catalog holds, wherever it sits: the strings an error must never repeat. */
function secrets(input: unknown, out: string[] = []): string[] {
  if (Array.isArray(input)) for (const v of input) secrets(v, out);
  else if (input && typeof input === 'object') {
    for (const [k, v] of Object.entries(input)) {
      if (k === 'key' && typeof v === 'string' && v !== '') out.push(v);
      else secrets(v, out);
    }
  }
  return out;
}

/**
 * What an error may show of the offending value: a number, boolean or short string, never an
 * object or array (they can hold a key), never a key's value, never text containing a key.
 */
function echo(path: string, got: unknown, input: unknown): string {
  if (path.endsWith('/key')) return '';
  if (typeof got === 'number' || typeof got === 'boolean' || got === null) return ` (got ${JSON.stringify(got)})`;
  if (typeof got !== 'string' || got.length > 200) return '';
  if (secrets(input).some((k) => got.includes(k) || (got.length >= 8 && k.includes(got)))) return '';
  return ` (got ${JSON.stringify(got)})`;
}

/**
 * Parses and validates a catalog (JSON text or an already parsed value): known fields only,
 * unique account names, exactly one of key / key_env, and key_env naming a set variable.
 * `source` names where the catalog came from in error messages.
 */
export function parseStorageCatalog(
  input: unknown,
  opts: { source?: string; env?: Record<string, string | undefined> } = {},
): StorageCatalog {
  const source = opts.source ?? 'storage catalog';
  const env = opts.env ?? process.env;
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      // The parser's message quotes the text around the fault, which may be a key: only where.
      const at = /position (\d+)/.exec((e as Error).message);
      return fail(source, 'the catalog', `is not valid JSON${at ? ` (at character ${at[1]})` : ''}`);
    }
  }
  const first = Value.Errors(StorageCatalogSchema, value).First();
  if (first) {
    const where = locate(value, first.path);
    const why = first.type === ValueErrorType.ObjectAdditionalProperties ? 'has an unknown field' : first.message;
    return fail(source, where, `${why.toLowerCase()}${echo(first.path, first.value, value)}`);
  }
  const parsed = value as StorageCatalogInput;
  const seen = new Set<string>();
  const accounts = parsed.accounts.map((a): StorageAccount => {
    const where = `account "${a.name}"`;
    if (seen.has(a.name)) fail(source, where, 'is named twice');
    seen.add(a.name);
    try {
      new URL(a.endpoint);
    } catch {
      fail(source, `${where} field endpoint`, `is not a URL${echo('/endpoint', a.endpoint, parsed)}`);
    }
    if ((a.key === undefined) === (a.key_env === undefined)) {
      fail(source, where, 'needs exactly one of key and key_env');
    }
    let key = a.key;
    if (a.key_env !== undefined) {
      key = env[a.key_env];
      if (!key) fail(source, `${where} field key_env`, `names ${a.key_env}, which is not set`);
    }
    return {
      name: a.name,
      visibility: a.visibility,
      containers: [...a.containers],
      sas_ttl_seconds: a.sas_ttl_seconds,
      endpoint: a.endpoint.replace(/\/+$/, ''),
      account_name: a.account_name,
      key: key as string,
    };
  });
  return { accounts };
}

/** Azurite's well-known development account and key (public, documented by Microsoft). */
export const AZURITE_ACCOUNT_NAME = 'devstoreaccount1';
export const AZURITE_ACCOUNT_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/**
 * The local catalog on Azurite: `local` (private, one container `documents`) and `local-multi`
 * (private, containers `documents` and `evidence`), both with a one-hour SAS lifetime.
 */
export function localStorageCatalog(blobEndpoint: string, opts: { sasTtlSeconds?: number } = {}): StorageCatalog {
  const common = {
    visibility: 'private' as const,
    sas_ttl_seconds: opts.sasTtlSeconds ?? 3600,
    endpoint: blobEndpoint.replace(/\/+$/, ''),
    account_name: AZURITE_ACCOUNT_NAME,
    key: AZURITE_ACCOUNT_KEY,
  };
  return {
    accounts: [
      { name: 'local', containers: ['documents'], ...common },
      { name: 'local-multi', containers: ['documents', 'evidence'], ...common },
    ],
  };
}
