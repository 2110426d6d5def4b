/**
 * OAuth client definitions: the shape of one environment's reviewed definition file and the
 * registration rules (SIGN-004, SIGN-031..SIGN-046) as pure functions. Secrets never live in the
 * file; service clients read theirs from the environment (clientSecretFor).
 */

export const DEFAULT_PLATFORM_AUDIENCE = 'urn:platform:api';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface ClientDefinition {
  client_id: string;
  client_name?: string;
  audience: string[];
  grant_types: string[];
  response_types: string[];
  scope: string;
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  metadata: { first_party: boolean };
}

export interface DefinitionFile {
  environment: string;
  clients: ClientDefinition[];
}

export interface Problem {
  /** null when the client has no usable client_id (or the problem is about the whole file). */
  client_id: string | null;
  /** A rule id such as 'SIGN-044', or 'unknown field' / 'secret in file' for the file format's own rules. */
  rule: string;
  message: string;
}

export interface ValidateOptions {
  environment: string;
  platformAudience: string;
}

export class ClientRegistrationError extends Error {
  readonly problems: Problem[];
  constructor(message: string, problems: Problem[] = []) {
    super(message);
    this.name = 'ClientRegistrationError';
    this.problems = problems;
  }
}

const KNOWN_FIELDS = new Set([
  'client_id',
  'client_name',
  'audience',
  'grant_types',
  'response_types',
  'scope',
  'token_endpoint_auth_method',
  'redirect_uris',
  'post_logout_redirect_uris',
  'metadata',
  // Known only so it can be refused with a rule that explains why (SIGN-041 / secrets from env).
  'client_secret',
]);
const AUTH_METHODS: readonly string[] = ['none', 'client_secret_basic', 'client_secret_post'];
const HTTP_ALLOWED_IN = new Set(['local', 'dev']);
const CLIENT_ID = /^[a-z0-9-]+$/;
const CLIENT_ID_MAX = 64;
const UUID_HYPHENATED = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const UUID_BARE = /[0-9a-f]{32}/i;
// Raw authority of an http URI, checked on the text because URL() drops a default port (:80)
// and normalises hosts (127.1 → 127.0.0.1): the rule is about what the file says.
const LOOPBACK_AUTHORITY = /^(127\.0\.0\.1|\[::1\]):([1-9][0-9]{0,4})$/;
// RFC 8252 §7.1: a native app's private-use scheme is a reverse domain name; this also keeps
// javascript:, data:, file: and typos like "localhost:3000/cb" out.
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const sameList = (v: unknown, expected: string[]) =>
  isStringArray(v) && v.length === expected.length && v.every((x, i) => x === expected[i]);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** A service client signs in as itself with client_credentials; every other client acts for a person. */
export const isServiceClient = (def: { grant_types?: unknown }) =>
  Array.isArray(def.grant_types) && def.grant_types.includes('client_credentials');

/** CLIENT_SECRET_<CLIENT_ID upper-cased, hyphens to underscores>. */
export const clientSecretVariable = (clientId: string) => `CLIENT_SECRET_${clientId.toUpperCase().replace(/-/g, '_')}`;

/**
 * The secret of a confidential (service) client, from the environment. Only in `local` does a
 * missing variable fall back to a fixed development secret, so other environments fail at start-up.
 */
export function clientSecretFor(
  def: Pick<ClientDefinition, 'client_id' | 'token_endpoint_auth_method'>,
  env: Record<string, string | undefined>,
  environment: string,
): string {
  if (def.token_endpoint_auth_method === 'none') {
    throw new ClientRegistrationError(`client "${def.client_id}": is a public client and has no secret (SIGN-041)`);
  }
  const variable = clientSecretVariable(def.client_id);
  const value = env[variable];
  if (value !== undefined && value !== '') return value;
  if (environment === 'local') return `local-secret-${def.client_id}`;
  throw new ClientRegistrationError(
    `client "${def.client_id}": secret missing: set the environment variable ${variable} (environment "${environment}")`,
  );
}

/** Every problem in one definition file, all collected; [] means the file may be loaded. */
export function validateDefinitionFile(file: unknown, opts: ValidateOptions): Problem[] {
  const problems: Problem[] = [];
  if (!isRecord(file)) {
    return [
      {
        client_id: null,
        rule: 'SIGN-031',
        message: `the file must hold an object with "environment" and "clients" (SIGN-031)`,
      },
    ];
  }
  if (file.environment !== opts.environment) {
    problems.push({
      client_id: null,
      rule: 'SIGN-031',
      message: `the file's environment is ${show(file.environment)} but this is the definition file for "${opts.environment}" (SIGN-031)`,
    });
  }
  if (!Array.isArray(file.clients)) {
    problems.push({ client_id: null, rule: 'SIGN-031', message: `the file's "clients" must be a list (SIGN-031)` });
    return problems;
  }
  const seen = new Set<string>();
  file.clients.forEach((raw, index) => {
    problems.push(...validateClient(raw, index, opts));
    if (isRecord(raw) && typeof raw.client_id === 'string') {
      if (seen.has(raw.client_id)) {
        problems.push({
          client_id: raw.client_id,
          rule: 'SIGN-032',
          message: `client "${raw.client_id}": client_id is defined more than once in this file (SIGN-032)`,
        });
      }
      seen.add(raw.client_id);
    }
  });
  return problems;
}

