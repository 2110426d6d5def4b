-- The live recording flow (spec 2, "Meeting recording"; issue 19): the audio slices a live
-- recording posts, one row per (meeting, index), and the recordings whose file waits to be
-- transcribed whole (the durable step the closing call leaves for the recording worker).

-- A slice is claimed (the row inserted) before it is transcribed, so a resent index, even one sent
-- concurrently, finds the row and is answered from it: one transcription per index. The audio is
-- not kept: the file uploaded at the end holds it all.
CREATE TABLE evidence_audio_slices (
  evidence_id uuid NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
  slice_index integer NOT NULL CHECK (slice_index >= 0),
  start_ms integer NOT NULL CHECK (start_ms >= 0),
  byte_size integer NOT NULL CHECK (byte_size >= 0),
  -- claimed: being transcribed (claimed_at says since when; a stale claim is taken over);
  -- read: transcribed, its lines appended and its answer stored.
  status text NOT NULL CHECK (status IN ('claimed', 'read')),
  -- The answer as first given, replayed for a resent index.
  answer jsonb,
  claimed_at timestamptz NOT NULL,
  read_at timestamptz,
  PRIMARY KEY (evidence_id, slice_index)
);

-- A recording whose file is to be transcribed whole (a live slice missing, or no live audio): the
-- closing call writes the row in its transaction, so a crash loses nothing; the worker claims a
-- due row for a lease, and deletes it once the lines are written (or the attempts are spent).
CREATE TABLE recording_transcriptions (
  evidence_id uuid PRIMARY KEY REFERENCES evidence (id) ON DELETE CASCADE,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- NULL or past: due. Set to now + lease when a worker claims it.
  claimed_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX recording_transcriptions_due ON recording_transcriptions (claimed_until NULLS FIRST, created_at);
