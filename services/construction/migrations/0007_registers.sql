-- Construction registers (spec 3, Registers): decisions with their alternatives and participants,
-- and risks. Each record belongs to one project. Approvals and their reviewers are in 0001_core.

CREATE TABLE decisions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  question text NOT NULL,
  context text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'decided')),
  -- The outcome, set once (409 already_decided after): what was decided, the chosen alternative
  -- (one of this decision's, or none) and its cost in minor units.
  outcome text,
  alternative_id uuid,
  cost_minor bigint,
  decided_by text,
  decided_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((status = 'decided') = (outcome IS NOT NULL))
);
CREATE INDEX decisions_project ON decisions (project_id, created_at);

CREATE TABLE decision_alternatives (
  id uuid PRIMARY KEY,
  decision_id uuid NOT NULL REFERENCES decisions (id),
  seq smallint NOT NULL CHECK (seq >= 1),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  cost_minor bigint,
  UNIQUE (decision_id, seq),
  -- The chosen alternative is referenced with its decision: it can only be one of the decision's own.
  UNIQUE (decision_id, id)
);
ALTER TABLE decisions ADD FOREIGN KEY (id, alternative_id) REFERENCES decision_alternatives (decision_id, id);

CREATE TABLE decision_participants (
  decision_id uuid NOT NULL REFERENCES decisions (id),
  participant_fid text NOT NULL,
  PRIMARY KEY (decision_id, participant_fid)
);

CREATE TABLE risks (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  likelihood text CHECK (likelihood IN ('low', 'medium', 'high')),
  impact text CHECK (impact IN ('low', 'medium', 'high')),
  owner_fid text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'mitigated', 'closed', 'happened')),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX risks_project ON risks (project_id, created_at);

-- A variation's approval is its own review: when it settles, the variation moves with it.
CREATE INDEX variations_approval ON variations (approval_id) WHERE approval_id IS NOT NULL;
