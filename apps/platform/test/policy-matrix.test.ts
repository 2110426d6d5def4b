import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { can as accountingCan, accountingConfig } from '@platform/accounting';
import { agentsAuthenticator, callerPolicy as agentsCallers, agentsCan, agentsConfig } from '@platform/agents';
import { brokerAuthenticator, can as brokerCan, brokerConfig } from '@platform/broker';
import {
  constructionAuthenticator,
  callerPolicy as constructionCallers,
  constructionCan,
  constructionConfig,
} from '@platform/construction';
import { can as documentsCan, systemAuthenticator } from '@platform/documents';
import { can as identityCan, identityConfig } from '@platform/identity';
import { type Authenticator, authenticatorFromConfig, DEFAULT_DEV_PRINCIPALS, type Principal } from '@platform/kit';
import { POLICIES, ROLES } from '@platform/policies';
import { callerPolicy, vendorsAuthenticator, vendorsCan, vendorsConfig } from '@platform/vendors';
import { can as workspaceCan, workspaceConfig } from '@platform/workspace';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from '../src/launcher.ts';
import { throwawayEnv } from '../src/openapi.ts';
import { SERVICES } from '../src/services.ts';

/**
 * Issue 13.1: what identity says a caller may do (GET /v1/authz/me) is what every service's own
 * guard answers. The embedded platform runs on a throwaway data folder; each caller is resolved
 * by each service's own authenticator and asked through the service's own `can`, and one action
 * per service also goes through real HTTP.
 */
type Can = (p: Principal, action: string) => boolean;

const dataDir = mkdtempSync(join(tmpdir(), 'policy-matrix-'));
let platform: Awaited<ReturnType<typeof launch>>;
/** Each service's authenticator and `can`, built from the settings the launcher started it with. */
let guards: Record<string, { authenticator: Authenticator; can: Can }>;

const devPrincipals = JSON.parse(readFileSync(DEFAULT_DEV_PRINCIPALS, 'utf8')) as {
  people: { email: string; grants: { role: string }[] }[];
  services: { id: string }[];
};

interface Caller {
  name: string;
  headers: () => Record<string, string>;
}
const dev = (who: string): Caller => ({ name: who, headers: () => ({ 'x-dev-principal': who }) });
const serviceToken = (onBehalfOf?: string): Caller => ({
  name: onBehalfOf ? `service token for ${onBehalfOf}` : 'service token',
  headers: () => ({
    'x-platform-service-token': platform.env.SERVICE_TOKEN as string,
    ...(onBehalfOf ? { 'x-platform-on-behalf-of': onBehalfOf } : {}),
  }),
});

/** Every dev person (one per role of the catalogue, a label, staff), the dev services, and the service token. */
const callers: Caller[] = [
  ...devPrincipals.people.map((p) => dev(p.email)),
  ...devPrincipals.services.map((s) => dev(s.id)),
  serviceToken(),
  serviceToken('admin@dev.local'),
  serviceToken('superadmin@dev.local'),
];

