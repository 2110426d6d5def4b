import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ClientRegistrationError,
  clientSecretFor,
  type Problem,
  validateDefinitionFile,
} from '../src/clients/definition.ts';
import { checkAllDefinitionFiles, loadClientDefinitions } from '../src/clients/load.ts';

const AUD = 'urn:platform:api';
const SERVICE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHIPPED = resolve(SERVICE_DIR, '../../config/clients');

type Json = Record<string, unknown>;

const person = (over: Json = {}): Json => ({
  client_id: 'web-app',
  client_name: 'Web app',
  audience: [AUD],
  grant_types: ['authorization_code'],
  response_types: ['code'],
  scope: 'openid',
  token_endpoint_auth_method: 'none',
  redirect_uris: ['http://127.0.0.1:3000/cb'],
  post_logout_redirect_uris: ['http://127.0.0.1:3000/'],
  metadata: { first_party: true },
  ...over,
});

const service = (over: Json = {}): Json => ({
  client_id: 'payments',
  audience: [AUD],
  grant_types: ['client_credentials'],
  response_types: ['code'],
  scope: 'openid',
  token_endpoint_auth_method: 'client_secret_basic',
  redirect_uris: [],
  metadata: { first_party: true },
  ...over,
});

const without = (client: Json, key: string): Json => {
  const copy = { ...client };
  delete copy[key];
  return copy;
};

const definitionFile = (environment: string, ...clients: unknown[]) => ({ environment, clients });

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'clients-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const writeJson = (dir: string, name: string, value: unknown) =>
  writeFileSync(join(dir, name), `${JSON.stringify(value, null, 2)}\n`);

const validate = (file: unknown, environment = 'local') =>
  validateDefinitionFile(file, { environment, platformAudience: AUD });

const rulesOf = (problems: Problem[]) => [...new Set(problems.map((p) => p.rule))].sort();

const refusal = (fn: () => unknown): ClientRegistrationError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ClientRegistrationError);
    return e as ClientRegistrationError;
  }
  throw new Error('expected a ClientRegistrationError, nothing was thrown');
};

interface BadCase {
  title: string;
  /** Exactly the rules the break violates: anything more is a false alarm. */
  rules: string[];
  client: Json;
  environment?: string;
  /** How messages name the client. */
  names?: string;
}

