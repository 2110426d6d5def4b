import { join } from 'node:path';
import { accountingConfig, startAccounting } from '@platform/accounting';
import { identityConfig, startIdentity } from '@platform/identity';
import type { Bus, SharedPglite } from '@platform/kit';

export interface Shared {
  pglite?: Promise<SharedPglite>;
  bus: Bus;
}

export interface Started {
  name: string;
  url: string;
  close(): Promise<void>;
}

interface ServiceEntry {
  /** Services this one cannot work without; the launcher starts them too. */
  needs: string[];
  start(env: NodeJS.ProcessEnv, shared: Shared): Promise<Started>;
}

/** Every service the launcher can start, in start order. Later services add a line here. */
export const SERVICES: Record<string, ServiceEntry> = {
  identity: {
    needs: [],
    start: async (env, shared) => {
      const s = await startIdentity(identityConfig(env), shared, env);
      return { name: 'identity', url: s.url, close: s.close };
    },
  },
  accounting: {
    // Tokens are verified against identity's keys and grants are read from it.
    needs: ['identity'],
    start: async (env, shared) => {
      const s = await startAccounting(accountingConfig(env), shared);
      return { name: 'accounting', url: s.url, close: s.close };
    },
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
