import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';

/** Route-check examples of the recording routes (issue 19). */
export const RECORDING_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({});