// Each case starts from a valid client and breaks one thing.
const clientCases: BadCase[] = [
  {
    title: 'client_id with upper-case letters is refused',
    rules: ['SIGN-032'],
    client: person({ client_id: 'Web-App' }),
  },
  { title: 'client_id with an underscore is refused', rules: ['SIGN-032'], client: person({ client_id: 'web_app' }) },
  {
    title: 'an empty client_id is refused',
    rules: ['SIGN-032'],
    client: person({ client_id: '' }),
    names: 'client at clients[0]',
  },
  {
    title: 'a missing client_id is refused',
    rules: ['SIGN-032'],
    client: without(person(), 'client_id'),
    names: 'client at clients[0]',
  },
  {
    title: 'a client_id over 64 characters is refused',
    rules: ['SIGN-032'],
    client: person({ client_id: 'x'.repeat(65) }),
  },
  {
    title: 'a UUID-shaped client_id is refused',
    rules: ['SIGN-033'],
    client: person({ client_id: '0b4e3a2c-9f1d-4c8e-a7b2-5d6e7f8a9b0c' }),
  },
  {
    title: 'an upper-case UUID client_id is refused (and is not lowercase)',
    rules: ['SIGN-032', 'SIGN-033'],
    client: person({ client_id: '0B4E3A2C-9F1D-4C8E-A7B2-5D6E7F8A9B0C' }),
  },
  {
    title: 'a 32-hex run without hyphens is refused as UUID-shaped',
    rules: ['SIGN-033'],
    client: person({ client_id: 'app-0b4e3a2c9f1d4c8ea7b25d6e7f8a9b0c' }),
  },
  {
    title: 'audience with a second value is refused',
    rules: ['SIGN-034'],
    client: person({ audience: [AUD, 'urn:other'] }),
  },
  {
    title: 'audience other than the platform audience is refused',
    rules: ['SIGN-034'],
    client: person({ audience: ['urn:other'] }),
  },
  { title: 'audience given as a string is refused', rules: ['SIGN-034'], client: person({ audience: AUD }) },
  {
    title: 'a person client with the implicit grant is refused',
    rules: ['SIGN-035'],
    client: person({ grant_types: ['implicit'] }),
  },
  {
    title: 'a person client with an extra grant is refused',
    rules: ['SIGN-035'],
    client: person({ grant_types: ['authorization_code', 'implicit'] }),
  },
  {
    title: 'a service client with an extra grant is refused',
    rules: ['SIGN-036'],
    client: service({ grant_types: ['client_credentials', 'authorization_code'] }),
  },
  {
    title: 'response_types with id_token is refused',
    rules: ['SIGN-037'],
    client: person({ response_types: ['code', 'id_token'] }),
  },
  { title: 'response_types token is refused', rules: ['SIGN-037'], client: person({ response_types: ['token'] }) },
  { title: 'scope other than openid is refused', rules: ['SIGN-038'], client: person({ scope: 'openid profile' }) },
  {
    title: 'scope with offline_access is refused',
    rules: ['SIGN-038', 'SIGN-039'],
    client: person({ scope: 'openid offline_access' }),
  },
  {
    title: 'a person client with the refresh_token grant is refused',
    rules: ['SIGN-035', 'SIGN-040'],
    client: person({ grant_types: ['authorization_code', 'refresh_token'] }),
  },
  {
    title: 'a service client with the refresh_token grant is refused',
    rules: ['SIGN-036', 'SIGN-040'],
    client: service({ grant_types: ['client_credentials', 'refresh_token'] }),
  },
  {
    title: 'a person client that is not public is refused',
    rules: ['SIGN-041'],
    client: person({ token_endpoint_auth_method: 'client_secret_basic' }),
  },
  {
    title: 'a person client with a client_secret is refused',
    rules: ['SIGN-041'],
    client: person({ client_secret: 'x' }),
  },
  {
    title: 'a public service client is refused',
    rules: ['SIGN-041'],
    client: service({ token_endpoint_auth_method: 'none' }),
  },
  {
    title: 'an unsupported token_endpoint_auth_method is refused',
    rules: ['SIGN-041'],
    client: service({ token_endpoint_auth_method: 'private_key_jwt' }),
  },
  {
    title: 'a service secret written in the file is refused',
    rules: ['secret in file'],
    client: service({ client_secret: 'hunter2' }),
  },
  {
    title: 'an unknown field is refused',
    rules: ['unknown field'],
    client: person({ redirect_uri: 'http://127.0.0.1:3000/cb' }),
  },
  {
    title: 'a wildcard path in a redirect_uri is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: ['http://127.0.0.1:3000/*'] }),
  },
  {
    title: 'a wildcard host in a redirect_uri is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: ['https://*.example.com/cb'] }),
  },
  {
    title: 'a redirect_uri with a fragment is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: ['https://app.example.com/cb#done'] }),
  },
  {
    title: 'a relative redirect_uri is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: ['/callback'] }),
  },
  {
    title: 'a redirect_uri with surrounding whitespace is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: [' https://app.example.com/cb'] }),
  },
  {
    title: 'a redirect_uri with a non-reverse-domain scheme is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: ['javascript:alert(1)'] }),
  },
  {
    title: 'a person client without redirect_uris is refused',
    rules: ['SIGN-042'],
    client: person({ redirect_uris: [] }),
  },
  {
    title: 'a service client with a redirect_uri is refused',
    rules: ['SIGN-042'],
    client: service({ redirect_uris: ['https://payments.example.com/cb'] }),
  },
  {
    title: 'a wildcard in a post_logout_redirect_uri is refused',
    rules: ['SIGN-043'],
    client: person({ post_logout_redirect_uris: ['https://app.example.com/*'] }),
  },
  {
    title: 'a post_logout_redirect_uri with a fragment is refused',
    rules: ['SIGN-043'],
    client: person({ post_logout_redirect_uris: ['https://app.example.com/#out'] }),
  },
  {
    title: 'a relative post_logout_redirect_uri is refused',
    rules: ['SIGN-043'],
    client: person({ post_logout_redirect_uris: ['signed-out'] }),
  },
  {
    title: 'http://localhost is refused in dev',
    rules: ['SIGN-044'],
    environment: 'dev',
    client: person({ redirect_uris: ['http://localhost:3000/cb'] }),
  },
  {
    title: 'a port-less loopback http redirect_uri is refused',
    rules: ['SIGN-044'],
    client: person({ redirect_uris: ['http://127.0.0.1/cb'] }),
  },
  {
    title: 'a private-network http redirect_uri is refused',
    rules: ['SIGN-044'],
    client: person({ redirect_uris: ['http://192.168.1.5:3000/cb'] }),
  },
  {
    title: 'a loopback address other than 127.0.0.1 or [::1] is refused',
    rules: ['SIGN-044'],
    client: person({ redirect_uris: ['http://127.0.0.2:3000/cb'] }),
  },
  {
    title: 'http://localhost post_logout_redirect_uri is refused in dev',
    rules: ['SIGN-044'],
    environment: 'dev',
    client: person({ post_logout_redirect_uris: ['http://localhost:3000/'] }),
  },
  {
    title: 'a loopback http redirect_uri is refused in prod',
    rules: ['SIGN-045'],
    environment: 'prod',
    client: person({ redirect_uris: ['http://127.0.0.1:3000/cb'], post_logout_redirect_uris: [] }),
  },
  {
    title: 'a loopback http post_logout_redirect_uri is refused in staging',
    rules: ['SIGN-045'],
    environment: 'staging',
    client: person({ redirect_uris: ['https://app.example.com/cb'] }),
  },
  {
    title: 'metadata.first_party false is refused',
    rules: ['SIGN-046'],
    client: person({ metadata: { first_party: false } }),
  },
  { title: 'missing metadata is refused', rules: ['SIGN-046'], client: without(person(), 'metadata') },
  {
    title: 'http://localhost in a local redirect_uri is refused',
    rules: ['SIGN-004', 'SIGN-044'],
    client: person({ redirect_uris: ['http://localhost:3000/cb'] }),
  },
  {
    title: 'an https localhost redirect_uri is refused in local',
    rules: ['SIGN-004'],
    client: person({ redirect_uris: ['https://localhost:3000/cb'] }),
  },
  {
    title: 'a *.localhost post_logout_redirect_uri is refused in local',
    rules: ['SIGN-004'],
    client: person({ post_logout_redirect_uris: ['https://app.localhost/'] }),
  },
];

