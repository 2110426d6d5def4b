-- Workspace core (spec 2): projects, members, join requests, templates, tasks with versions and
-- a change log, goals with permanent check-ins, saved views, notifications and activity.

CREATE TABLE projects (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- Set once at creation. The default is for rows older than workflows, which are general.
  workflow text NOT NULL DEFAULT 'general' CHECK (workflow IN ('product_development', 'general')),
  checkin_weekday smallint NOT NULL DEFAULT 1 CHECK (checkin_weekday BETWEEN 1 AND 5),
  -- Legacy free text kept for older clients; moved into instructions where it fits (0002).
  goals text NOT NULL DEFAULT '',
  instructions text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  contributes_to_knowledge boolean NOT NULL DEFAULT true,
  legal_hold boolean NOT NULL DEFAULT false,
  template_id uuid,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Change following: the last change number taken, and the numbers of the last structure change
  -- (goals, check-ins, views, settings) and of the last renumbering of task positions.
  change_seq bigint NOT NULL DEFAULT 0,
  structure_seq bigint NOT NULL DEFAULT 0,
  renumber_seq bigint NOT NULL DEFAULT 0
);

CREATE TABLE project_members (
  project_id uuid NOT NULL REFERENCES projects (id),
  principal_id text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
  added_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, principal_id)
);
CREATE INDEX project_members_principal ON project_members (principal_id, project_id);

CREATE TABLE join_requests (
  project_id uuid NOT NULL REFERENCES projects (id),
  principal_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
  message text NOT NULL DEFAULT '',
  role text CHECK (role IN ('viewer', 'editor', 'owner')),
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, principal_id)
);

CREATE TABLE project_templates (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  workflow text NOT NULL CHECK (workflow IN ('product_development', 'general')),
  builtin boolean NOT NULL DEFAULT false,
  -- [{type, title, body}]: tasks a project created from the template starts with (origin template).
  starter_tasks jsonb NOT NULL DEFAULT '[]',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE goals (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  lead text NOT NULL,
  target_date date,
  status text NOT NULL CHECK (status IN ('on_track', 'at_risk', 'off_track', 'achieved', 'missed', 'dropped')),
  closing_note text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE INDEX goals_project ON goals (project_id, created_at);

CREATE TABLE goal_checkins (
  id uuid PRIMARY KEY,
  goal_id uuid NOT NULL REFERENCES goals (id),
  project_id uuid NOT NULL REFERENCES projects (id),
  status_before text NOT NULL,
  status text NOT NULL CHECK (status IN ('on_track', 'at_risk', 'off_track')),
  note text NOT NULL,
  author text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX goal_checkins_goal ON goal_checkins (goal_id, created_at DESC, id DESC);

-- Check-ins are permanent: the database itself refuses to change or delete one.
CREATE FUNCTION goal_checkins_are_permanent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'goal check-ins are permanent' USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE TRIGGER goal_checkins_permanent BEFORE UPDATE OR DELETE ON goal_checkins
  FOR EACH ROW EXECUTE FUNCTION goal_checkins_are_permanent();
CREATE TRIGGER goal_checkins_no_truncate BEFORE TRUNCATE ON goal_checkins
  FOR EACH STATEMENT EXECUTE FUNCTION goal_checkins_are_permanent();

CREATE TABLE tasks (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  type text NOT NULL,
  title text NOT NULL,
  body text NOT NULL DEFAULT '',
  status_id text NOT NULL,
  -- The status's category, kept with the row so filters and the due rule need no lookup.
  category text NOT NULL CHECK (category IN ('backlog', 'unstarted', 'started', 'review', 'completed', 'canceled')),
  status_changed_at timestamptz NOT NULL,
  rank bigint NOT NULL,
  version integer NOT NULL DEFAULT 1,
  assignee text,
  target_date date,
  goal_id uuid REFERENCES goals (id),
  origin text NOT NULL DEFAULT 'human' CHECK (origin IN ('human', 'agent', 'template')),
  fields jsonb NOT NULL DEFAULT '{}',
  links jsonb NOT NULL DEFAULT '[]',
  resolution text,
  resolved_at timestamptz,
  resolved_by text,
  archived boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- The change number of the task's latest change: the change feed is a range scan of it.
  change_seq bigint NOT NULL
);
CREATE INDEX tasks_project_rank ON tasks (project_id, rank, id);
CREATE INDEX tasks_project_change ON tasks (project_id, change_seq);
CREATE INDEX tasks_goal ON tasks (goal_id) WHERE goal_id IS NOT NULL;

-- Content versions: one row per version, the content as it was.
CREATE TABLE task_versions (
  task_id uuid NOT NULL REFERENCES tasks (id),
  version integer NOT NULL,
  type text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  fields jsonb NOT NULL,
  links jsonb NOT NULL,
  resolution text,
  author text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (task_id, version)
);

-- State changes (status, owner, target date, goal, archive...): one row per field changed.
CREATE TABLE task_changes (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  task_id uuid NOT NULL REFERENCES tasks (id),
  field text NOT NULL,
  old_value jsonb,
  new_value jsonb,
  actor text NOT NULL,
  change_seq bigint NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX task_changes_task ON task_changes (task_id, created_at DESC, id DESC);
CREATE INDEX task_changes_project ON task_changes (project_id, created_at DESC, id DESC);
CREATE INDEX task_changes_project_field ON task_changes (project_id, field, created_at DESC, id DESC);

CREATE TABLE saved_views (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  name text NOT NULL,
  -- Names are unique ignoring case.
  name_key text NOT NULL,
  layout text NOT NULL CHECK (layout IN ('list', 'board')),
  group_by text NOT NULL,
  sort text NOT NULL,
  sort_desc boolean NOT NULL DEFAULT false,
  filters jsonb NOT NULL DEFAULT '{}',
  position integer NOT NULL,
  seed_key text,
  created_by text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (project_id, name_key)
);
CREATE INDEX saved_views_project ON saved_views (project_id, position);

-- In-app notifications (item_assigned and, later, reminders).
CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  recipient text NOT NULL,
  kind text NOT NULL,
  project_id uuid REFERENCES projects (id),
  subject_id uuid,
  actor text,
  created_at timestamptz NOT NULL,
  read_at timestamptz
);
CREATE INDEX notifications_recipient ON notifications (recipient, created_at DESC);

-- The project activity feed (goal.checked_in rows and, later, everything the digest counts).
CREATE TABLE activity (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  kind text NOT NULL,
  subject_id uuid,
  actor text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX activity_project ON activity (project_id, created_at DESC, id DESC);

-- The two built-in templates, one per workflow.
INSERT INTO project_templates (id, name, description, workflow, builtin, starter_tasks, created_by, created_at) VALUES
  ('7b1c2f3e-0000-4000-8000-000000000001', 'Product development',
   'Triage, backlog and review for building a product: tasks, bugs, features, chores, questions and notes',
   'product_development', true,
   '[{"type": "task", "title": "Write the project brief"}, {"type": "question", "title": "Who are the first users?"}]',
   'system', '2025-01-01T00:00:00Z'),
  ('7b1c2f3e-0000-4000-8000-000000000002', 'General',
   'A simple to-do flow for any work: tasks, questions and notes',
   'general', true,
   '[{"type": "task", "title": "Agree who does what"}]',
   'system', '2025-01-01T00:00:00Z');