/** The definition with optional fields filled in; call only on a file that validated clean. */
export function normalizeClient(raw: ClientDefinition): ClientDefinition {
  return {
    client_id: raw.client_id,
    ...(raw.client_name !== undefined ? { client_name: raw.client_name } : {}),
    audience: [...raw.audience],
    grant_types: [...raw.grant_types],
    response_types: [...raw.response_types],
    scope: raw.scope,
    token_endpoint_auth_method: raw.token_endpoint_auth_method,
    redirect_uris: [...raw.redirect_uris],
    post_logout_redirect_uris: [...(raw.post_logout_redirect_uris ?? [])],
    metadata: { first_party: raw.metadata.first_party },
  };
}

function validateClient(raw: unknown, index: number, opts: ValidateOptions): Problem[] {
  if (!isRecord(raw)) {
    return [{ client_id: null, rule: 'SIGN-031', message: `clients[${index}] must be an object (SIGN-031)` }];
  }
  const id = typeof raw.client_id === 'string' && raw.client_id !== '' ? raw.client_id : null;
  const label = id !== null ? `client "${id}"` : `client at clients[${index}]`;
  const problems: Problem[] = [];
  const add = (rule: string, what: string) => problems.push({ client_id: id, rule, message: `${label}: ${what}` });
  const service = isServiceClient(raw);

  for (const key of Object.keys(raw)) {
    if (!KNOWN_FIELDS.has(key))
      add('unknown field', `field "${key}" is not a registration field; refused so typos cannot hide (unknown field)`);
  }
  if (raw.client_name !== undefined && (typeof raw.client_name !== 'string' || raw.client_name.trim() === '')) {
    add('SIGN-031', `client_name, when present, must be a non-empty string (SIGN-031)`);
  }

  // SIGN-032, SIGN-033: client_id
  if (typeof raw.client_id !== 'string' || raw.client_id === '') {
    add('SIGN-032', `client_id must be a non-empty string of lowercase letters, digits and hyphens (SIGN-032)`);
  } else {
    if (!CLIENT_ID.test(raw.client_id)) {
      add('SIGN-032', `client_id uses characters other than lowercase letters, digits and hyphen (SIGN-032)`);
    }
    if (raw.client_id.length > CLIENT_ID_MAX) {
      add('SIGN-032', `client_id is longer than ${CLIENT_ID_MAX} characters (SIGN-032)`);
    }
    if (UUID_HYPHENATED.test(raw.client_id) || UUID_BARE.test(raw.client_id)) {
      add('SIGN-033', `client_id is shaped like a UUID; use a readable name (SIGN-033)`);
    }
  }

  // SIGN-034: audience
  if (!sameList(raw.audience, [opts.platformAudience])) {
    add('SIGN-034', `audience must be exactly ["${opts.platformAudience}"], got ${show(raw.audience)} (SIGN-034)`);
  }

  // SIGN-035, SIGN-036, SIGN-040: grant types
  if (service) {
    if (!sameList(raw.grant_types, ['client_credentials'])) {
      add(
        'SIGN-036',
        `a service client's grant_types must be exactly ["client_credentials"], got ${show(raw.grant_types)} (SIGN-036)`,
      );
    }
  } else if (!sameList(raw.grant_types, ['authorization_code'])) {
    add(
      'SIGN-035',
      `a person client's grant_types must be exactly ["authorization_code"], got ${show(raw.grant_types)} (SIGN-035)`,
    );
  }
  if (Array.isArray(raw.grant_types) && raw.grant_types.includes('refresh_token')) {
    add('SIGN-040', `grant_types must not contain refresh_token: there are no refresh tokens (SIGN-040)`);
  }

  // SIGN-037: response types
  if (!sameList(raw.response_types, ['code'])) {
    add('SIGN-037', `response_types must be exactly ["code"], got ${show(raw.response_types)} (SIGN-037)`);
  }

  // SIGN-038, SIGN-039: scope
  if (raw.scope !== 'openid') add('SIGN-038', `scope must be exactly "openid", got ${show(raw.scope)} (SIGN-038)`);
  if (typeof raw.scope === 'string' && raw.scope.split(/\s+/).includes('offline_access')) {
    add('SIGN-039', `scope must not contain offline_access (SIGN-039)`);
  }

  // SIGN-041: public person clients, confidential service clients; never a secret in the file
  const method = raw.token_endpoint_auth_method;
  if (typeof method !== 'string' || !AUTH_METHODS.includes(method)) {
    add(
      'SIGN-041',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}, got ${show(method)} (SIGN-041)`,
    );
  } else if (service && method === 'none') {
    add(
      'SIGN-041',
      `a service client cannot be public: token_endpoint_auth_method must be client_secret_basic or client_secret_post (SIGN-041)`,
    );
  } else if (!service && method !== 'none') {
    add(
      'SIGN-041',
      `a person client is public: token_endpoint_auth_method must be "none", PKCE protects the code (SIGN-041)`,
    );
  }
  if ('client_secret' in raw) {
    if (service) {
      add(
        'secret in file',
        `client_secret must not be in the definition file; set ${typeof raw.client_id === 'string' ? clientSecretVariable(raw.client_id) : 'CLIENT_SECRET_<CLIENT_ID>'} instead (secret in file)`,
      );
    } else {
      add('SIGN-041', `a public client has no client secret; remove client_secret (SIGN-041)`);
    }
  }

  // SIGN-042..SIGN-045, SIGN-004: redirect and post-logout URIs
  if (!isStringArray(raw.redirect_uris)) {
    add('SIGN-042', `redirect_uris must be a list of URIs (SIGN-042)`);
  } else {
    if (service && raw.redirect_uris.length > 0) {
      add('SIGN-042', `a service client must have no redirect_uris (SIGN-042)`);
    }
    if (!service && raw.redirect_uris.length === 0) {
      add('SIGN-042', `a person client needs at least one redirect_uri (SIGN-042)`);
    }
    for (const uri of raw.redirect_uris) checkUri(uri, 'redirect_uri', 'SIGN-042', opts.environment, add);
  }
  if (raw.post_logout_redirect_uris !== undefined) {
    if (!isStringArray(raw.post_logout_redirect_uris)) {
      add('SIGN-043', `post_logout_redirect_uris must be a list of URIs (SIGN-043)`);
    } else {
      for (const uri of raw.post_logout_redirect_uris) {
        checkUri(uri, 'post_logout_redirect_uri', 'SIGN-043', opts.environment, add);
      }
    }
  }

  // SIGN-046: first party
  if (!isRecord(raw.metadata) || raw.metadata.first_party !== true) {
    add('SIGN-046', `metadata.first_party must be true; consent is refused for other clients (SIGN-046)`);
  }
  return problems;
}

/** `exactRule` is SIGN-042 for redirect URIs and SIGN-043 for post-logout URIs. */
function checkUri(
  uri: string,
  field: string,
  exactRule: string,
  environment: string,
  add: (rule: string, what: string) => void,
) {
  const named = `${field} ${show(uri)}`;
  if (uri.includes('*')) add(exactRule, `${named} contains a wildcard; URIs are exact (${exactRule})`);
  if (uri.includes('#')) add(exactRule, `${named} has a fragment (${exactRule})`);
  // URL() would quietly trim these, but the server compares the registered string exactly.
  if (/\s/.test(uri)) add(exactRule, `${named} contains whitespace; URIs are exact (${exactRule})`);
  if (!URL.canParse(uri)) {
    add(exactRule, `${named} is not an absolute URI (${exactRule})`);
    return;
  }
  const url = new URL(uri);
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'http') {
    const authority = uri.slice(uri.indexOf('://') + 3).split(/[/?#]/, 1)[0];
    const loopback = LOOPBACK_AUTHORITY.exec(authority);
    if (!loopback || Number(loopback[2]) > 65535) {
      add('SIGN-044', `${named} is plain http but not a loopback IP (127.0.0.1 or [::1]) with a port (SIGN-044)`);
    }
    if (!HTTP_ALLOWED_IN.has(environment)) {
      add(
        'SIGN-045',
        `${named} is plain http, allowed only in local and dev definitions, not "${environment}" (SIGN-045)`,
      );
    }
  } else if (scheme !== 'https' && !REVERSE_DOMAIN_SCHEME.test(scheme)) {
    add(exactRule, `${named} uses scheme "${scheme}"; use https or a reverse-domain custom scheme (${exactRule})`);
  }
  const host = url.hostname.toLowerCase();
  if (environment === 'local' && (host === 'localhost' || host.endsWith('.localhost'))) {
    add('SIGN-004', `${named} names localhost; local definitions use the loopback IP 127.0.0.1 (SIGN-004)`);
  }
}