describe('client definition validator', () => {
  for (const c of clientCases) {
    it(`${c.rules.join(' ')} ${c.title}`, () => {
      const environment = c.environment ?? 'local';
      const file = definitionFile(environment, c.client);
      const names = c.names ?? `client "${c.client.client_id}"`;

      const problems = validate(file, environment);
      expect(rulesOf(problems)).toEqual([...c.rules].sort());
      for (const p of problems) {
        expect(p.message.startsWith(`${names}: `)).toBe(true);
        expect(p.message.endsWith(`(${p.rule})`)).toBe(true);
      }

      const dir = tempDir();
      writeJson(dir, `${environment}.json`, file);
      const error = refusal(() => loadClientDefinitions(dir, environment, AUD));
      expect(error.message.startsWith(`Client registration file ${join(dir, `${environment}.json`)} refused:\n`)).toBe(
        true,
      );
      expect(error.message).toContain(names);
      for (const rule of c.rules) expect(error.message).toContain(`(${rule})`);
      expect(error.message.split('\n')).toHaveLength(1 + problems.length);
      expect(error.problems).toEqual(problems);
    });
  }

  it('SIGN-032 a client_id defined twice in one file is refused', () => {
    const problems = validate(definitionFile('local', person(), service(), person({ client_name: 'Again' })));
    expect(problems).toEqual([
      {
        client_id: 'web-app',
        rule: 'SIGN-032',
        message: 'client "web-app": client_id is defined more than once in this file (SIGN-032)',
      },
    ]);
    const dir = tempDir();
    writeJson(dir, 'local.json', definitionFile('local', person(), person()));
    expect(refusal(() => loadClientDefinitions(dir, 'local', AUD)).message).toContain(
      'client "web-app": client_id is defined more than once in this file (SIGN-032)',
    );
  });

  it('SIGN-044 the refusal names the client, the URI and the rule', () => {
    const problems = validate(definitionFile('dev', person({ redirect_uris: ['http://localhost:3000/cb'] })), 'dev');
    expect(problems).toEqual([
      {
        client_id: 'web-app',
        rule: 'SIGN-044',
        message:
          'client "web-app": redirect_uri "http://localhost:3000/cb" is plain http but not a loopback IP (127.0.0.1 or [::1]) with a port (SIGN-044)',
      },
    ]);
  });

  it('SIGN-031 a file for another environment is refused', () => {
    const problems = validate(definitionFile('dev', person()), 'local');
    expect(problems).toEqual([{ client_id: null, rule: 'SIGN-031', message: expect.stringContaining('"dev"') }]);
    const dir = tempDir();
    writeJson(dir, 'local.json', definitionFile('dev', person()));
    expect(refusal(() => loadClientDefinitions(dir, 'local', AUD)).message).toMatch(
      /environment is "dev".*\(SIGN-031\)/,
    );
  });

  it('SIGN-031 a file without a clients list or not an object is refused', () => {
    expect(rulesOf(validate({ environment: 'local', clients: {} }))).toEqual(['SIGN-031']);
    expect(rulesOf(validate({ environment: 'local' }))).toEqual(['SIGN-031']);
    expect(rulesOf(validate([person()]))).toEqual(['SIGN-031']);
    expect(rulesOf(validate(definitionFile('local', 'web-app')))).toEqual(['SIGN-031']);
    expect(rulesOf(validate(definitionFile('local', person({ client_name: 42 }))))).toEqual(['SIGN-031']);
  });

  it('SIGN-034 SIGN-038 SIGN-042 SIGN-044 SIGN-046 every problem is collected, not only the first', () => {
    const file = definitionFile(
      'local',
      person({ audience: ['urn:other'], scope: 'openid email' }),
      person({ client_id: 'cli', redirect_uris: ['http://127.0.0.1/cb', 'https://*.example.com/cb'] }),
      service({ metadata: { first_party: false } }),
    );
    const problems = validate(file);
    expect(problems.map((p) => [p.client_id, p.rule])).toEqual([
      ['web-app', 'SIGN-034'],
      ['web-app', 'SIGN-038'],
      ['cli', 'SIGN-044'],
      ['cli', 'SIGN-042'],
      ['payments', 'SIGN-046'],
    ]);
    const dir = tempDir();
    writeJson(dir, 'local.json', file);
    expect(refusal(() => loadClientDefinitions(dir, 'local', AUD)).message.split('\n')).toHaveLength(6);
  });

  it('SIGN-019 SIGN-042 SIGN-044 custom-scheme, https and [::1] loopback URIs are accepted', () => {
    const native = person({
      client_id: 'mobile',
      redirect_uris: ['com.example.app:/callback', 'https://app.example.com/cb', 'http://[::1]:8765/cb'],
      post_logout_redirect_uris: ['com.example.app:/signed-out', 'http://127.0.0.1:8765/out'],
    });
    expect(validate(definitionFile('local', native))).toEqual([]);
    expect(validate(definitionFile('dev', native), 'dev')).toEqual([]);
  });

  it('SIGN-036 SIGN-041 a service client may use client_secret_post', () => {
    expect(
      validate(definitionFile('prod', service({ token_endpoint_auth_method: 'client_secret_post' })), 'prod'),
    ).toEqual([]);
  });
});

