import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';

/**
 * Route-check examples of the jobs routes (issue 19): none. The internal job routes are not
 * commands (the scheduler sends no Idempotency-Key; each job is safe to repeat), and the kit's route
 * checks take command routes only. Their token checks (401 without the scheduler token, 403 for a
 * person, 404 without SCHEDULER_TOKEN) are test/jobs-scheduler.test.ts.
 */
export const JOBS_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({});
