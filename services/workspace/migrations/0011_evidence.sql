-- Evidence (spec 2, "Evidence, meeting, utterance", "Meeting recording" and "Notes, meetings,
-- recordings, evidence"): one row per record of any kind (a note, a meeting, a thread, a recorder or
-- phone recording, and what importers write), its append-only utterance lines, the participants of
-- a meeting and the names given to its unlabeled speakers.

CREATE TABLE evidence (
  id uuid PRIMARY KEY,
  -- note: text written by a person (its body is its transcript); meeting: a video meeting or a
  -- meeting written up by hand; thread: a chat or mail thread; recording: a recorder or phone
  -- recording; email, file, chat, code: records the importers and sync workers write.
  kind text NOT NULL CHECK (kind IN ('note', 'meeting', 'thread', 'recording', 'email', 'file', 'chat', 'code')),
  -- Where it came from: note (a note), manual (a meeting or thread opened by hand), zoom, teams,
  -- google_meet (video meetings), recorder (the hardware recorder), phone (the phone app), and the
  -- importers' own values (slack, gmail, drive, github, ...).
  source text NOT NULL CHECK (source ~ '^[a-z][a-z0-9_]{0,39}$'),
  -- recorder:<serial>:<session_id>, phone:<install_id>:<uuidv7>, or another source's own reference.
  -- Unique where set: a repeated external_ref returns the existing record (the index decides
  -- between concurrent repeats).
  external_ref text,
  -- The file in the documents service this record points at (repointed by a repeat with a new one).
  document_id text,
  -- The recorder's serial; NULL for phone recordings and every other source.
  device_serial text,
  -- The principal that wrote or opened it.
  author text NOT NULL,
  title text NOT NULL DEFAULT '',
  -- A note's text (its transcript); NULL for the other kinds.
  body text,
  -- NULL while unfiled: notes and meetings need no project.
  project_id uuid REFERENCES projects (id),
  -- Opened with live: true (audio slices may follow until end-live or the closing call).
  live boolean NOT NULL DEFAULT false,
  -- How many audio slices the client sent, from the closing call; NULL until then.
  live_slices integer CHECK (live_slices >= 0),
  -- none: nothing to transcribe (a note, a meeting written up by hand); live: slices arriving;
  -- pending: a file waits for transcription; transcribing: the file is being transcribed;
  -- transcribed: the lines are the transcript; no_speech: ended with no lines; failed: the
  -- transcription of the file failed.
  transcription_status text NOT NULL DEFAULT 'none'
    CHECK (transcription_status IN ('none', 'live', 'pending', 'transcribing', 'transcribed', 'no_speech', 'failed')),
  -- The seq of the last utterance line (0: none yet); the next line takes last_seq + 1.
  last_seq integer NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
  -- The first line of the current transcript. Lines are never rewritten: a file transcribed whole
  -- after a live recording appends its lines and moves this past the live ones, which stay stored.
  transcript_first_seq integer NOT NULL DEFAULT 1 CHECK (transcript_first_seq >= 1),
  archived_at timestamptz,
  contributes_to_knowledge boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- When a live record ended (end-live or the closing call) and who ended it.
  ended_at timestamptz,
  ended_by text,
  CHECK (kind <> 'note' OR body IS NOT NULL),
  CHECK (source <> 'phone' OR device_serial IS NULL)
);
CREATE UNIQUE INDEX evidence_external_ref ON evidence (external_ref) WHERE external_ref IS NOT NULL;
CREATE INDEX evidence_author ON evidence (author, created_at DESC, id DESC);
CREATE INDEX evidence_project ON evidence (project_id, created_at DESC, id DESC) WHERE project_id IS NOT NULL;
CREATE INDEX evidence_created ON evidence (created_at);

-- Utterance lines: append-only. The primary key (evidence_id, seq) is the index every read walks:
-- a page is `seq > cursor ORDER BY seq LIMIT n`, so the last page of 100,000 lines reads as few
-- index entries as the last page of 1,000.
CREATE TABLE evidence_utterances (
  evidence_id uuid NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 1),
  -- As the writer labels it: a name, or an unlabeled speaker (e.g. "Speaker 1") that
  -- speakers/assign may name for this meeting.
  speaker text NOT NULL,
  text text NOT NULL,
  -- Milliseconds from the start of the recording, where known.
  start_ms integer CHECK (start_ms >= 0),
  -- live: from audio slices; file: from transcribing the uploaded file; posted: through the route.
  origin text NOT NULL DEFAULT 'posted' CHECK (origin IN ('posted', 'live', 'file')),
  written_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (evidence_id, seq)
);

-- No line is ever changed; a line goes only with its record (the cascade, once the record is gone).
CREATE FUNCTION evidence_utterances_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM evidence WHERE id = OLD.evidence_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'evidence utterances are append-only'
    USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE TRIGGER evidence_utterances_append_only BEFORE UPDATE OR DELETE ON evidence_utterances
  FOR EACH ROW EXECUTE FUNCTION evidence_utterances_append_only();

-- Who took part in a meeting, in the order they were added (late joiners after the others).
CREATE TABLE evidence_participants (
  evidence_id uuid NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 1),
  name text NOT NULL,
  added_by text NOT NULL,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (evidence_id, position),
  UNIQUE (evidence_id, name)
);

-- A name given to an unlabeled speaker of one meeting (speakers/assign): this meeting's lines read
-- the name; other meetings with the same label are unchanged.
CREATE TABLE evidence_speakers (
  evidence_id uuid NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
  label text NOT NULL,
  name text NOT NULL,
  -- The person the speaker is, when the caller named one (the events carry it for attribution).
  principal_id text,
  assigned_by text NOT NULL,
  assigned_at timestamptz NOT NULL,
  PRIMARY KEY (evidence_id, label)
);
