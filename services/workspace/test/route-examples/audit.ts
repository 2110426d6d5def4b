import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';

/** Route-check examples of the audit routes (issue 19). */
export const AUDIT_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({});
