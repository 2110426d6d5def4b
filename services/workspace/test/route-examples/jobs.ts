import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';

/** Route-check examples of the jobs routes (issue 19). */
export const JOBS_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({});
