-- Connectors (spec 2, "Other background workers"; rules WS-522..WS-534; issue 19): the two
-- code-host workers (GitHub pull requests, GitHub issues), the mailbox importer (Gmail) and the
-- file-drive importer (Google Drive). What they import is evidence whose CONTENT lives in the
-- documents service (written through it, WS-534); the workspace keeps only the reference below.

-- One row per imported item (a pull request, an issue, a message, a file), unique per source and
-- the outside system's id: a pass that runs again, or resumes after a crash, finds the row and
-- stores nothing twice. version is what changes when the item does (a pull request's or issue's
-- updated_at, a file's Drive version; a message never changes); a new version points the row at
-- a new document. contributes_to_knowledge: whether the knowledge layer may read it.
CREATE TABLE imported_evidence (
  id uuid PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('github_pull', 'github_issue', 'gmail', 'drive')),
  external_id text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 500),
  version text NOT NULL,
  -- The documents service's id of the stored content.
  document_id text NOT NULL,
  title text NOT NULL,
  -- Where it came from: a repository (owner/name), a mailbox, a drive.
  origin text NOT NULL,
  url text,
  contributes_to_knowledge boolean NOT NULL,
  occurred_at timestamptz NOT NULL,
  imported_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (source, external_id)
);
CREATE INDEX imported_evidence_recent ON imported_evidence (source, imported_at DESC, id DESC);

-- Where each connector resumes: a Gmail history cursor, a Drive changes page token, a
-- repository's last updated_at per worker. Written after each page a pass finishes, so a pass
-- killed mid-run resumes at most one page back (and the rows above keep that page from being
-- stored twice).
CREATE TABLE connector_cursors (
  connector text PRIMARY KEY CHECK (char_length(connector) BETWEEN 1 AND 300),
  cursor jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