describe('client secrets', () => {
  const svc = { client_id: 'workspace-sync', token_endpoint_auth_method: 'client_secret_basic' as const };

  it('SIGN-036 a service client secret comes from CLIENT_SECRET_<ID>, never from the file', () => {
    expect(clientSecretFor(svc, { CLIENT_SECRET_WORKSPACE_SYNC: 's3cret' }, 'prod')).toBe('s3cret');
    expect(clientSecretFor(svc, { CLIENT_SECRET_WORKSPACE_SYNC: 's3cret' }, 'local')).toBe('s3cret');
  });

  it('SIGN-036 locally a missing secret defaults to local-secret-<client_id>', () => {
    expect(clientSecretFor(svc, {}, 'local')).toBe('local-secret-workspace-sync');
    expect(clientSecretFor(svc, { CLIENT_SECRET_WORKSPACE_SYNC: '' }, 'local')).toBe('local-secret-workspace-sync');
  });

  it('SIGN-036 outside local a missing secret is refused naming the client and the variable', () => {
    const error = refusal(() => clientSecretFor(svc, {}, 'dev'));
    expect(error.message).toContain('client "workspace-sync"');
    expect(error.message).toContain('CLIENT_SECRET_WORKSPACE_SYNC');
  });

  it('SIGN-041 a public client has no secret', () => {
    const error = refusal(() => clientSecretFor({ client_id: 'web', token_endpoint_auth_method: 'none' }, {}, 'local'));
    expect(error.message).toContain('client "web"');
    expect(error.message).toContain('SIGN-041');
  });
});

