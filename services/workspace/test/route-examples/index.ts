import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';
import { AUDIT_EXAMPLES } from './audit.ts';
import { EVIDENCE_EXAMPLES } from './evidence.ts';
import { JOBS_EXAMPLES } from './jobs.ts';
import { RECORDER_FILES_EXAMPLES } from './recorder-files.ts';
import { RECORDING_EXAMPLES } from './recording.ts';

/** The route-check examples of the areas added after the collaboration issue, one file each in this folder. */
export const ROUTE_EXAMPLES = (h: Harness): Record<string, RouteExample> => ({
  ...EVIDENCE_EXAMPLES(h),
  ...RECORDING_EXAMPLES(h),
  ...RECORDER_FILES_EXAMPLES(h),
  ...AUDIT_EXAMPLES(h),
  ...JOBS_EXAMPLES(h),
});
