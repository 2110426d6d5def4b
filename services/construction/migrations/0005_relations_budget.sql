-- Relations between development projects, and the budget: one line per (project, category) and
-- the append-only cost events. What each line has committed and spent, and the project's totals
-- on development_projects, are kept by the database in the transaction of each fact, so they can
-- not drift from the events whatever writes them (docs/decisions.md, "Construction: plan items
-- and budget").

-- A relation points from the project it was made on to another; both ends list it.
CREATE TABLE project_relations (
  id uuid PRIMARY KEY,
  from_project_id uuid NOT NULL REFERENCES development_projects (id),
  to_project_id uuid NOT NULL REFERENCES development_projects (id),
  relation_type text NOT NULL
    CHECK (relation_type IN ('parent_of', 'depends_on', 'blocks', 'updates', 'shared_milestone', 'related_to')),
  note text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK (from_project_id <> to_project_id),
  -- One relation of a type from one project to another (409 relation_exists).
  UNIQUE (from_project_id, to_project_id, relation_type)
);
CREATE INDEX project_relations_to ON project_relations (to_project_id);

-- One line per category of a project: its budget is set by PUT .../budget/lines; committed and
-- actual are the sums of its cost events, kept by cost_events_apply below.
CREATE TABLE budget_lines (
  project_id uuid NOT NULL REFERENCES development_projects (id),
  category text NOT NULL,
  budget_minor bigint NOT NULL DEFAULT 0 CHECK (budget_minor >= 0),
  committed_minor bigint NOT NULL DEFAULT 0,
  actual_minor bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, category)
);

-- Cost events are facts: never changed or removed. A correction is a new event, usually the
-- reversal (reverses_id) of a wrong one; an event is reversed at most once.
CREATE TABLE cost_events (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  category text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('committed', 'actual')),
  amount_minor bigint NOT NULL,
  occurred_on date NOT NULL,
  description text,
  reverses_id uuid REFERENCES cost_events (id),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX cost_events_project ON cost_events (project_id, occurred_on DESC, created_at DESC, id DESC);
CREATE UNIQUE INDEX cost_events_reverses ON cost_events (reverses_id) WHERE reverses_id IS NOT NULL;

CREATE TRIGGER cost_events_immutable BEFORE UPDATE OR DELETE ON cost_events
  FOR EACH ROW EXECUTE FUNCTION refuse_change();

-- The events of each INSERT statement add their sums to their lines (a line is made with budget 0
-- when the category has none yet): one upsert per line touched, however many events a statement
-- carries (a bulk load of 100,000 events is one pass), in a fixed order of lines.
CREATE FUNCTION cost_events_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO budget_lines AS l (project_id, category, budget_minor, committed_minor, actual_minor, created_at, updated_at)
  SELECT project_id, category, 0,
    COALESCE(sum(amount_minor) FILTER (WHERE kind = 'committed'), 0),
    COALESCE(sum(amount_minor) FILTER (WHERE kind = 'actual'), 0),
    max(created_at), max(created_at)
  FROM new_events
  GROUP BY project_id, category
  ORDER BY project_id, category
  ON CONFLICT (project_id, category) DO UPDATE SET
    committed_minor = l.committed_minor + EXCLUDED.committed_minor,
    actual_minor = l.actual_minor + EXCLUDED.actual_minor,
    updated_at = GREATEST(l.updated_at, EXCLUDED.updated_at);
  RETURN NULL;
END $$;
CREATE TRIGGER cost_events_apply AFTER INSERT ON cost_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION cost_events_apply();

-- Each change of a line moves the project's totals by the same amounts.
CREATE FUNCTION budget_lines_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_budget bigint := COALESCE(NEW.budget_minor, 0) - COALESCE(OLD.budget_minor, 0);
  d_committed bigint := COALESCE(NEW.committed_minor, 0) - COALESCE(OLD.committed_minor, 0);
  d_actual bigint := COALESCE(NEW.actual_minor, 0) - COALESCE(OLD.actual_minor, 0);
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.project_id <> OLD.project_id THEN
    RAISE EXCEPTION 'budget lines do not move between projects' USING ERRCODE = 'restrict_violation';
  END IF;
  IF d_budget <> 0 OR d_committed <> 0 OR d_actual <> 0 THEN
    UPDATE development_projects SET
      budget_minor = budget_minor + d_budget,
      committed_minor = committed_minor + d_committed,
      actual_minor = actual_minor + d_actual
    WHERE id = COALESCE(NEW.project_id, OLD.project_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER budget_lines_totals AFTER INSERT OR UPDATE OR DELETE ON budget_lines
  FOR EACH ROW EXECUTE FUNCTION budget_lines_totals();
