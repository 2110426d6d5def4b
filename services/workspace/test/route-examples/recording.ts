import type { RouteExample } from '@platform/kit/testing';
import type { Harness } from '../harness.ts';

/**
 * Route-check examples of the recording routes (issue 19). POST /v1/meetings/{id}/audio-slices is
 * the recording flow's one route and is not a command (the slice index is its key, no
 * Idempotency-Key; docs/decisions.md), so the kit's command checks do not cover it and it needs no
 * example here: test/audio-slices.test.ts proves its refusals (401 aside: the kit's guard) and
 * that nothing is stored on them.
 */
export const RECORDING_EXAMPLES = (_h: Harness): Record<string, RouteExample> => ({});
