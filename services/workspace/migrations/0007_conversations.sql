-- Conversations (spec 2, "Conversation, turn, output" and "Conversations"): threads started by
-- anyone signed in, unfiled (project_id NULL) until filed onto a project; append-only turns;
-- agent sessions; documents attached; where an unfiled one might belong; redaction requests.

CREATE TABLE conversations (
  id uuid PRIMARY KEY,
  -- NULL while unfiled; set by filing on create, by a move, or by accepting a suggestion.
  project_id uuid REFERENCES projects (id),
  title text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  contributes_to_knowledge boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  -- The seq of the last turn (every kind); the next turn takes last_seq + 1.
  last_seq integer NOT NULL DEFAULT 0,
  -- Utterance turns only (turn_count and utterance_count read this).
  utterance_count integer NOT NULL DEFAULT 0,
  last_turn_at timestamptz,
  -- created_at, then the time of the latest turn: lists show the most recently active first.
  last_activity_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX conversations_project ON conversations (project_id, last_activity_at DESC, id DESC);
CREATE INDEX conversations_creator ON conversations (created_by, last_activity_at DESC, id DESC);
CREATE INDEX conversations_created ON conversations (created_at);

-- Turns are append-only: only a redaction changes one, and only by destroying its text.
CREATE TABLE conversation_turns (
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  seq integer NOT NULL CHECK (seq >= 1),
  turn_kind text NOT NULL CHECK (turn_kind IN ('utterance', 'lookup', 'output', 'system')),
  -- Who the turn is by, as the writer names it (a principal id, an email, agent:<model>).
  author text NOT NULL,
  -- NULL once a redaction destroyed it.
  text text,
  extra jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The principal whose command wrote the turn.
  written_by text NOT NULL,
  redacted_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
CREATE INDEX conversation_turns_created ON conversation_turns (created_at);

CREATE FUNCTION conversation_turns_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.text IS NULL AND NEW.redacted_at IS NOT NULL
     AND NEW.conversation_id = OLD.conversation_id AND NEW.seq = OLD.seq
     AND NEW.turn_kind = OLD.turn_kind AND NEW.author = OLD.author
     AND NEW.extra = OLD.extra AND NEW.written_by = OLD.written_by
     AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'conversation turns are append-only (a redaction destroys only the text)'
    USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE TRIGGER conversation_turns_append_only BEFORE UPDATE OR DELETE ON conversation_turns
  FOR EACH ROW EXECUTE FUNCTION conversation_turns_append_only();

-- Agent sessions on a conversation: started, kept alive by heartbeats, ended.
CREATE TABLE agent_sessions (
  id uuid PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  agent text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'ended')),
  started_by text NOT NULL,
  started_at timestamptz NOT NULL,
  last_heartbeat_at timestamptz NOT NULL,
  heartbeats integer NOT NULL DEFAULT 0,
  ended_at timestamptz,
  ended_by text
);
CREATE INDEX agent_sessions_conversation ON agent_sessions (conversation_id, started_at DESC);

-- Documents attached to a conversation, including those saved while it was unfiled; project_id
-- follows the conversation (NULL while unfiled). Output turns write here; saved outputs will too.
CREATE TABLE conversation_files (
  id uuid PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  project_id uuid REFERENCES projects (id),
  document_id uuid NOT NULL,
  filename text NOT NULL DEFAULT '',
  content_type text,
  size_bytes bigint,
  -- The output turn that attached it, when one did.
  turn_seq integer,
  saved_by text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (conversation_id, document_id)
);
CREATE INDEX conversation_files_list ON conversation_files (conversation_id, created_at, id);

-- How a person settled a suggested project for a conversation (accept files it there).
CREATE TABLE conversation_suggestion_resolutions (
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  project_id uuid NOT NULL REFERENCES projects (id),
  decision text NOT NULL CHECK (decision IN ('accept', 'dismiss')),
  resolved_by text NOT NULL,
  resolved_at timestamptz NOT NULL,
  PRIMARY KEY (conversation_id, project_id)
);

-- Requests to destroy a turn's text; approval (with the redaction approval key) destroys it.
CREATE TABLE redaction_requests (
  id uuid PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id),
  seq integer NOT NULL,
  reason text NOT NULL DEFAULT '',
  status text NOT NULL CHECK (status IN ('pending', 'approved')),
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  approved_by text,
  approved_at timestamptz,
  FOREIGN KEY (conversation_id, seq) REFERENCES conversation_turns (conversation_id, seq)
);
CREATE UNIQUE INDEX redaction_requests_one_pending ON redaction_requests (conversation_id, seq)
  WHERE status = 'pending';
CREATE INDEX redaction_requests_conversation ON redaction_requests (conversation_id, requested_at DESC);
