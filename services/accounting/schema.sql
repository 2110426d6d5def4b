--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: accounting; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA accounting;

--
-- Name: balances_add_lines(); Type: FUNCTION; Schema: accounting; Owner: -
--

CREATE FUNCTION accounting.balances_add_lines() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO balances (legal_entity_id, month, account_id, debit, credit)
  SELECT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date), l.account_id,
         sum(CASE WHEN l.direction = 'debit' THEN l.amount ELSE 0 END),
         sum(CASE WHEN l.direction = 'credit' THEN l.amount ELSE 0 END)
  FROM new_lines l JOIN journal_entries e ON e.id = l.entry_id
  WHERE e.status = 'posted'
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (legal_entity_id, month, account_id)
  DO UPDATE SET debit = balances.debit + excluded.debit, credit = balances.credit + excluded.credit;
  RETURN NULL;
END $$;

--
-- Name: balances_entries_posted(); Type: FUNCTION; Schema: accounting; Owner: -
--

CREATE FUNCTION accounting.balances_entries_posted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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
  ORDER BY 1, 2, 3
  ON CONFLICT (legal_entity_id, month, account_id)
  DO UPDATE SET debit = balances.debit + excluded.debit, credit = balances.credit + excluded.credit;
  RETURN NULL;
END $$;

--
-- Name: balances_remove_lines(); Type: FUNCTION; Schema: accounting; Owner: -
--

CREATE FUNCTION accounting.balances_remove_lines() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM 1 FROM balances b
  JOIN (
    SELECT DISTINCT e.legal_entity_id, reporting_month(e.post_month, e.transaction_date) AS month, l.account_id
    FROM old_lines l JOIN journal_entries e ON e.id = l.entry_id
    WHERE e.status = 'posted'
  ) k ON b.legal_entity_id = k.legal_entity_id AND b.month = k.month AND b.account_id = k.account_id
  ORDER BY b.legal_entity_id, b.month, b.account_id
  FOR UPDATE OF b;
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

--
-- Name: reporting_month(date, date); Type: FUNCTION; Schema: accounting; Owner: -
--

CREATE FUNCTION accounting.reporting_month(post_month date, transaction_date date) RETURNS date
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT coalesce(post_month, date_trunc('month', transaction_date)::date) $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.accounts (
    id uuid NOT NULL,
    chart_code text NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    classification text NOT NULL,
    is_postable boolean NOT NULL,
    parent_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text NOT NULL,
    CONSTRAINT accounts_classification_check CHECK ((classification = ANY (ARRAY['asset'::text, 'liability'::text, 'equity'::text, 'revenue'::text, 'expense'::text])))
);

--
-- Name: balances; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.balances (
    legal_entity_id uuid NOT NULL,
    month date NOT NULL,
    account_id uuid NOT NULL,
    debit bigint DEFAULT 0 NOT NULL,
    credit bigint DEFAULT 0 NOT NULL
);

--
-- Name: calendar_changes; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.calendar_changes (
    id bigint NOT NULL,
    legal_entity_id uuid NOT NULL,
    event_type text NOT NULL,
    previous_value text,
    new_value text NOT NULL,
    actor_fid text NOT NULL,
    reason text DEFAULT ''::text NOT NULL,
    occurred_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT calendar_changes_event_type CHECK ((event_type = ANY (ARRAY['calendar_configured'::text, 'timezone_changed'::text, 'books_start_changed'::text])))
);

--
-- Name: calendar_changes_id_seq; Type: SEQUENCE; Schema: accounting; Owner: -
--

CREATE SEQUENCE accounting.calendar_changes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: calendar_changes_id_seq; Type: SEQUENCE OWNED BY; Schema: accounting; Owner: -
--

ALTER SEQUENCE accounting.calendar_changes_id_seq OWNED BY accounting.calendar_changes.id;

--
-- Name: calendars; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.calendars (
    legal_entity_id uuid NOT NULL,
    timezone text NOT NULL,
    books_start_month date NOT NULL,
    configured_at timestamp with time zone DEFAULT now() NOT NULL,
    configured_by text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT calendars_books_start_month_check CHECK ((EXTRACT(day FROM books_start_month) = (1)::numeric))
);

--
-- Name: deleted_entries; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.deleted_entries (
    entry_id uuid NOT NULL,
    legal_entity_id uuid NOT NULL,
    payment_id uuid,
    snapshot jsonb NOT NULL,
    reason text NOT NULL,
    why jsonb,
    deleted_at timestamp with time zone NOT NULL,
    deleted_by text NOT NULL
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.idempotency_keys (
    key text NOT NULL,
    request_hash text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    principal_id text NOT NULL,
    status integer NOT NULL,
    response jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: journal_entries; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.journal_entries (
    id uuid NOT NULL,
    legal_entity_id uuid NOT NULL,
    description text NOT NULL,
    transaction_date date NOT NULL,
    source text DEFAULT 'generated'::text NOT NULL,
    status text NOT NULL,
    post_month date,
    reversal_of uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT 'system'::text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    posted_at timestamp with time zone,
    posted_by text,
    payment_id uuid,
    CONSTRAINT journal_entries_check CHECK (((status = 'posted'::text) OR (post_month IS NULL))),
    CONSTRAINT journal_entries_post_month_check CHECK (((post_month IS NULL) OR (EXTRACT(day FROM post_month) = (1)::numeric))),
    CONSTRAINT journal_entries_source_check CHECK ((source = ANY (ARRAY['manual'::text, 'generated'::text]))),
    CONSTRAINT journal_entries_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'posted'::text])))
);

