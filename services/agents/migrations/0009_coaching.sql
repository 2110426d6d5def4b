-- Weekly coaching (spec 3, Briefs and coaching; AGT-283..AGT-310): a person's own setting, their
-- reports (one per week) and their feedback on a report's points. Keyed by the person's email
-- (lower case): COACH_RECIPIENTS names people by email, and no route reads anyone else's.

-- Only people who turned coaching off or on again have a row; no row reads as on.
CREATE TABLE coaching_settings (
  person_email text PRIMARY KEY,
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL
);

-- One report per person and week (week_start: the Monday, New York); regenerate replaces it (a new id).
-- report holds meeting_time, communication and about_you as the GET answers them.
CREATE TABLE coaching_reports (
  id uuid PRIMARY KEY,
  person_email text NOT NULL,
  week_start date NOT NULL,
  report jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (person_email, week_start)
);
CREATE INDEX coaching_reports_latest ON coaching_reports (person_email, week_start DESC);

-- Useful or not on one point of one's own report; a second answer on the point replaces the first.
CREATE TABLE coaching_feedback (
  report_id uuid NOT NULL REFERENCES coaching_reports (id) ON DELETE CASCADE,
  point_id text NOT NULL,
  person_email text NOT NULL,
  useful boolean NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (report_id, point_id)
);
CREATE INDEX coaching_feedback_person ON coaching_feedback (person_email);
