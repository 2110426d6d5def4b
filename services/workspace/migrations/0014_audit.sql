-- Issue 19: the audit log, and decisions as the workspace's facts.

-- Audit (spec 2, Bus topology): the `audit` subscriber of every domain writes one human-readable
-- row per event it reads. event_id is unique, so a redelivered event writes no second row. The
-- bigserial id orders the rows for GET /v1/audit's cursor. Rows hold what the event carried (ids
-- and short values), never personal data: audit reads only the core topics.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  -- The topic's domain (project, conversation, evidence, fact, file, notification) or, for a
  -- message of the intelligence service's knowledge queue, knowledge.
  domain text NOT NULL,
  event_type text NOT NULL,
  -- The publishing service (workspace, or intelligence for the knowledge queue).
  source text NOT NULL,
  actor text,
  project_id uuid,
  -- One line a person reads: what happened, to what, by whom.
  summary text NOT NULL,
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL
);
CREATE INDEX audit_log_domain ON audit_log (domain, id);
CREATE INDEX audit_log_occurred ON audit_log (occurred_at, id);

-- Facts (fact.* events): an approved decision is a fact of its project. It is recorded when
-- approved, updated when its text is edited, superseded when a decision proposed to replace it is
-- approved, and archived by an owner.
ALTER TABLE decisions DROP CONSTRAINT IF EXISTS decisions_status_check;
ALTER TABLE decisions ADD CONSTRAINT decisions_status_check
  CHECK (status IN ('proposed', 'approved', 'superseded', 'archived'));
ALTER TABLE decisions DROP CONSTRAINT IF EXISTS decisions_check;
-- Approved and superseded decisions were approved; a proposed one was not; an archived one may
-- have been either (an owner archives a proposal to withdraw it).
ALTER TABLE decisions ADD CONSTRAINT decisions_check
  CHECK ((status NOT IN ('approved', 'superseded') OR (approved_at IS NOT NULL AND approved_by IS NOT NULL))
    AND (status <> 'proposed' OR (approved_at IS NULL AND approved_by IS NULL)));
-- The approved decision this one replaces once approved.
ALTER TABLE decisions ADD COLUMN supersedes uuid REFERENCES decisions (id);
ALTER TABLE decisions ADD COLUMN superseded_by uuid REFERENCES decisions (id);
ALTER TABLE decisions ADD COLUMN archived_at timestamptz;
ALTER TABLE decisions ADD COLUMN updated_at timestamptz;
