-- What a project's plan is measured by (packages with dated reported percentages, milestones,
-- weekly updates) and the figures kept on the project row in the same transaction as each fact,
-- so the portfolio, its filters and the weekly report read one row per project whatever the
-- number of tasks, cost events and updates (docs/decisions.md, "Health, progress and freshness").

CREATE TABLE packages (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  name text NOT NULL,
  measure text NOT NULL CHECK (measure IN ('report', 'tasks')),
  -- The share of the project's progress this package carries (relative weight).
  weight integer NOT NULL DEFAULT 1 CHECK (weight BETWEEN 1 AND 1000),
  -- Kept: the latest reported percentage (by report) or the mean of its tasks' (by tasks).
  progress numeric(5, 2) NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX packages_project ON packages (project_id, created_at, id);

CREATE TABLE package_reports (
  id uuid PRIMARY KEY,
  package_id uuid NOT NULL REFERENCES packages (id),
  reported_on date NOT NULL,
  percent numeric(5, 2) NOT NULL CHECK (percent BETWEEN 0 AND 100),
  note text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX package_reports_package ON package_reports (package_id, reported_on DESC, created_at DESC);

CREATE TABLE milestones (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  name text NOT NULL,
  -- A milestone may be driven by another project (its date follows that project's work).
  driving_project_id uuid REFERENCES development_projects (id),
  planned_date date,
  forecast_date date,
  actual_date date,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX milestones_project ON milestones (project_id, forecast_date);

CREATE TABLE weekly_updates (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  -- The Monday of the week the update is for.
  week_of date NOT NULL,
  summary text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX weekly_updates_project ON weekly_updates (project_id, created_at DESC, id DESC);

-- Figures kept on the project row by the commands that change their sources.
ALTER TABLE development_projects
  -- Weighted mean of the packages' progress, 0 without packages.
  ADD COLUMN progress numeric(5, 2) NOT NULL DEFAULT 0,
  -- The earliest forecast (else planned) date of a milestone with no actual date.
  ADD COLUMN next_milestone_due date,
  -- The date of the latest weekly update (its creation day).
  ADD COLUMN last_update_on date,
  -- Budget totals over the project's lines: kept by the budget area's triggers.
  ADD COLUMN budget_minor bigint NOT NULL DEFAULT 0,
  ADD COLUMN committed_minor bigint NOT NULL DEFAULT 0,
  ADD COLUMN actual_minor bigint NOT NULL DEFAULT 0;
CREATE INDEX development_projects_portfolio ON development_projects (status, stage, kind);
