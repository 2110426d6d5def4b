-- The recorder partner and files through the documents service (spec 2, "Notes, meetings,
-- recordings, evidence": /v1/recorder/* and /v1/files*).

-- Recorder sign-in days: one row per person per UTC day on which a recorder user token was minted
-- (the primary key makes a second mint the same day add nothing). first_at is the first mint of
-- that day, the instant the adoption window (half-open since/until) is compared with.
CREATE TABLE recorder_sign_ins (
  person_id text NOT NULL,
  day date NOT NULL,
  first_at timestamptz NOT NULL,
  PRIMARY KEY (person_id, day)
);
CREATE INDEX recorder_sign_ins_first_at ON recorder_sign_ins (first_at);

-- Recorder devices: a serial belongs to one person (the partner binds it to their partner user).
CREATE TABLE recorder_devices (
  serial text PRIMARY KEY CHECK (serial ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
  person_id text NOT NULL,
  registered_at timestamptz NOT NULL
);
CREATE INDEX recorder_devices_person ON recorder_devices (person_id, registered_at);

-- File uploads: who asked for a write URL, for which blob and purpose, until when the current URL
-- is valid, and the document registered from it (NULL until POST /v1/files). A renewal signs the
-- same blob again and moves expires_at; once a document is recorded no URL is given again.
CREATE TABLE file_uploads (
  id uuid PRIMARY KEY,
  requested_by text NOT NULL,
  -- NULL: a personal upload (a recording before its meeting is opened); set: the project's file,
  -- written by its editors.
  project_id uuid REFERENCES projects (id),
  purpose text NOT NULL CHECK (purpose IN ('file', 'recording', 'live_recording')),
  filename text NOT NULL,
  content_type text NOT NULL,
  storage_account text NOT NULL,
  container text NOT NULL,
  blob_name text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  renewals integer NOT NULL DEFAULT 0 CHECK (renewals >= 0),
  document_id text,
  registered_at timestamptz,
  created_at timestamptz NOT NULL,
  CHECK ((document_id IS NULL) = (registered_at IS NULL))
);
CREATE INDEX file_uploads_requested_by ON file_uploads (requested_by, created_at DESC);
