-- A project's recent activity and its award (spec 3, "Development projects").
--
-- activity: one row per emitted event that names a project (src/commands/activity.ts, the kit's
-- onEmit hook), written in the command's transaction: no command writes it itself, and no event is
-- published without its row. Rows carry ids and short values, never emails or names of people.
CREATE TABLE activity (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  -- The event's type, e.g. development_project.stage_advanced.
  type text NOT NULL,
  actor_fid text NOT NULL,
  -- The event's payload (ids and short values).
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
-- Newest first: ids are uuidv7, minted in creation order within one instant.
CREATE INDEX activity_project ON activity (project_id, created_at DESC, id DESC);

-- The award taken when a project leaves the award stage (CON-044): one per project. Its baseline
-- (kind award, seq 1) is written in the same transaction.
CREATE TABLE project_awards (
  project_id uuid PRIMARY KEY REFERENCES development_projects (id),
  contract_sum_minor bigint NOT NULL CHECK (contract_sum_minor >= 0),
  completion_date date NOT NULL,
  vendor_id uuid,
  awarded_on date NOT NULL,
  baseline_id uuid NOT NULL REFERENCES baselines (id),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
