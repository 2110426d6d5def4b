-- Daily briefs (spec 3, Briefs and coaching; AGT-261..AGT-282). One row per revision of a person's
-- brief for a New York calendar day. Keyed by the recipient's email (lower case): BRIEF_RECIPIENTS
-- and POST /v1/briefs name people by email.
--   published: the brief people read; at most one per recipient and day.
--   draft: what the morning job stored for someone whose sources or model call failed (failure says
--     which); read only by holders of ReadAnyBrief with drafts=true; at most one live per day.
--   superseded: an older revision, replaced by superseded_by (a regenerate, a paste, a retried draft).
-- origin: job (the morning job) or pasted (POST /v1/briefs). Rows are never deleted.
CREATE TABLE briefs (
  id uuid PRIMARY KEY,
  recipient text NOT NULL CHECK (recipient = lower(recipient) AND char_length(recipient) BETWEEN 3 AND 320),
  brief_date date NOT NULL,
  revision integer NOT NULL CHECK (revision >= 1),
  text text NOT NULL,
  status text NOT NULL CHECK (status IN ('published', 'draft', 'superseded')),
  origin text NOT NULL CHECK (origin IN ('job', 'pasted')),
  -- Who wrote it: the scheduler's principal for the job, the admin's id for a paste.
  written_by text NOT NULL,
  -- The broker model of the job's call (null for a paste, or when no call was made).
  model text,
  -- A draft's reason (workspace_unavailable, broker_unavailable, model_reply_invalid, ...).
  failure text,
  created_at timestamptz NOT NULL,
  -- Checked at commit: the superseding revision is inserted after the old one leaves the
  -- one-published-a-day index, in the same transaction.
  superseded_by uuid REFERENCES briefs (id) DEFERRABLE INITIALLY DEFERRED,
  superseded_at timestamptz,
  UNIQUE (recipient, brief_date, revision),
  CHECK ((status = 'superseded') = (superseded_by IS NOT NULL AND superseded_at IS NOT NULL)),
  CHECK (origin = 'job' OR failure IS NULL)
);
CREATE UNIQUE INDEX briefs_published ON briefs (recipient, brief_date) WHERE status = 'published';
CREATE UNIQUE INDEX briefs_draft ON briefs (recipient, brief_date) WHERE status = 'draft';
CREATE INDEX briefs_day ON briefs (brief_date, recipient) WHERE status <> 'superseded';

-- Feedback on one brief revision: one of six kinds, as many as people give.
CREATE TABLE brief_feedback (
  id uuid PRIMARY KEY,
  brief_id uuid NOT NULL REFERENCES briefs (id),
  kind text NOT NULL
    CHECK (kind IN ('wrong_scope', 'immaterial', 'already_resolved', 'missing', 'ungrounded', 'useful')),
  note text CHECK (note IS NULL OR char_length(note) BETWEEN 1 AND 2000),
  given_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX brief_feedback_brief ON brief_feedback (brief_id, created_at);
