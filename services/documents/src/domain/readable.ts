import { unprocessable } from '@platform/kit';

/**
 * How "readable files" map onto document records (the spec leaves it open):
 * - a project file has a reference with ref_type `project`; its ref_id is the project id;
 * - an unfiled file has no references at all; its owner is the metadata pair `owner`;
 * - the uploader is the metadata pair `uploaded_by`.
 * A file with references but none to a project (an invoice's evidence, say) is filed elsewhere
 * and is neither.
 */
export const PROJECT_REF_TYPE = 'project';
export const OWNER_META = 'owner';
export const UPLOADER_META = 'uploaded_by';
export const MAX_PROJECT_IDS = 100;

/** Which files: every project and unfiled file, or those of some projects plus one owner's unfiled files. */
export type ReadableSelection = { all: true } | { all: false; projectIds: string[]; owner?: string };

export function readableSelection(q: {
  all?: 'true' | 'false';
  project_ids?: string;
  owner?: string;
}): ReadableSelection {
  if (q.all === 'true') return { all: true };
  const projectIds = [
    ...new Set(
      (q.project_ids ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (projectIds.length > MAX_PROJECT_IDS) {
    throw unprocessable(
      'too_many_project_ids',
      `project_ids names at most ${MAX_PROJECT_IDS} projects`,
      'querystring/project_ids',
    );
  }
  return { all: false, projectIds, owner: q.owner };
}
