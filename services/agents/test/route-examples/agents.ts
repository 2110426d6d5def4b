import type { RouteExample } from '@platform/kit/testing';
import { type Harness, tag } from '../harness.ts';

/** One valid request per command route of agents (create, save, delete). */
export const AGENTS_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({
  'POST /v1/agents': {
    body: () => ({ data: { name: `Route check ${tag()}` } }),
  },
});