describe('loading definition files', () => {
  it('SIGN-031 a missing definition file is refused naming it', () => {
    const dir = tempDir();
    writeJson(dir, 'dev.json', definitionFile('dev', person()));
    const error = refusal(() => loadClientDefinitions(dir, 'local', AUD));
    expect(error.message).toContain(join(dir, 'local.json'));
    expect(error.message).toContain('not found');
  });

  it('SIGN-031 a missing folder is refused naming it', () => {
    const dir = join(tempDir(), 'absent');
    expect(refusal(() => loadClientDefinitions(dir, 'local', AUD)).message).toContain(dir);
  });

  it('SIGN-031 a file that is not JSON is refused', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'local.json'), '{ "environment": "local", ');
    const error = refusal(() => loadClientDefinitions(dir, 'local', AUD));
    expect(error.message).toContain('not readable JSON');
    expect(error.problems.map((p) => p.rule)).toEqual(['SIGN-031']);
  });

  for (const [other, text] of [
    ['local.jsonc', '// copy\n{ "environment": "local", "clients": [] }'],
    ['local.yaml', 'environment: local\nclients: []\n'],
    ['local.copy.json', JSON.stringify(definitionFile('local', person()))],
    ['old-clients.json', JSON.stringify(definitionFile('local', person()))],
  ]) {
    it(`SIGN-031 a second file for the environment (${other}) is refused naming both files`, () => {
      const dir = tempDir();
      writeJson(dir, 'local.json', definitionFile('local', person()));
      writeFileSync(join(dir, other), text);
      const error = refusal(() => loadClientDefinitions(dir, 'local', AUD));
      expect(error.problems.map((p) => p.rule)).toEqual(['SIGN-031']);
      expect(error.message).toContain(join(dir, 'local.json'));
      expect(error.message).toContain(join(dir, other));
    });
  }

  it('SIGN-031 files for other environments, dot-files and folders do not count as a second file', () => {
    const dir = tempDir();
    writeJson(dir, 'local.json', definitionFile('local', person(), service()));
    writeJson(dir, 'dev.json', definitionFile('dev', person()));
    writeFileSync(join(dir, '.local.json.swp'), '"environment": "local"');
    mkdirSync(join(dir, 'local.d'));
    expect(loadClientDefinitions(dir, 'local', AUD).map((c) => c.client_id)).toEqual(['web-app', 'payments']);
  });

  it('SIGN-043 a loaded client without post_logout_redirect_uris gets an empty list', () => {
    const dir = tempDir();
    writeJson(dir, 'local.json', definitionFile('local', service()));
    const [payments] = loadClientDefinitions(dir, 'local', AUD);
    expect(payments.post_logout_redirect_uris).toEqual([]);
    expect(payments).toEqual({ ...service(), post_logout_redirect_uris: [] });
  });

  it('SIGN-031 checkAllDefinitionFiles reports each json file as the environment its name gives', () => {
    const dir = tempDir();
    writeJson(dir, 'local.json', definitionFile('local', person(), service()));
    writeJson(dir, 'prod.json', definitionFile('prod', person()));
    const checks = checkAllDefinitionFiles(dir, AUD);
    expect(checks.map((c) => [c.file, c.clients, rulesOf(c.problems)])).toEqual([
      [join(dir, 'local.json'), 2, []],
      [join(dir, 'prod.json'), 1, ['SIGN-045']],
    ]);
  });
});

