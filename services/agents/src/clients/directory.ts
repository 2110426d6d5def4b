import { AppError } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { dataOf, type HttpJsonOptions, jsonCaller } from './property-management.ts';

/**
 * The resident directory as fill_pms_emails_from_directory uses it: residents by name. The wire
 * format is ours (docs/decisions.md, "Property-management tools"): GET /v1/residents?name=…,
 * `Authorization: Bearer DIRECTORY_TOKEN`, answering `{data: [{resident_id, name, email}]}`.
 * The directory may match loosely; the tool keeps only residents whose name is the same
 * (domain/pm-tools.ts sameName). A failure or an answer of another shape is 502 directory_unavailable.
 */
export const DirectoryResident = Type.Object({
  resident_id: Type.String(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
});
export type DirectoryResident = Static<typeof DirectoryResident>;

export interface ResidentDirectory {
  residentsNamed(name: string): Promise<DirectoryResident[]>;
}

export const directoryUnavailable = (why: string) =>
  new AppError(502, 'directory_unavailable', `The resident directory failed: ${why}`);

export const directoryNotConfigured = () =>
  new AppError(503, 'directory_not_configured', 'No resident directory is configured (DIRECTORY_URL, DIRECTORY_TOKEN)');

/** The directory over HTTP (DIRECTORY_URL with DIRECTORY_TOKEN). */
export function httpResidentDirectory(o: HttpJsonOptions): ResidentDirectory {
  const call = jsonCaller(o, directoryUnavailable);
  return {
    async residentsNamed(name) {
      const answer = await call('GET', `/v1/residents?name=${encodeURIComponent(name)}`);
      return dataOf(answer, Type.Array(DirectoryResident), 'residents', directoryUnavailable);
    },
  };
}
