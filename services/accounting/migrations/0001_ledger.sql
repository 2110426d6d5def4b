-- Accounting ledger: legal entities, charts of accounts, journal entries and lines, balances.

CREATE TABLE legal_entities (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  chart_code text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  chart_code text NOT NULL,
  code text NOT NULL,
  name text NOT NULL,
  classification text NOT NULL CHECK (classification IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
  is_postable boolean NOT NULL,
  parent_id uuid REFERENCES accounts (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  -- Uniqueness of code holds per chart only.
  UNIQUE (chart_code, code)
);
CREATE INDEX accounts_list ON accounts (chart_code, code, id);

CREATE TABLE journal_entries (
  id uuid PRIMARY KEY,
  legal_entity_id uuid NOT NULL REFERENCES legal_entities (id),
  description text NOT NULL,
  transaction_date date NOT NULL,
  -- Direct historical inserts that name no source are generated.
  source text NOT NULL DEFAULT 'generated' CHECK (source IN ('manual', 'generated')),
  status text NOT NULL CHECK (status IN ('draft', 'posted')),
  post_month date CHECK (post_month IS NULL OR extract(day FROM post_month) = 1),
  reversal_of uuid REFERENCES journal_entries (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_at timestamptz NOT NULL DEFAULT now(),
  posted_at timestamptz,
  posted_by text,
  CHECK (status = 'posted' OR post_month IS NULL)
);
-- An entry has at most one reversal.
CREATE UNIQUE INDEX journal_entries_one_reversal ON journal_entries (reversal_of) WHERE reversal_of IS NOT NULL;
CREATE INDEX journal_entries_by_post_month ON journal_entries (legal_entity_id, post_month);
CREATE INDEX journal_entries_by_date ON journal_entries (legal_entity_id, transaction_date);

CREATE TABLE journal_lines (
  id uuid PRIMARY KEY,
  entry_id uuid NOT NULL REFERENCES journal_entries (id),
  line_no integer NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id),
  direction text NOT NULL CHECK (direction IN ('debit', 'credit')),
  amount bigint NOT NULL CHECK (amount > 0),
  property_id uuid,
  unit_id uuid,
  lease_id uuid,
  billing_account_id uuid,
  invoice_id uuid,
  charge_id uuid
);
CREATE INDEX journal_lines_entry ON journal_lines (entry_id, line_no);
CREATE INDEX journal_lines_account ON journal_lines (account_id);

-- Balances per entity, posting month and account: reports read these, never the lines, so a
-- trial balance costs accounts x months however many lines there are. Maintained by the
-- triggers below for every writer, direct historical inserts included.
CREATE TABLE balances (
  legal_entity_id uuid NOT NULL,
  month date NOT NULL,
  account_id uuid NOT NULL,
  debit bigint NOT NULL DEFAULT 0,
  credit bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (legal_entity_id, month, account_id)
);
CREATE INDEX balances_by_account ON balances (account_id, month);

-- The reporting month: post_month, or for legacy posted rows without it the entry date's month.
CREATE FUNCTION reporting_month(post_month date, transaction_date date) RETURNS date
  LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(post_month, date_trunc('month', transaction_date)::date) $$;

CREATE FUNCTION balances_add_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balances (legal_entity_id, month, account_id, debit, credit)
  SELECT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date), l.account_id,
         sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END),
         sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END)
  FROM new_lines l JOIN journal_entries e ON e.id = l.entry_id
  WHERE e.status = 'posted'
  GROUP BY 1, 2, 3
  ON CONFLICT (legal_entity_id, month, account_id)
  DO UPDATE SET debit = balances.debit + excluded.debit, credit = balances.credit + excluded.credit;
  RETURN NULL;
END $$;

CREATE FUNCTION balances_remove_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE balances b SET debit = b.debit - x.debit, credit = b.credit - x.credit
  FROM (
    SELECT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date) AS month, l.account_id,
           sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END) AS debit,
           sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END) AS credit
    FROM old_lines l JOIN journal_entries e ON e.id = l.entry_id
    WHERE e.status = 'posted'
    GROUP BY 1, 2, 3
  ) x
  WHERE b.legal_entity_id = x.legal_entity_id AND b.month = x.month AND b.account_id = x.account_id;
  RETURN NULL;
END $$;

-- Posting (draft -> posted) adds the entry's lines; nothing else changes a posted entry.
CREATE FUNCTION balances_entries_posted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balances (legal_entity_id, month, account_id, debit, credit)
  SELECT n.legal_entity_id, reporting_month(n.post_month, n.transaction_date), l.account_id,
         sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END),
         sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END)
  FROM new_entries n
  JOIN old_entries o ON o.id = n.id AND o.status = 'draft'
  JOIN journal_lines l ON l.entry_id = n.id
  WHERE n.status = 'posted'
  GROUP BY 1, 2, 3
  ON CONFLICT (legal_entity_id, month, account_id)
  DO UPDATE SET debit = balances.debit + excluded.debit, credit = balances.credit + excluded.credit;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_lines_balances_insert AFTER INSERT ON journal_lines
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION balances_add_lines();
CREATE TRIGGER journal_lines_balances_delete AFTER DELETE ON journal_lines
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION balances_remove_lines();
CREATE TRIGGER journal_entries_balances_post AFTER UPDATE ON journal_entries
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION balances_entries_posted();

-- Calendars and months.
CREATE TABLE calendars (
  legal_entity_id uuid PRIMARY KEY REFERENCES legal_entities (id),
  timezone text NOT NULL,
  books_start_month date NOT NULL CHECK (extract(day FROM books_start_month) = 1),
  configured_at timestamptz NOT NULL DEFAULT now(),
  configured_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The period model stores only closures: a month is closed (hard-closed) or not.
CREATE TABLE period_closures (
  legal_entity_id uuid NOT NULL REFERENCES legal_entities (id),
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  closed_at timestamptz NOT NULL DEFAULT now(),
  closed_by text NOT NULL DEFAULT 'system',
  PRIMARY KEY (legal_entity_id, month)
);

CREATE TABLE period_history (
  id bigserial PRIMARY KEY,
  legal_entity_id uuid NOT NULL REFERENCES legal_entities (id),
  event_type text NOT NULL CHECK (event_type IN ('close', 'reopen')),
  year integer NOT NULL,
  month integer NOT NULL CHECK (month BETWEEN 1 AND 12),
  occurred_at timestamptz NOT NULL DEFAULT now(),
  actor_fid text NOT NULL,
  reason text NOT NULL DEFAULT ''
);
CREATE INDEX period_history_newest ON period_history (legal_entity_id, occurred_at DESC, id DESC);

-- Audit trail of calendar changes (the events go out through the outbox too).
CREATE TABLE calendar_changes (
  id bigserial PRIMARY KEY,
  legal_entity_id uuid NOT NULL REFERENCES legal_entities (id),
  event_type text NOT NULL,
  previous_value text,
  new_value text NOT NULL,
  actor_fid text NOT NULL,
  reason text NOT NULL DEFAULT '',
  occurred_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT calendar_changes_event_type CHECK (event_type IN ('calendar_configured', 'timezone_changed'))
);
