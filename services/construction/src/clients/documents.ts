/**
 * The documents service as construction's attachments need it (spec 3: attachments go through
 * documents, CONSTRUCTION_DOCUMENTS_URL): a short-lived upload link, registering the uploaded
 * blob, and a fresh download link. A failure or hang is 502 documents_unavailable.
 */
export interface UploadLink {
  blob_name: string;
  upload_url: string;
  expires_at: string;
}

export interface RegisteredFile {
  /** The documents service's id of the file. */
  document_id: string;
}

export interface Documents {
  uploadLink(filename: string): Promise<UploadLink>;
  register(input: { blob_name: string; filename: string }): Promise<RegisteredFile>;
  downloadLink(documentId: string): Promise<{ url: string; expires_at: string }>;
}
