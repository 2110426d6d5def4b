import { defineErrors } from '@platform/kit';

/**
 * Every error code documents answers beyond the kit's own (issue 15.1): its status, what it means.
 * Routes declare which of them they answer; the OpenAPI lists them per status.
 */
export const ERRORS = defineErrors({
  document_not_found: { status: 404, meaning: 'No such document' },
  unsafe_filename: { status: 422, meaning: 'The filename has a path, control characters or is too long' },
  filename_extension_required: { status: 422, meaning: 'The filename needs an extension' },
  unknown_storage_account: { status: 422, meaning: 'No storage account of that name is configured' },
  visibility_mismatch: { status: 422, meaning: "The visibility is not the storage account's" },
  container_required: { status: 422, meaning: 'This storage account needs a container' },
  unknown_container: { status: 422, meaning: 'The storage account has no such container' },
  blob_not_service_minted: { status: 422, meaning: 'The blob name is not one this service minted' },
  blob_not_found: { status: 422, meaning: 'No blob of that name in that container' },
  duplicate_reference: { status: 422, meaning: 'The same ref_type, ref_id and ref_category are given twice' },
  duplicate_metadata: { status: 422, meaning: 'The same meta_name is given twice' },
  too_many_project_ids: { status: 422, meaning: 'project_ids names more than 100 projects' },
  upload_too_large: { status: 413, meaning: 'The blob is over DOCUMENTS_MAX_UPLOAD_BYTES' },
  blob_already_registered: { status: 409, meaning: 'A document already records this blob_name' },
  storage_not_configured: { status: 503, meaning: 'No storage is configured for documents' },
  storage_unavailable: { status: 503, meaning: 'The storage account is not configured or does not answer' },
});
export type ErrorCode = keyof typeof ERRORS;