beforeAll(async () => {
  platform = await launch([], { ...process.env, ...throwawayEnv(dataDir), LOG_LEVEL: 'silent' });
  const env = platform.env;
  const vendors = vendorsConfig(env);
  guards = {
    identity: { authenticator: authenticatorFromConfig(identityConfig(env)), can: identityCan as Can },
    accounting: { authenticator: authenticatorFromConfig(accountingConfig(env)), can: accountingCan as Can },
    vendors: { authenticator: vendorsAuthenticator(vendors), can: vendorsCan(callerPolicy(vendors)) as Can },
    documents: { authenticator: systemAuthenticator, can: documentsCan as Can },
    workspace: { authenticator: authenticatorFromConfig(workspaceConfig(env)), can: workspaceCan as Can },
    broker: { authenticator: brokerAuthenticator(brokerConfig(env)), can: brokerCan as Can },
    construction: {
      authenticator: constructionAuthenticator(constructionConfig(env)),
      can: constructionCan(constructionCallers(constructionConfig(env))) as Can,
    },
    agents: {
      authenticator: agentsAuthenticator(agentsConfig(env)),
      can: agentsCan(agentsCallers(agentsConfig(env))) as Can,
    },
  };
}, 120_000);
afterAll(async () => {
  await platform?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = (service: string) => platform.started.find((s) => s.name === service)?.url as string;

async function call(service: string, method: string, path: string, who: Caller | null, body?: unknown) {
  const headers: Record<string, string> = { ...(who?.headers() ?? {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['idempotency-key'] = `matrix-${Math.random().toString(36).slice(2)}`;
  const r = await fetch(`${url(service)}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await r.json().catch(() => null)) as { payload?: { data?: unknown } } | null;
  return { status: r.status, data: answer?.payload?.data };
}

/** What identity says the caller may do, globally (the scope every service asks in today). */
async function identitySays(who: Caller): Promise<Set<string>> {
  const r = await call('identity', 'GET', '/v1/authz/me', who);
  expect(r.status, who.name).toBe(200);
  const entries = (r.data as { can: { scope_type: string; actions: string[] }[] }).can;
  return new Set(entries.find((e) => e.scope_type === 'global')?.actions ?? []);
}

/** What the service's own guard answers: its authenticator resolves the caller, its `can` decides. */
async function serviceSays(service: string, who: Caller): Promise<Set<string>> {
  const guard = guards[service] as (typeof guards)[string];
  const req = { headers: who.headers() } as unknown as FastifyRequest;
  const p = await guard.authenticator.authenticate(req).catch(() => null);
  const actions = Object.keys((POLICIES[service] as (typeof POLICIES)[string]).actions);
  // No principal: only open actions pass (as the route guard answers 401 otherwise).
  return new Set(
    actions
      .filter((a) => (p ? guard.can(p, a) : (POLICIES[service]?.actions[a]?.anyone ?? false)))
      .map((a) => `${service}.${a}`),
  );
}

describe('13.1 every service answers as identity says', () => {
  it('13.1 for every caller and every action of the matrix, the service’s own guard agrees with GET /v1/authz/me', async () => {
    for (const who of callers) {
      const says = await identitySays(who);
      expect(says.size, who.name).toBeGreaterThan(0);
      for (const service of Object.keys(POLICIES)) {
        const listed = [...says].filter((a) => a.startsWith(`${service}.`)).sort();
        const answered = [...(await serviceSays(service, who))].sort();
        expect(answered, `${service} for ${who.name}`).toEqual(listed);
      }
    }
  });

  it('13.1 GET /v1/roles is the same interpreter: each dev person with one role lists its actions', async () => {
    const roles = (await call('identity', 'GET', '/v1/roles', dev('staff@dev.local'))).data as {
      role: string;
      actions: string[];
    }[];
    const everyone = await identitySays(dev('staff@dev.local'));
    for (const person of devPrincipals.people.filter((p) => p.grants.length === 1)) {
      const role = person.grants[0]?.role as string;
      const actions = roles.find((r) => r.role === role)?.actions ?? [];
      const says = await identitySays(dev(person.email));
      // The editors lists name people, not roles: admin@dev.local edits vendors and construction locally.
      const held = [...says]
        .filter((a) => !everyone.has(a) && a !== 'vendors.change' && !a.startsWith('construction.'))
        .sort();
      expect(held, person.email).toEqual(actions);
    }
  });

  it('13.1 a verified Super Admin may set a budget on the broker, as authz/me says (PUT /v1/budgets/{actor})', async () => {
    const says = await identitySays(dev('superadmin@dev.local'));
    expect(says.has('broker.manage_budgets')).toBe(true);
    const target = 'budget-target@example.com';
    const posted = await call('broker', 'POST', '/v1/people', serviceToken(), {
      data: { email: target, kind: 'person' },
    });
    expect([200, 201]).toContain(posted.status);
    const put = await call('broker', 'PUT', `/v1/budgets/${target}`, dev('superadmin@dev.local'), {
      data: { limit: 500 },
    });
    expect(put.status).toBe(200);
    const label = await call('broker', 'PUT', `/v1/budgets/${target}`, dev('superlabel@dev.local'), {
      data: { limit: 1 },
    });
    expect(label.status).toBe(403);
    expect((await identitySays(dev('superlabel@dev.local'))).has('broker.manage_budgets')).toBe(false);
  });

  it('13.1 over HTTP, one action per service: each caller is let through exactly when authz/me lists the action', async () => {
    const creator = dev(`creator-${Date.now()}@example.com`);
    const project = await call('workspace', 'POST', '/v1/projects', creator, {
      data: { name: `Matrix ${Date.now()}` },
    });
    expect(project.status).toBe(201);
    const projectId = (project.data as { id: string }).id;
    const target = 'http-target@example.com';
    await call('broker', 'POST', '/v1/people', serviceToken(), { data: { email: target, kind: 'person' } });

    /** Per service: the request, and from what authz/me lists, the status the service must answer. */
    const probes: {
      service: string;
      run: (who: Caller) => ReturnType<typeof call>;
      expected: (listed: Set<string>) => number[];
    }[] = [
      {
        service: 'identity',
        run: (who) => call('identity', 'GET', '/v1/people', who),
        expected: (l) => (l.has('identity.people.read') ? [200] : [403]),
      },
      {
        service: 'accounting',
        run: (who) => call('accounting', 'GET', '/v1/deleted-journal-entries', who),
        expected: (l) => (l.has('accounting.deletions.read') ? [200] : [403]),
      },
      {
        service: 'broker',
        run: (who) => call('broker', 'PUT', `/v1/budgets/${target}`, who, { data: { limit: 700 } }),
        expected: (l) => (l.has('broker.manage_budgets') ? [200] : [401, 403]),
      },
      {
        service: 'workspace',
        run: (who) => call('workspace', 'GET', `/v1/projects/${projectId}`, who),
        // Not a member: an admin reads it, anyone else signed in is told it does not exist.
        expected: (l) => (!l.has('workspace.use') ? [403] : l.has('workspace.read_all_projects') ? [200] : [404]),
      },
      {
        service: 'vendors',
        run: (who) =>
          call('vendors', 'POST', '/v1/vendors', who, {
            data: { name: `Matrix ${Math.random()}`, kind: 'consultant', discipline: 'legal' },
          }),
        // A caller the vendors caller table does not know (a service acting as itself) is 401 there.
        expected: (l) => (l.has('vendors.change') ? [201] : l.has('vendors.read') ? [403] : [401]),
      },
      {
        service: 'construction',
        run: (who) => call('construction', 'GET', '/v1/development-projects', who),
        expected: (l) => (l.has('construction.ReadProject') ? [200] : [401, 403]),
      },
      {
        service: 'documents',
        run: (who) => call('documents', 'GET', '/v1/documents', who),
        expected: (l) => (l.has('documents.read') ? [200] : [401]),
      },
    ];
    for (const who of callers) {
      const listed = await identitySays(who);
      for (const probe of probes) {
        const r = await probe.run(who);
        expect(probe.expected(listed), `${probe.service} for ${who.name}: ${r.status}`).toContain(r.status);
      }
    }
  });
});

describe('13.1 the policies and the platform agree', () => {
  it('13.1 every role a policy names is in the role catalogue, and every dev principal’s role too', () => {
    const named = Object.values(POLICIES).flatMap((p) => Object.values(p.actions).flatMap((r) => r.roles ?? []));
    for (const role of new Set(named)) expect(Object.keys(ROLES), role).toContain(role);
    for (const person of devPrincipals.people) {
      for (const g of person.grants) expect(Object.keys(ROLES), person.email).toContain(g.role);
    }
    // Every role of the catalogue has a dev principal, so the matrix test covers it.
    const held = new Set(devPrincipals.people.flatMap((p) => p.grants.map((g) => g.role)));
    for (const role of Object.keys(ROLES)) expect([...held], role).toContain(role);
  });

  it('13.1 every service the launcher knows has a policy, named as the launcher names it, and no policy is for an unknown service', () => {
    // The console has no policy engine (spec 3, OPS-041): its one role table is configuration.
    const governed = Object.keys(SERVICES).filter((n) => n !== 'console');
    expect(Object.keys(POLICIES).sort()).toEqual(governed.sort());
    for (const [name, policy] of Object.entries(POLICIES)) expect(policy.service).toBe(name);
  });

  it('13.1 lists and applications a rule names are declared by its policy', () => {
    for (const policy of Object.values(POLICIES)) {
      for (const [action, rule] of Object.entries(policy.actions)) {
        if (rule.listed) expect(Object.keys(policy.lists ?? {}), `${policy.service}.${action}`).toContain(rule.listed);
        for (const app of rule.apps ?? [])
          expect(Object.keys(policy.apps ?? {}), `${policy.service}.${action}`).toContain(app);
      }
    }
  });
});
