import { join } from 'node:path';
import { DEFAULT_PORT as ACCOUNTING_PORT, accountingConfig, startAccounting } from '@platform/accounting';
import { DEFAULT_PORT as AGENTS_PORT, agentsConfig, startAgents } from '@platform/agents';
import { DEFAULT_PORT as BROKER_PORT, brokerConfig, startBroker } from '@platform/broker';
import { DEFAULT_PORT as CONSOLE_PORT, consoleConfig, startConsole } from '@platform/console';
import { DEFAULT_PORT as CONSTRUCTION_PORT, constructionConfig, startConstruction } from '@platform/construction';
import { DEFAULT_PORT as DOCUMENTS_PORT, documentsConfig, startDocuments } from '@platform/documents';
import { DEFAULT_PORT as IDENTITY_PORT, identityConfig, startIdentity } from '@platform/identity';
import { type Bus, type SharedPglite, servesApiDocs } from '@platform/kit';
import { startVendors, DEFAULT_PORT as VENDORS_PORT, vendorsConfig } from '@platform/vendors';
import { startWorkspace, DEFAULT_PORT as WORKSPACE_PORT, workspaceConfig } from '@platform/workspace';
import { localBlobStorage } from './local-storage.ts';

export interface Shared {
  pglite?: Promise<SharedPglite>;
  bus: Bus;
}

export interface Started {
  name: string;
  url: string;
  /** The service's generated OpenAPI document (what it serves at /openapi.json). */
  openapi(): object;
  /** Whether it answers GET /api-docs (workspace and broker only with SWAGGER_ON=1): the banner names only what answers. */
  apiDocs: boolean;
  /** Graceful stop: requests in flight get `graceMs` to finish (see the kit's serve). */
  close(o?: { graceMs?: number }): Promise<void>;
}

/** A service as its start function returns it. */
interface Running {
  url: string;
  app: { swagger(): object; hasRoute(route: { method: 'GET'; url: string }): boolean };
  close(o?: { graceMs?: number }): Promise<void>;
}

/** The launcher's view of a started service; what it serves is read from its own routes. */
const started = (name: string, s: Running): Started => ({
  name,
  url: s.url,
  openapi: () => s.app.swagger(),
  apiDocs: servesApiDocs(s.app),
  close: s.close,
});

interface ServiceEntry {
  /** The port it listens on by default (PORT_<NAME> overrides). */
  port: number;
  /** Services this one cannot work without; the launcher starts them too. */
  needs: string[];
  start(env: NodeJS.ProcessEnv, shared: Shared): Promise<Started>;
}

/** Every service the launcher can start, in start order. Later services add a line here. */
export const SERVICES: Record<string, ServiceEntry> = {
  identity: {
    port: IDENTITY_PORT,
    needs: [],
    start: async (env, shared) => started('identity', await startIdentity(identityConfig(env), shared, env)),
  },
  accounting: {
    port: ACCOUNTING_PORT,
    // Tokens are verified against identity's keys and grants are read from it.
    needs: ['identity'],
    start: async (env, shared) => started('accounting', await startAccounting(accountingConfig(env), shared)),
  },
  vendors: {
    port: VENDORS_PORT,
    // Identity stands in for the access gateway locally and resolves emails to people.
    needs: ['identity'],
    start: async (env, shared) => started('vendors', await startVendors(vendorsConfig(env), shared)),
  },
  documents: {
    port: DOCUMENTS_PORT,
    // Authorization is not wired in documents (spec 1): it needs no other service.
    needs: [],
    start: async (env, shared) => {
      const storage = await localBlobStorage(env);
      try {
        const s = await startDocuments(documentsConfig({ ...env, ...storage.env }), shared);
        return {
          ...started('documents', s),
          close: async (o?: { graceMs?: number }) => {
            try {
              await s.close(o);
            } finally {
              await storage.close();
            }
          },
        };
      } catch (e) {
        await storage.close();
        throw e;
      }
    },
  },
  workspace: {
    port: WORKSPACE_PORT,
    // Platform bearer tokens are verified against identity's keys and grants are read from it.
    needs: ['identity'],
    start: async (env, shared) => started('workspace', await startWorkspace(workspaceConfig(env), shared)),
  },
  broker: {
    port: BROKER_PORT,
    // Identity stands in for the access gateway locally and holds the grants (platform admins).
    needs: ['identity'],
    start: async (env, shared) => started('broker', await startBroker(brokerConfig(env), shared)),
  },
  construction: {
    port: CONSTRUCTION_PORT,
    // Identity stands in for the access gateway; firms are checked with vendors and attachments
    // are stored through documents (the launcher hands it both addresses).
    needs: ['identity', 'vendors', 'documents'],
    start: async (env, shared) => started('construction', await startConstruction(constructionConfig(env), shared)),
  },
  agents: {
    port: AGENTS_PORT,
    // Identity stands in for the access gateway; skill archives are stored through documents, the
    // harness's model calls go through the broker, and daily briefs and weekly coaching read a
    // person's workspace on their behalf (the launcher hands it the three addresses).
    needs: ['identity', 'documents', 'broker', 'workspace'],
    start: async (env, shared) => started('agents', await startAgents(agentsConfig(env), shared)),
  },
  console: {
    port: CONSOLE_PORT,
    // Identity stands in for the access gateway (console-app). The console inspects the launcher's
    // own database and bus as us/core unless US_CORE_DATABASE_URL / US_CORE_BUS_URL name others.
    needs: ['identity'],
    start: async (env, shared) => started('console', await startConsole(consoleConfig(env), shared)),
  },
};

/** The named services and everything they need, in start order. */
export function withNeeds(names: string[]): string[] {
  const wanted = new Set<string>();
  const add = (n: string) => {
    if (wanted.has(n)) return;
    wanted.add(n);
    for (const dep of SERVICES[n]?.needs ?? []) add(dep);
  };
  for (const n of names) add(n);
  return Object.keys(SERVICES).filter((n) => wanted.has(n));
}

export const pgliteDir = (dataDir: string) => join(dataDir, 'pglite');