describe('shipped definition files', () => {
  const environments = ['local', 'dev', 'prod'];

  it('SIGN-031 config/clients holds exactly one clean definition file per environment', () => {
    const checks = checkAllDefinitionFiles(SHIPPED, AUD);
    expect(checks.map((c) => c.file)).toEqual(['dev.json', 'local.json', 'prod.json'].map((n) => join(SHIPPED, n)));
    for (const check of checks) expect(check.problems).toEqual([]);
  });

  for (const environment of environments) {
    it(`SIGN-004 SIGN-032 SIGN-033 SIGN-034 SIGN-035 SIGN-036 SIGN-037 SIGN-038 SIGN-039 SIGN-040 SIGN-041 SIGN-042 SIGN-043 SIGN-044 SIGN-045 SIGN-046 ${environment}.json validates clean and loads`, () => {
      const raw = JSON.parse(readFileSync(join(SHIPPED, `${environment}.json`), 'utf8'));
      expect(validateDefinitionFile(raw, { environment, platformAudience: AUD })).toEqual([]);
      const clients = loadClientDefinitions(SHIPPED, environment, AUD);
      const ids = clients.map((c) => c.client_id);
      expect(ids).toEqual(
        expect.arrayContaining(['platform-web', 'platform-mobile', 'payments', 'billing', 'workspace', 'agents']),
      );
      if (environment !== 'prod') expect(ids).toContain('platform-cli');
    });
  }

  it('SIGN-004 SIGN-045 local names no localhost and prod holds no plain http URI', () => {
    expect(readFileSync(join(SHIPPED, 'local.json'), 'utf8')).not.toMatch(/localhost/i);
    expect(readFileSync(join(SHIPPED, 'prod.json'), 'utf8')).not.toMatch(/http:\/\//i);
    const web = loadClientDefinitions(SHIPPED, 'local', AUD).find((c) => c.client_id === 'platform-web');
    expect(web?.redirect_uris).toEqual(['http://127.0.0.1:5173/callback']);
    expect(web?.post_logout_redirect_uris).toEqual(['http://127.0.0.1:5173/']);
  });
});

describe('clients:check', () => {
  const run = (clientsDir: string | undefined) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.CLIENTS_DIR;
    delete env.PLATFORM_AUDIENCE;
    if (clientsDir !== undefined) env.CLIENTS_DIR = clientsDir;
    return spawnSync('npx', ['tsx', 'src/clients-check.ts'], { cwd: SERVICE_DIR, env, encoding: 'utf8' });
  };

  it('SIGN-031 SIGN-046 exits 0 on the shipped folder, 1 on a folder with a bad file', () => {
    const good = run(undefined);
    expect(good.stdout).toContain(`ok ${join(SHIPPED, 'local.json')} (8 clients)`);
    expect(good.stdout).toContain(`ok ${join(SHIPPED, 'prod.json')}`);
    expect(good.status).toBe(0);

    const dir = tempDir();
    writeJson(dir, 'local.json', definitionFile('local', person({ metadata: { first_party: false } })));
    const bad = run(dir);
    expect(bad.stderr).toContain(`Client registration file ${join(dir, 'local.json')} refused:`);
    expect(bad.stderr).toContain('client "web-app": metadata.first_party must be true');
    expect(bad.status).toBe(1);
  });
});
