import type { RouteExample } from '@platform/kit/testing';
import { ROUTE_CHECK_DOCUMENTS } from '../fakes/documents.ts';
import { type Harness, OWNER, tag } from '../harness.ts';

/** Route-check examples of the recorder-files routes (issue 19); the suite's caller (OWNER) runs them. */
export const RECORDER_FILES_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  /** A fresh upload of OWNER's, with bytes at its blob when `withBytes`. */
  const upload = async (withBytes: boolean) => {
    const r = await h.call('POST', '/v1/files/upload-url', OWNER, { data: { filename: `take-${tag()}.m4a` } });
    h.expectStatus('upload-url', r, 201);
    if (withBytes) ROUTE_CHECK_DOCUMENTS.put(r.data.blob_name, 'recorded bytes');
    return { data: { upload_id: r.data.id as string } };
  };
  return {
    'POST /v1/recorder/user-token': {
      denied: null,
      body: {},
      shownOnce: ['token'],
    },
    'POST /v1/recorder/devices': {
      denied: null,
      body: () => ({ data: { serial: `PLD-${tag()}` } }),
    },
    'POST /v1/files/upload-url': {
      denied: null,
      body: () => ({ data: { filename: `take-${tag()}.m4a`, purpose: 'live_recording' } }),
    },
    'POST /v1/files/upload-url/renew': {
      denied: null,
      body: () => upload(false),
    },
    'POST /v1/files': {
      denied: null,
      body: () => upload(true),
    },
  };
};
