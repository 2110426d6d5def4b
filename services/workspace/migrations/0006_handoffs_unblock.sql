-- Handoffs and unblock requests (issue 16).
--
-- A handoff is a package a sender offers to one receiver (a project member). Its current content
-- lives on the row with its revision number; an acceptance stores a receipt against the revision
-- accepted, with the package as it was then, so a later edit (a new revision) never changes what
-- was accepted. `overdue` is computed at read time, never stored.
CREATE TABLE handoffs (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  sender text NOT NULL,
  receiver text NOT NULL,
  title text NOT NULL,
  next_step text NOT NULL,
  -- What must still be true for the next step to hold: a list of short statements.
  must_stay_true jsonb NOT NULL DEFAULT '[]',
  -- Evidence links: a list of URLs.
  evidence_links jsonb NOT NULL DEFAULT '[]',
  verify_by date,
  due_on date NOT NULL,
  -- A linked case (its id; the case area keeps the case). Acceptance never changes it.
  case_id uuid,
  status text NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'offered', 'changes_requested', 'accepted', 'cancelled')),
  revision integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
  offered_at timestamptz,
  accepted_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX handoffs_project ON handoffs (project_id, created_at DESC, id DESC);
CREATE INDEX handoffs_receiver ON handoffs (receiver, status, created_at DESC);

-- One receipt per accepted revision; the package is the handoff's content at acceptance.
CREATE TABLE handoff_receipts (
  handoff_id uuid NOT NULL REFERENCES handoffs (id),
  revision integer NOT NULL,
  project_id uuid NOT NULL REFERENCES projects (id),
  accepted_by text NOT NULL,
  accepted_at timestamptz NOT NULL,
  package jsonb NOT NULL,
  PRIMARY KEY (handoff_id, revision)
);

-- An unblock request: one question from an asker to one recipient (a project member).
CREATE TABLE unblock_requests (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  asker text NOT NULL,
  recipient text NOT NULL,
  needed text NOT NULL,
  why_now text NOT NULL,
  -- The record waiting on the answer: its type (task, goal, handoff) and id on the same project.
  waiting_type text NOT NULL CHECK (waiting_type IN ('task', 'goal', 'handoff')),
  waiting_id uuid NOT NULL,
  answer_kind text NOT NULL CHECK (answer_kind IN ('choice', 'value', 'document', 'decision', 'explanation')),
  -- The options of a choice (empty for the other kinds).
  options jsonb NOT NULL DEFAULT '[]',
  due_on date,
  snoozed_until timestamptz,
  ranking_reason text NOT NULL,
  -- Who raised it: a person, or a handoff's changes request. Agent-raised requests are refused.
  source text NOT NULL CHECK (source IN ('person', 'handoff')),
  status text NOT NULL DEFAULT 'open'
    CHECK (status IN ('open', 'answered', 'resolved', 'withdrawn', 'superseded')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE INDEX unblock_requests_project ON unblock_requests (project_id, created_at DESC, id DESC);
CREATE INDEX unblock_requests_recipient ON unblock_requests (recipient, status);
CREATE INDEX unblock_requests_asker ON unblock_requests (asker, status);
CREATE INDEX unblock_requests_waiting ON unblock_requests (waiting_type, waiting_id);

-- Every answer given, oldest first; a send-back marks the answer and keeps it.
CREATE TABLE unblock_answers (
  id uuid PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES unblock_requests (id),
  answer text NOT NULL,
  answered_by text NOT NULL,
  answered_at timestamptz NOT NULL,
  sent_back_at timestamptz,
  sent_back_reason text
);
CREATE INDEX unblock_answers_request ON unblock_answers (request_id, answered_at, id);
