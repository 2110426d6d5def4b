-- Chat workers and meeting-bot jobs (issue 19; spec 2, "Other background workers").
--
-- The chat-sync worker's cursor: one row per allowlisted Slack channel it has read. A run reads a
-- channel's history newer than latest_ts (and inside the sync window); when its budget runs out in
-- the middle of a channel, the page cursor and the bounds of that read are kept here, so the next
-- run resumes where this one stopped instead of starting over.
CREATE TABLE evidence_slack_sync_cursor (
  channel_id text PRIMARY KEY,
  channel_name text NOT NULL,
  -- The newest message ts stored from this channel (Slack's "1700000000.000100"); NULL: none yet.
  latest_ts text,
  -- An unfinished read: Slack's next_cursor, the oldest ts it was asked from, and the newest ts it
  -- has seen (which becomes latest_ts once the read reaches its end). All NULL between reads.
  page_cursor text,
  page_oldest text,
  page_newest_ts text,
  -- When the worker joined the channel (public discovery mode); NULL when it was already a member.
  joined_at timestamptz,
  last_run_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The question-messaging worker's daily direct messages: one row per question (an open unblock
-- request) per UTC day. The row is claimed before the message is posted (the primary key refuses
-- a second one the same day, concurrent runs included) and carries the message's channel and ts
-- once Slack accepted it; a failed post removes its claim so a later run retries.
CREATE TABLE chat_question_messages (
  request_id uuid NOT NULL REFERENCES unblock_requests (id),
  day date NOT NULL,
  -- The person asked (the request's recipient) and their Slack user id.
  recipient text NOT NULL,
  slack_user text NOT NULL,
  -- The direct-message channel and the message's ts (its id); NULL while the post is in flight.
  channel text,
  ts text,
  posted_at timestamptz NOT NULL,
  PRIMARY KEY (request_id, day)
);
CREATE INDEX chat_question_messages_thread ON chat_question_messages (channel, ts);
CREATE INDEX chat_question_messages_channel ON chat_question_messages (channel, posted_at DESC);

-- Replies the worker has read from the direct-message channels, each applied once: the reply's
-- channel and ts, the question it answered (NULL: it answered nothing, e.g. no open question).
CREATE TABLE chat_question_replies (
  channel text NOT NULL,
  ts text NOT NULL,
  slack_user text NOT NULL,
  request_id uuid REFERENCES unblock_requests (id),
  -- thread: a reply in a question's thread; direct: a message outside any thread.
  via text NOT NULL CHECK (via IN ('thread', 'direct')),
  outcome text NOT NULL CHECK (outcome IN ('answered', 'not_open', 'no_question', 'refused')),
  read_at timestamptz NOT NULL,
  PRIMARY KEY (channel, ts)
);

-- How far the worker has read each direct-message channel (messages outside threads).
CREATE TABLE chat_question_channel_cursor (
  channel text PRIMARY KEY,
  latest_ts text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Meeting-bot occurrences: one Kubernetes Job per occurrence of a meeting series. The first
-- unfinished occurrence of a series runs; later ones are created suspended and the reconciler
-- unsuspends the next one once the earlier job finished.
CREATE TABLE meeting_bot_occurrences (
  id uuid PRIMARY KEY,
  -- The meeting series (e.g. a calendar event id) and this occurrence's own reference in it.
  series_id text NOT NULL,
  occurrence_ref text NOT NULL,
  starts_at timestamptz NOT NULL,
  meeting_url text NOT NULL,
  -- The Job's name in the configured namespace.
  job_name text NOT NULL UNIQUE,
  -- scheduled: no Job yet; created: the Job exists (suspended or running); succeeded, failed:
  -- the Job finished (read from its Complete or Failed condition).
  state text NOT NULL DEFAULT 'scheduled' CHECK (state IN ('scheduled', 'created', 'succeeded', 'failed')),
  suspended boolean,
  -- When the reconciler last unsuspended the Job, and when the Job finished.
  unsuspended_at timestamptz,
  finished_at timestamptz,
  failure_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (series_id, occurrence_ref)
);
CREATE INDEX meeting_bot_occurrences_open ON meeting_bot_occurrences (series_id, starts_at)
  WHERE state IN ('scheduled', 'created');
