import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';

/** Route-check examples of the recorder-files routes (issue 19). */
export const RECORDER_FILES_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({});
