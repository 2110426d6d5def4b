import { join } from 'node:path';
import { accountingConfig, startAccounting } from '@platform/accounting';
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

/** Every service the launcher can start, in start order. Later services add a line here. */
export const SERVICES: Record<string, (env: NodeJS.ProcessEnv, shared: Shared) => Promise<Started>> = {
  accounting: async (env, shared) => {
    const s = await startAccounting(accountingConfig(env), shared);
    return { name: 'accounting', url: s.url, close: s.close };
  },
};

export const pgliteDir = (dataDir: string) => join(dataDir, 'pglite');