--
-- Name: journal_lines; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.journal_lines (
    id uuid NOT NULL,
    entry_id uuid NOT NULL,
    line_no integer NOT NULL,
    account_id uuid NOT NULL,
    direction text NOT NULL,
    amount bigint NOT NULL,
    property_id uuid,
    unit_id uuid,
    lease_id uuid,
    billing_account_id uuid,
    invoice_id uuid,
    charge_id uuid,
    CONSTRAINT journal_lines_amount_check CHECK ((amount > 0)),
    CONSTRAINT journal_lines_direction_check CHECK ((direction = ANY (ARRAY['debit'::text, 'credit'::text])))
);

--
-- Name: legal_entities; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.legal_entities (
    id uuid NOT NULL,
    name text NOT NULL,
    chart_code text NOT NULL,
    status text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text NOT NULL,
    CONSTRAINT legal_entities_status_check CHECK ((status = ANY (ARRAY['active'::text, 'inactive'::text])))
);

--
-- Name: outbox; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.outbox (
    id bigint NOT NULL,
    event_id uuid NOT NULL,
    subject text NOT NULL,
    event_type text NOT NULL,
    restricted boolean DEFAULT false NOT NULL,
    payload jsonb NOT NULL,
    occurred_at timestamp with time zone DEFAULT now() NOT NULL,
    published_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    last_error text,
    claimed_until timestamp with time zone,
    claim_token uuid,
    republished integer DEFAULT 0 NOT NULL
);

--
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: accounting; Owner: -
--

CREATE SEQUENCE accounting.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: accounting; Owner: -
--

ALTER SEQUENCE accounting.outbox_id_seq OWNED BY accounting.outbox.id;

--
-- Name: period_closures; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.period_closures (
    legal_entity_id uuid NOT NULL,
    month date NOT NULL,
    closed_at timestamp with time zone DEFAULT now() NOT NULL,
    closed_by text DEFAULT 'system'::text NOT NULL,
    CONSTRAINT period_closures_month_check CHECK ((EXTRACT(day FROM month) = (1)::numeric))
);

--
-- Name: period_history; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.period_history (
    id bigint NOT NULL,
    legal_entity_id uuid NOT NULL,
    event_type text NOT NULL,
    year integer NOT NULL,
    month integer NOT NULL,
    occurred_at timestamp with time zone DEFAULT now() NOT NULL,
    actor_fid text NOT NULL,
    reason text DEFAULT ''::text NOT NULL,
    CONSTRAINT period_history_event_type_check CHECK ((event_type = ANY (ARRAY['close'::text, 'reopen'::text]))),
    CONSTRAINT period_history_month_check CHECK (((month >= 1) AND (month <= 12)))
);

--
-- Name: period_history_id_seq; Type: SEQUENCE; Schema: accounting; Owner: -
--

CREATE SEQUENCE accounting.period_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: period_history_id_seq; Type: SEQUENCE OWNED BY; Schema: accounting; Owner: -
--

ALTER SEQUENCE accounting.period_history_id_seq OWNED BY accounting.period_history.id;

--
-- Name: schema_migrations; Type: TABLE; Schema: accounting; Owner: -
--

CREATE TABLE accounting.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: calendar_changes id; Type: DEFAULT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.calendar_changes ALTER COLUMN id SET DEFAULT nextval('accounting.calendar_changes_id_seq'::regclass);

--
-- Name: outbox id; Type: DEFAULT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.outbox ALTER COLUMN id SET DEFAULT nextval('accounting.outbox_id_seq'::regclass);

--
-- Name: period_history id; Type: DEFAULT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.period_history ALTER COLUMN id SET DEFAULT nextval('accounting.period_history_id_seq'::regclass);

--
-- Name: accounts accounts_chart_code_code_key; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.accounts
    ADD CONSTRAINT accounts_chart_code_code_key UNIQUE (chart_code, code);

--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);

--
-- Name: balances balances_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.balances
    ADD CONSTRAINT balances_pkey PRIMARY KEY (legal_entity_id, month, account_id);

--
-- Name: calendar_changes calendar_changes_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.calendar_changes
    ADD CONSTRAINT calendar_changes_pkey PRIMARY KEY (id);

--
-- Name: calendars calendars_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.calendars
    ADD CONSTRAINT calendars_pkey PRIMARY KEY (legal_entity_id);

