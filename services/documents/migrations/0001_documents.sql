-- Documents: records of files in blob storage, their references to owning records and their
-- metadata pairs. The bytes live in storage; this service never reads them.

CREATE TABLE documents (
  id uuid PRIMARY KEY,
  filename text NOT NULL,
  visibility text NOT NULL CHECK (visibility IN ('private', 'public')),
  storage_account text NOT NULL,
  container text NOT NULL,
  blob_name text NOT NULL,
  content_type text NOT NULL,
  -- As claimed by the uploader, never verified.
  content_hash text CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  -- As observed in storage at registration.
  byte_size bigint NOT NULL CHECK (byte_size >= 0),
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
-- One blob belongs to at most one document: the guard behind registration's 409. A blob_name
-- carries the uuid the service minted for one upload, so it names one blob wherever it is sent:
-- the same name in another container or account is refused too.
CREATE UNIQUE INDEX documents_one_per_blob ON documents (blob_name);
-- Lists are newest first.
CREATE INDEX documents_newest ON documents (created_at DESC, id DESC);

CREATE TABLE document_references (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  -- Order as submitted.
  position integer NOT NULL,
  ref_type text NOT NULL,
  ref_id text NOT NULL,
  ref_category text NOT NULL,
  is_external boolean NOT NULL,
  PRIMARY KEY (document_id, position),
  -- Duplicate references (same type, id and category) are refused.
  UNIQUE (document_id, ref_type, ref_id, ref_category)
);
-- Lookups by owning record: ref_id (alone or with ref_type) is an index lookup.
CREATE INDEX document_references_by_ref ON document_references (ref_id, ref_type, document_id);

CREATE TABLE document_metadata (
  document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  position integer NOT NULL,
  meta_name text NOT NULL,
  meta_value text NOT NULL,
  PRIMARY KEY (document_id, position),
  -- A name appears once per document.
  UNIQUE (document_id, meta_name)
);
