-- Cases (spec 2, Case; issue 16): findings with one owner, evidence, a proposed correction, what
-- still needs checking and a status, and their amounts as separate rows in minor units by stage.

CREATE TABLE cases (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  title text NOT NULL,
  -- What the finding is about, as written; subject_key is its comparison form (trimmed, inner
  -- spaces collapsed, lower case): two cases with one key name the same subject and count once.
  subject text NOT NULL,
  subject_key text NOT NULL,
  owner text NOT NULL,
  -- Evidence entries: short texts or links, in the order given.
  evidence jsonb NOT NULL DEFAULT '[]',
  proposed_correction text NOT NULL,
  still_to_check text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'needs_validation'
    CHECK (status IN ('needs_validation', 'accepted', 'in_progress', 'verified', 'dismissed')),
  dismissal_reason text,
  verification_method text,
  -- Expected value (a projection, never part of a stage total): a one-off amount and a monthly
  -- recurring amount over a number of months, in minor units of one currency.
  expected_currency text CHECK (expected_currency ~ '^[A-Z]{3}$'),
  expected_one_off bigint CHECK (expected_one_off >= 0),
  expected_recurring_monthly bigint CHECK (expected_recurring_monthly >= 0),
  expected_recurring_months integer CHECK (expected_recurring_months BETWEEN 0 AND 120),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  status_changed_at timestamptz NOT NULL,
  -- A dismissed case has its reason, a verified one its method, and no other case has either.
  CONSTRAINT cases_dismissal_reason CHECK ((status = 'dismissed') = (dismissal_reason IS NOT NULL)),
  CONSTRAINT cases_verification_method CHECK ((status = 'verified') = (verification_method IS NOT NULL)),
  CONSTRAINT cases_expected_value CHECK (
    (expected_currency IS NULL AND expected_one_off IS NULL AND expected_recurring_monthly IS NULL
      AND expected_recurring_months IS NULL)
    OR (expected_currency IS NOT NULL AND expected_one_off IS NOT NULL AND expected_recurring_monthly IS NOT NULL
      AND expected_recurring_months IS NOT NULL))
);
CREATE INDEX cases_project ON cases (project_id, created_at DESC, id DESC);
CREATE INDEX cases_project_status ON cases (project_id, status, created_at DESC, id DESC);
CREATE INDEX cases_project_subject ON cases (project_id, subject_key, created_at, id);

CREATE TABLE case_amounts (
  id uuid PRIMARY KEY,
  case_id uuid NOT NULL REFERENCES cases (id),
  project_id uuid NOT NULL REFERENCES projects (id),
  stage text NOT NULL CHECK (stage IN ('identified', 'approved', 'posted', 'collected')),
  -- Integer minor units of the currency (cents for USD).
  amount bigint NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- Collected rows only: whether the cash can be tied to the case's correction.
  tied_to_correction boolean,
  recorded_by text NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT case_amounts_tied CHECK ((stage = 'collected') = (tied_to_correction IS NOT NULL))
);
CREATE INDEX case_amounts_case ON case_amounts (case_id, created_at, id);