--
-- Name: deleted_entries deleted_entries_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.deleted_entries
    ADD CONSTRAINT deleted_entries_pkey PRIMARY KEY (entry_id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: journal_entries journal_entries_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.journal_entries
    ADD CONSTRAINT journal_entries_pkey PRIMARY KEY (id);

--
-- Name: journal_lines journal_lines_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.journal_lines
    ADD CONSTRAINT journal_lines_pkey PRIMARY KEY (id);

--
-- Name: legal_entities legal_entities_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.legal_entities
    ADD CONSTRAINT legal_entities_pkey PRIMARY KEY (id);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: period_closures period_closures_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.period_closures
    ADD CONSTRAINT period_closures_pkey PRIMARY KEY (legal_entity_id, month);

--
-- Name: period_history period_history_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.period_history
    ADD CONSTRAINT period_history_pkey PRIMARY KEY (id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: accounts_list; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX accounts_list ON accounting.accounts USING btree (chart_code, code, id);

--
-- Name: balances_by_account; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX balances_by_account ON accounting.balances USING btree (account_id, month);

--
-- Name: deleted_entries_by_entity; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX deleted_entries_by_entity ON accounting.deleted_entries USING btree (legal_entity_id, deleted_at DESC);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX idempotency_keys_created ON accounting.idempotency_keys USING btree (created_at);

--
-- Name: journal_entries_by_date; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX journal_entries_by_date ON accounting.journal_entries USING btree (legal_entity_id, transaction_date);

--
-- Name: journal_entries_by_post_month; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX journal_entries_by_post_month ON accounting.journal_entries USING btree (legal_entity_id, post_month);

--
-- Name: journal_entries_one_reversal; Type: INDEX; Schema: accounting; Owner: -
--

CREATE UNIQUE INDEX journal_entries_one_reversal ON accounting.journal_entries USING btree (reversal_of) WHERE (reversal_of IS NOT NULL);

--
-- Name: journal_entries_payment; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX journal_entries_payment ON accounting.journal_entries USING btree (payment_id) WHERE (payment_id IS NOT NULL);

--
-- Name: journal_lines_account; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX journal_lines_account ON accounting.journal_lines USING btree (account_id);

--
-- Name: journal_lines_entry; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX journal_lines_entry ON accounting.journal_lines USING btree (entry_id, line_no);

--
-- Name: outbox_published; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX outbox_published ON accounting.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX outbox_unpublished ON accounting.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: period_history_newest; Type: INDEX; Schema: accounting; Owner: -
--

CREATE INDEX period_history_newest ON accounting.period_history USING btree (legal_entity_id, occurred_at DESC, id DESC);

--
-- Name: journal_entries journal_entries_balances_post; Type: TRIGGER; Schema: accounting; Owner: -
--

CREATE TRIGGER journal_entries_balances_post AFTER UPDATE ON accounting.journal_entries REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION accounting.balances_entries_posted();

--
-- Name: journal_lines journal_lines_balances_delete; Type: TRIGGER; Schema: accounting; Owner: -
--

CREATE TRIGGER journal_lines_balances_delete AFTER DELETE ON accounting.journal_lines REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION accounting.balances_remove_lines();

--
-- Name: journal_lines journal_lines_balances_insert; Type: TRIGGER; Schema: accounting; Owner: -
--

CREATE TRIGGER journal_lines_balances_insert AFTER INSERT ON accounting.journal_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION accounting.balances_add_lines();

--
-- Name: accounts accounts_parent_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.accounts
    ADD CONSTRAINT accounts_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES accounting.accounts(id);

--
-- Name: calendar_changes calendar_changes_legal_entity_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.calendar_changes
    ADD CONSTRAINT calendar_changes_legal_entity_id_fkey FOREIGN KEY (legal_entity_id) REFERENCES accounting.legal_entities(id);

--
-- Name: calendars calendars_legal_entity_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.calendars
    ADD CONSTRAINT calendars_legal_entity_id_fkey FOREIGN KEY (legal_entity_id) REFERENCES accounting.legal_entities(id);

--
-- Name: journal_entries journal_entries_legal_entity_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.journal_entries
    ADD CONSTRAINT journal_entries_legal_entity_id_fkey FOREIGN KEY (legal_entity_id) REFERENCES accounting.legal_entities(id);

--
-- Name: journal_entries journal_entries_reversal_of_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.journal_entries
    ADD CONSTRAINT journal_entries_reversal_of_fkey FOREIGN KEY (reversal_of) REFERENCES accounting.journal_entries(id);

--
-- Name: journal_lines journal_lines_account_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.journal_lines
    ADD CONSTRAINT journal_lines_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounting.accounts(id);

--
-- Name: journal_lines journal_lines_entry_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.journal_lines
    ADD CONSTRAINT journal_lines_entry_id_fkey FOREIGN KEY (entry_id) REFERENCES accounting.journal_entries(id);

--
-- Name: period_closures period_closures_legal_entity_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.period_closures
    ADD CONSTRAINT period_closures_legal_entity_id_fkey FOREIGN KEY (legal_entity_id) REFERENCES accounting.legal_entities(id);

--
-- Name: period_history period_history_legal_entity_id_fkey; Type: FK CONSTRAINT; Schema: accounting; Owner: -
--

ALTER TABLE ONLY accounting.period_history
    ADD CONSTRAINT period_history_legal_entity_id_fkey FOREIGN KEY (legal_entity_id) REFERENCES accounting.legal_entities(id);

--
-- PostgreSQL database dump complete
--
