import { conflict, unprocessable } from '@platform/kit';
import { trimmedText } from './text.ts';

/**
 * A project's data sources (spec 2, "connected sources"; the shape is ours, docs/decisions.md,
 * workspace "Decisions and data sources"): a name, a kind and a reference (a URL or an outside id
 * the kind's connector understands). One kind and reference is connected once per project.
 */
export const DATA_SOURCE_KINDS = [
  'document',
  'folder',
  'repository',
  'channel',
  'mailbox',
  'spreadsheet',
  'database',
  'website',
] as const;
export type DataSourceKind = (typeof DATA_SOURCE_KINDS)[number];

export const DATA_SOURCE_NAME_MAX = 200;
export const DATA_SOURCE_REFERENCE_MAX = 2_000;
export const DATA_SOURCE_PAGE = { pageSize: 50, maxPageSize: 200 };

/** Trimmed; 1 to 200 characters, else 422 invalid_name. */
export const dataSourceName = (raw: string): string =>
  trimmedText(raw, {
    max: DATA_SOURCE_NAME_MAX,
    code: 'invalid_name',
    what: 'The data source name',
    field: 'data/name',
  });

/** Trimmed; 1 to 2,000 characters with no whitespace inside, else 422 invalid_reference. */
export function dataSourceReference(raw: string): string {
  const ref = raw.trim();
  if (ref.length < 1 || ref.length > DATA_SOURCE_REFERENCE_MAX || /\s/.test(ref)) {
    throw unprocessable(
      'invalid_reference',
      `The reference must be 1 to ${DATA_SOURCE_REFERENCE_MAX} characters without spaces (a URL or an outside id)`,
      'data/reference',
    );
  }
  return ref;
}

/** A kind and reference already connected to the project: 409 data_source_exists. */
export function requireNewSource(existing: boolean): void {
  if (existing) throw conflict('data_source_exists', 'This source (kind and reference) is already connected');
}
