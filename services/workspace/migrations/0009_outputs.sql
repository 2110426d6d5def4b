-- Saved outputs (spec 2, "Conversation, turn, output"; issue 16): versioned artifacts on a
-- project, saved from a conversation or on the project itself; uploads on the two-step path; and
-- what people tell the two assistants panels (objections feedback, related-panel actions).

-- One row per version of a slug on a project. The same slug with the same sha256 writes nothing;
-- another sha256 marks the active row superseded and writes version N + 1 (the save holds an
-- advisory lock on the project and slug, so versions follow commit order and never repeat).
CREATE TABLE saved_outputs (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  -- The conversation it was saved from; NULL when saved on the project itself.
  conversation_id uuid REFERENCES conversations (id),
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9._-]{0,119}$'),
  version integer NOT NULL CHECK (version >= 1),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  status text NOT NULL CHECK (status IN ('active', 'superseded')),
  title text NOT NULL DEFAULT '',
  content_type text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  -- Inline outputs keep their text here (at most 256 KiB of UTF-8); uploaded ones name their document.
  body text,
  document_id uuid,
  filename text,
  saved_by text NOT NULL,
  created_at timestamptz NOT NULL,
  superseded_at timestamptz,
  CHECK ((body IS NULL) <> (document_id IS NULL)),
  CHECK ((status = 'superseded') = (superseded_at IS NOT NULL)),
  UNIQUE (project_id, slug, version)
);
CREATE UNIQUE INDEX saved_outputs_one_active ON saved_outputs (project_id, slug) WHERE status = 'active';
CREATE INDEX saved_outputs_project ON saved_outputs (project_id, created_at DESC, id DESC);
CREATE INDEX saved_outputs_conversation ON saved_outputs (conversation_id, created_at DESC, id DESC);

-- The two-step path: an upload names the blob the documents service signed for it; finalize
-- registers the document, checks the bytes' sha256 and scan, and saves the output.
CREATE TABLE output_uploads (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9._-]{0,119}$'),
  title text NOT NULL DEFAULT '',
  filename text NOT NULL,
  content_type text NOT NULL,
  storage_account text NOT NULL,
  container text NOT NULL,
  blob_name text NOT NULL UNIQUE,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- Set by finalize (the output written, or the active one it matched).
  output_id uuid REFERENCES saved_outputs (id),
  finalized_at timestamptz
);
CREATE INDEX output_uploads_conversation ON output_uploads (conversation_id, created_at);

-- A person's rating of a claim the objections panel raised in a conversation (the latest counts).
CREATE TABLE objection_feedback (
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  claim_id text NOT NULL,
  rated_by text NOT NULL,
  rating text NOT NULL CHECK (rating IN ('useful', 'already_knew', 'wrong')),
  rated_at timestamptz NOT NULL,
  PRIMARY KEY (conversation_id, claim_id, rated_by)
);

-- What a person did with an item the related panel showed for one of their messages.
CREATE TABLE related_actions (
  id uuid PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  turn_seq integer NOT NULL,
  item_id text NOT NULL,
  action text NOT NULL CHECK (action IN ('opened', 'not_relevant', 'asked')),
  actor text NOT NULL,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (conversation_id, turn_seq) REFERENCES conversation_turns (conversation_id, seq)
);
CREATE INDEX related_actions_conversation ON related_actions (conversation_id, created_at);
