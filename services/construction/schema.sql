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
-- Name: construction; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA construction;

--
-- Name: budget_lines_totals(); Type: FUNCTION; Schema: construction; Owner: -
--

CREATE FUNCTION construction.budget_lines_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: cost_events_apply(); Type: FUNCTION; Schema: construction; Owner: -
--

CREATE FUNCTION construction.cost_events_apply() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

--
-- Name: refuse_change(); Type: FUNCTION; Schema: construction; Owner: -
--

CREATE FUNCTION construction.refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: activity; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.activity (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    type text NOT NULL,
    actor_fid text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: approval_reviewers; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.approval_reviewers (
    approval_id uuid NOT NULL,
    email text NOT NULL,
    required boolean NOT NULL,
    response text,
    note text,
    responded_by text,
    responded_at timestamp with time zone,
    CONSTRAINT approval_reviewers_email_check CHECK ((email = lower(email))),
    CONSTRAINT approval_reviewers_response_check CHECK ((response = ANY (ARRAY['approved'::text, 'rejected'::text])))
);

--
-- Name: approvals; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.approvals (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    subject_type text NOT NULL,
    subject_id uuid,
    stage text,
    status text DEFAULT 'pending'::text NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    requested_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    decided_at timestamp with time zone,
    CONSTRAINT approvals_stage_check CHECK ((stage = ANY (ARRAY['initiation'::text, 'feasibility'::text, 'design'::text, 'permitting'::text, 'award'::text, 'construction'::text, 'closeout'::text]))),
    CONSTRAINT approvals_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text]))),
    CONSTRAINT approvals_subject_type_check CHECK ((subject_type = ANY (ARRAY['stage_gate'::text, 'decision'::text, 'budget'::text, 'variation'::text])))
);

--
-- Name: attachments; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.attachments (
    id uuid NOT NULL,
    record_type text NOT NULL,
    record_id uuid NOT NULL,
    document_id text NOT NULL,
    blob_name text NOT NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT attachments_record_type_check CHECK ((record_type = ANY (ARRAY['task'::text, 'document_revision'::text])))
);

--
-- Name: baselines; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.baselines (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    seq integer NOT NULL,
    kind text NOT NULL,
    variation_id uuid,
    amount_minor bigint NOT NULL,
    finish_date date NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT baselines_kind_check CHECK ((kind = ANY (ARRAY['award'::text, 'variation'::text]))),
    CONSTRAINT baselines_seq_check CHECK ((seq >= 1))
);

--
-- Name: budget_lines; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.budget_lines (
    project_id uuid NOT NULL,
    category text NOT NULL,
    budget_minor bigint DEFAULT 0 NOT NULL,
    committed_minor bigint DEFAULT 0 NOT NULL,
    actual_minor bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT budget_lines_budget_minor_check CHECK ((budget_minor >= 0))
);

--
-- Name: cost_events; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.cost_events (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    category text NOT NULL,
    kind text NOT NULL,
    amount_minor bigint NOT NULL,
    occurred_on date NOT NULL,
    description text,
    reverses_id uuid,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT cost_events_kind_check CHECK ((kind = ANY (ARRAY['committed'::text, 'actual'::text])))
);

--
-- Name: decision_alternatives; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.decision_alternatives (
    id uuid NOT NULL,
    decision_id uuid NOT NULL,
    seq smallint NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    cost_minor bigint,
    CONSTRAINT decision_alternatives_seq_check CHECK ((seq >= 1))
);

--
-- Name: decision_participants; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.decision_participants (
    decision_id uuid NOT NULL,
    participant_fid text NOT NULL
);

--
-- Name: decisions; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.decisions (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    question text NOT NULL,
    context text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    outcome text,
    alternative_id uuid,
    cost_minor bigint,
    decided_by text,
    decided_at timestamp with time zone,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT decisions_check CHECK (((status = 'decided'::text) = (outcome IS NOT NULL))),
    CONSTRAINT decisions_status_check CHECK ((status = ANY (ARRAY['open'::text, 'decided'::text])))
);

--
-- Name: design_fees; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.design_fees (
    id uuid NOT NULL,
    vendor_id uuid NOT NULL,
    project_id uuid NOT NULL,
    description text NOT NULL,
    agreed_minor bigint NOT NULL,
    invoiced_minor bigint DEFAULT 0 NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT design_fees_agreed_minor_check CHECK ((agreed_minor >= 0)),
    CONSTRAINT design_fees_check CHECK (((invoiced_minor >= 0) AND (invoiced_minor <= agreed_minor))),
    CONSTRAINT design_fees_description_check CHECK (((length(description) >= 1) AND (length(description) <= 500)))
);

--
-- Name: development_projects; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.development_projects (
    id uuid NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    stage text DEFAULT 'initiation'::text NOT NULL,
    owner_fid text,
    region text,
    description text DEFAULT ''::text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    progress numeric(5,2) DEFAULT 0 NOT NULL,
    next_milestone_due date,
    last_update_on date,
    budget_minor bigint DEFAULT 0 NOT NULL,
    committed_minor bigint DEFAULT 0 NOT NULL,
    actual_minor bigint DEFAULT 0 NOT NULL,
    CONSTRAINT development_projects_kind_check CHECK ((kind = ANY (ARRAY['master_plan'::text, 'ground_up'::text, 'conversion'::text, 'capital_improvement'::text]))),
    CONSTRAINT development_projects_stage_check CHECK ((stage = ANY (ARRAY['initiation'::text, 'feasibility'::text, 'design'::text, 'permitting'::text, 'award'::text, 'construction'::text, 'closeout'::text]))),
    CONSTRAINT development_projects_status_check CHECK ((status = ANY (ARRAY['active'::text, 'on_hold'::text, 'cancelled'::text, 'completed'::text])))
);

--
-- Name: document_impacts; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.document_impacts (
    id uuid NOT NULL,
    document_id uuid NOT NULL,
    revision_id uuid NOT NULL,
    number integer NOT NULL,
    summary text DEFAULT ''::text NOT NULL,
    cost_minor bigint,
    days integer,
    variation_id uuid,
    recorded_by text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: document_links; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.document_links (
    id uuid NOT NULL,
    document_id uuid NOT NULL,
    target_type text NOT NULL,
    target_id text NOT NULL,
    stage text,
    project_id uuid,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT document_links_check CHECK (((target_type = 'stage'::text) = (stage IS NOT NULL))),
    CONSTRAINT document_links_stage_check CHECK ((stage = ANY (ARRAY['initiation'::text, 'feasibility'::text, 'design'::text, 'permitting'::text, 'award'::text, 'construction'::text, 'closeout'::text]))),
    CONSTRAINT document_links_target_type_check CHECK ((target_type = ANY (ARRAY['project'::text, 'stage'::text, 'task'::text, 'milestone'::text, 'firm'::text])))
);

--
-- Name: document_revisions; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.document_revisions (
    id uuid NOT NULL,
    document_id uuid NOT NULL,
    letter text NOT NULL,
    number integer,
    state text NOT NULL,
    based_on_number integer,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    published_at timestamp with time zone,
    CONSTRAINT document_revisions_state_check CHECK ((state = ANY (ARRAY['draft'::text, 'internal_review'::text, 'reviewed'::text, 'pending_approval'::text, 'approved'::text, 'rejected'::text, 'published'::text])))
);

--
-- Name: document_trail; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.document_trail (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    document_id uuid NOT NULL,
    revision_id uuid,
    action text NOT NULL,
    from_state text,
    to_state text,
    note text,
    actor_fid text NOT NULL,
    at timestamp with time zone NOT NULL,
    CONSTRAINT document_trail_action_check CHECK ((action = ANY (ARRAY['registered'::text, 'updated'::text, 'revision_started'::text, 'prepared'::text, 'reviewed'::text, 'submitted_for_approval'::text, 'approved'::text, 'rejected'::text, 'published'::text, 'linked'::text, 'unlinked'::text])))
);

--
-- Name: document_trail_seq_seq; Type: SEQUENCE; Schema: construction; Owner: -
--

ALTER TABLE construction.document_trail ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME construction.document_trail_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: documents; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.documents (
    id uuid NOT NULL,
    code text NOT NULL,
    title text NOT NULL,
    doc_type text NOT NULL,
    discipline text NOT NULL,
    owner_fid text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: fee_invoices; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.fee_invoices (
    id uuid NOT NULL,
    fee_id uuid NOT NULL,
    number text NOT NULL,
    amount_minor bigint NOT NULL,
    invoiced_on date NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT fee_invoices_amount_minor_check CHECK ((amount_minor > 0)),
    CONSTRAINT fee_invoices_number_check CHECK (((length(number) >= 1) AND (length(number) <= 100)))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.idempotency_keys (
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
-- Name: milestones; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.milestones (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    name text NOT NULL,
    driving_project_id uuid,
    planned_date date,
    forecast_date date,
    actual_date date,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: outbox; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: construction; Owner: -
--

CREATE SEQUENCE construction.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: construction; Owner: -
--

ALTER SEQUENCE construction.outbox_id_seq OWNED BY construction.outbox.id;

--
-- Name: package_reports; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.package_reports (
    id uuid NOT NULL,
    package_id uuid NOT NULL,
    reported_on date NOT NULL,
    percent numeric(5,2) NOT NULL,
    note text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT package_reports_percent_check CHECK (((percent >= (0)::numeric) AND (percent <= (100)::numeric)))
);

--
-- Name: packages; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.packages (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    name text NOT NULL,
    measure text NOT NULL,
    weight integer DEFAULT 1 NOT NULL,
    progress numeric(5,2) DEFAULT 0 NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT packages_measure_check CHECK ((measure = ANY (ARRAY['report'::text, 'tasks'::text]))),
    CONSTRAINT packages_progress_check CHECK (((progress >= (0)::numeric) AND (progress <= (100)::numeric))),
    CONSTRAINT packages_weight_check CHECK (((weight >= 1) AND (weight <= 1000)))
);

--
-- Name: project_awards; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.project_awards (
    project_id uuid NOT NULL,
    contract_sum_minor bigint NOT NULL,
    completion_date date NOT NULL,
    vendor_id uuid,
    awarded_on date NOT NULL,
    baseline_id uuid NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT project_awards_contract_sum_minor_check CHECK ((contract_sum_minor >= 0))
);

--
-- Name: project_relations; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.project_relations (
    id uuid NOT NULL,
    from_project_id uuid NOT NULL,
    to_project_id uuid NOT NULL,
    relation_type text NOT NULL,
    note text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT project_relations_check CHECK ((from_project_id <> to_project_id)),
    CONSTRAINT project_relations_relation_type_check CHECK ((relation_type = ANY (ARRAY['parent_of'::text, 'depends_on'::text, 'blocks'::text, 'updates'::text, 'shared_milestone'::text, 'related_to'::text])))
);

--
-- Name: project_stages; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.project_stages (
    project_id uuid NOT NULL,
    stage text NOT NULL,
    seq smallint NOT NULL,
    planned_start date,
    planned_finish date,
    forecast_start date,
    forecast_finish date,
    actual_start date,
    actual_finish date,
    CONSTRAINT project_stages_seq_check CHECK (((seq >= 1) AND (seq <= 7))),
    CONSTRAINT project_stages_stage_check CHECK ((stage = ANY (ARRAY['initiation'::text, 'feasibility'::text, 'design'::text, 'permitting'::text, 'award'::text, 'construction'::text, 'closeout'::text])))
);

--
-- Name: risks; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.risks (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    likelihood text,
    impact text,
    owner_fid text,
    status text DEFAULT 'open'::text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT risks_impact_check CHECK ((impact = ANY (ARRAY['low'::text, 'medium'::text, 'high'::text]))),
    CONSTRAINT risks_likelihood_check CHECK ((likelihood = ANY (ARRAY['low'::text, 'medium'::text, 'high'::text]))),
    CONSTRAINT risks_status_check CHECK ((status = ANY (ARRAY['open'::text, 'mitigated'::text, 'closed'::text, 'happened'::text])))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: task_dependencies; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.task_dependencies (
    task_id uuid NOT NULL,
    depends_on_task_id uuid NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT task_dependencies_check CHECK ((task_id <> depends_on_task_id))
);

--
-- Name: task_documents; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.task_documents (
    task_id uuid NOT NULL,
    document_id uuid NOT NULL,
    revision_id uuid,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: task_links; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.task_links (
    task_id uuid NOT NULL,
    project_id uuid NOT NULL,
    relationship_type text NOT NULL,
    share integer,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT task_links_relationship_type_check CHECK ((relationship_type = ANY (ARRAY['primary'::text, 'affects'::text, 'shared'::text, 'deliverable_for'::text]))),
    CONSTRAINT task_links_share_check CHECK (((share >= 0) AND (share <= 100)))
);

--
-- Name: task_notes; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.task_notes (
    id uuid NOT NULL,
    task_id uuid NOT NULL,
    body text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: tasks; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.tasks (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    owner_fid text,
    package_id uuid,
    vendor_id uuid,
    status text DEFAULT 'not_started'::text NOT NULL,
    percent_complete integer DEFAULT 0 NOT NULL,
    planned_start date,
    planned_finish date,
    forecast_finish date,
    blocked_reason text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT tasks_check CHECK (((blocked_reason IS NULL) OR (status = 'blocked'::text))),
    CONSTRAINT tasks_check1 CHECK (((status <> 'done'::text) OR (percent_complete = 100))),
    CONSTRAINT tasks_check2 CHECK (((planned_start IS NULL) OR (planned_finish IS NULL) OR (planned_start <= planned_finish))),
    CONSTRAINT tasks_percent_complete_check CHECK (((percent_complete >= 0) AND (percent_complete <= 100))),
    CONSTRAINT tasks_status_check CHECK ((status = ANY (ARRAY['not_started'::text, 'in_progress'::text, 'blocked'::text, 'done'::text])))
);

--
-- Name: variations; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.variations (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'drafted'::text NOT NULL,
    cost_change_minor bigint,
    days integer,
    approval_id uuid,
    source_revision_id uuid,
    baseline_id uuid,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT variations_status_check CHECK ((status = ANY (ARRAY['drafted'::text, 'priced'::text, 'submitted'::text, 'approved'::text, 'rejected'::text, 'incorporated'::text])))
);

--
-- Name: vendor_assignments; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.vendor_assignments (
    id uuid NOT NULL,
    vendor_id uuid NOT NULL,
    project_id uuid NOT NULL,
    role text NOT NULL,
    contact_id uuid,
    started_on date NOT NULL,
    ended_on date,
    ended_by text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT vendor_assignments_check CHECK ((ended_on >= started_on)),
    CONSTRAINT vendor_assignments_role_check CHECK (((length(role) >= 1) AND (length(role) <= 100)))
);

--
-- Name: weekly_updates; Type: TABLE; Schema: construction; Owner: -
--

CREATE TABLE construction.weekly_updates (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    week_of date NOT NULL,
    summary text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: outbox id; Type: DEFAULT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.outbox ALTER COLUMN id SET DEFAULT nextval('construction.outbox_id_seq'::regclass);

--
-- Name: activity activity_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.activity
    ADD CONSTRAINT activity_pkey PRIMARY KEY (id);

--
-- Name: approval_reviewers approval_reviewers_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.approval_reviewers
    ADD CONSTRAINT approval_reviewers_pkey PRIMARY KEY (approval_id, email);

--
-- Name: approvals approvals_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.approvals
    ADD CONSTRAINT approvals_pkey PRIMARY KEY (id);

--
-- Name: attachments attachments_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.attachments
    ADD CONSTRAINT attachments_pkey PRIMARY KEY (id);

--
-- Name: baselines baselines_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.baselines
    ADD CONSTRAINT baselines_pkey PRIMARY KEY (id);

--
-- Name: baselines baselines_project_id_seq_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.baselines
    ADD CONSTRAINT baselines_project_id_seq_key UNIQUE (project_id, seq);

--
-- Name: budget_lines budget_lines_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.budget_lines
    ADD CONSTRAINT budget_lines_pkey PRIMARY KEY (project_id, category);

--
-- Name: cost_events cost_events_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.cost_events
    ADD CONSTRAINT cost_events_pkey PRIMARY KEY (id);

--
-- Name: decision_alternatives decision_alternatives_decision_id_id_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decision_alternatives
    ADD CONSTRAINT decision_alternatives_decision_id_id_key UNIQUE (decision_id, id);

--
-- Name: decision_alternatives decision_alternatives_decision_id_seq_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decision_alternatives
    ADD CONSTRAINT decision_alternatives_decision_id_seq_key UNIQUE (decision_id, seq);

--
-- Name: decision_alternatives decision_alternatives_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decision_alternatives
    ADD CONSTRAINT decision_alternatives_pkey PRIMARY KEY (id);

--
-- Name: decision_participants decision_participants_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decision_participants
    ADD CONSTRAINT decision_participants_pkey PRIMARY KEY (decision_id, participant_fid);

--
-- Name: decisions decisions_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decisions
    ADD CONSTRAINT decisions_pkey PRIMARY KEY (id);

--
-- Name: design_fees design_fees_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.design_fees
    ADD CONSTRAINT design_fees_pkey PRIMARY KEY (id);

--
-- Name: development_projects development_projects_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.development_projects
    ADD CONSTRAINT development_projects_pkey PRIMARY KEY (id);

--
-- Name: document_impacts document_impacts_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_impacts
    ADD CONSTRAINT document_impacts_pkey PRIMARY KEY (id);

--
-- Name: document_impacts document_impacts_revision_id_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_impacts
    ADD CONSTRAINT document_impacts_revision_id_key UNIQUE (revision_id);

--
-- Name: document_links document_links_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_links
    ADD CONSTRAINT document_links_pkey PRIMARY KEY (id);

--
-- Name: document_revisions document_revisions_document_id_letter_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_revisions
    ADD CONSTRAINT document_revisions_document_id_letter_key UNIQUE (document_id, letter);

--
-- Name: document_revisions document_revisions_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_revisions
    ADD CONSTRAINT document_revisions_pkey PRIMARY KEY (id);

--
-- Name: document_trail document_trail_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_trail
    ADD CONSTRAINT document_trail_pkey PRIMARY KEY (id);

--
-- Name: documents documents_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.documents
    ADD CONSTRAINT documents_pkey PRIMARY KEY (id);

--
-- Name: fee_invoices fee_invoices_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.fee_invoices
    ADD CONSTRAINT fee_invoices_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: milestones milestones_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.milestones
    ADD CONSTRAINT milestones_pkey PRIMARY KEY (id);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: package_reports package_reports_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.package_reports
    ADD CONSTRAINT package_reports_pkey PRIMARY KEY (id);

--
-- Name: packages packages_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.packages
    ADD CONSTRAINT packages_pkey PRIMARY KEY (id);

--
-- Name: project_awards project_awards_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_awards
    ADD CONSTRAINT project_awards_pkey PRIMARY KEY (project_id);

--
-- Name: project_relations project_relations_from_project_id_to_project_id_relation_ty_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_relations
    ADD CONSTRAINT project_relations_from_project_id_to_project_id_relation_ty_key UNIQUE (from_project_id, to_project_id, relation_type);

--
-- Name: project_relations project_relations_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_relations
    ADD CONSTRAINT project_relations_pkey PRIMARY KEY (id);

--
-- Name: project_stages project_stages_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_stages
    ADD CONSTRAINT project_stages_pkey PRIMARY KEY (project_id, stage);

--
-- Name: project_stages project_stages_project_id_seq_key; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_stages
    ADD CONSTRAINT project_stages_project_id_seq_key UNIQUE (project_id, seq);

--
-- Name: risks risks_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.risks
    ADD CONSTRAINT risks_pkey PRIMARY KEY (id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: task_dependencies task_dependencies_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_dependencies
    ADD CONSTRAINT task_dependencies_pkey PRIMARY KEY (task_id, depends_on_task_id);

--
-- Name: task_documents task_documents_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_documents
    ADD CONSTRAINT task_documents_pkey PRIMARY KEY (task_id, document_id);

--
-- Name: task_links task_links_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_links
    ADD CONSTRAINT task_links_pkey PRIMARY KEY (task_id, project_id);

--
-- Name: task_notes task_notes_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_notes
    ADD CONSTRAINT task_notes_pkey PRIMARY KEY (id);

--
-- Name: tasks tasks_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.tasks
    ADD CONSTRAINT tasks_pkey PRIMARY KEY (id);

--
-- Name: variations variations_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.variations
    ADD CONSTRAINT variations_pkey PRIMARY KEY (id);

--
-- Name: vendor_assignments vendor_assignments_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.vendor_assignments
    ADD CONSTRAINT vendor_assignments_pkey PRIMARY KEY (id);

--
-- Name: weekly_updates weekly_updates_pkey; Type: CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.weekly_updates
    ADD CONSTRAINT weekly_updates_pkey PRIMARY KEY (id);

--
-- Name: activity_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX activity_project ON construction.activity USING btree (project_id, created_at DESC, id DESC);

--
-- Name: approvals_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX approvals_project ON construction.approvals USING btree (project_id, subject_type, stage, status);

--
-- Name: approvals_subject; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX approvals_subject ON construction.approvals USING btree (subject_id) WHERE (subject_id IS NOT NULL);

--
-- Name: attachments_record; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX attachments_record ON construction.attachments USING btree (record_type, record_id, created_at, id);

--
-- Name: cost_events_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX cost_events_project ON construction.cost_events USING btree (project_id, occurred_on DESC, created_at DESC, id DESC);

--
-- Name: cost_events_reverses; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX cost_events_reverses ON construction.cost_events USING btree (reverses_id) WHERE (reverses_id IS NOT NULL);

--
-- Name: decisions_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX decisions_project ON construction.decisions USING btree (project_id, created_at);

--
-- Name: design_fees_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX design_fees_project ON construction.design_fees USING btree (project_id, vendor_id);

--
-- Name: design_fees_vendor; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX design_fees_vendor ON construction.design_fees USING btree (vendor_id, created_at, id);

--
-- Name: development_projects_code; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX development_projects_code ON construction.development_projects USING btree (lower(code));

--
-- Name: development_projects_portfolio; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX development_projects_portfolio ON construction.development_projects USING btree (status, stage, kind);

--
-- Name: document_impacts_document; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX document_impacts_document ON construction.document_impacts USING btree (document_id, number);

--
-- Name: document_links_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX document_links_project ON construction.document_links USING btree (project_id, document_id) WHERE (project_id IS NOT NULL);

--
-- Name: document_links_target; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX document_links_target ON construction.document_links USING btree (document_id, target_type, target_id, COALESCE(stage, ''::text));

--
-- Name: document_revisions_number; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX document_revisions_number ON construction.document_revisions USING btree (document_id, number) WHERE (number IS NOT NULL);

--
-- Name: document_trail_document; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX document_trail_document ON construction.document_trail USING btree (document_id, seq);

--
-- Name: documents_code; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX documents_code ON construction.documents USING btree (lower(code));

--
-- Name: fee_invoices_fee; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX fee_invoices_fee ON construction.fee_invoices USING btree (fee_id, invoiced_on DESC, created_at DESC, id DESC);

--
-- Name: fee_invoices_number; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX fee_invoices_number ON construction.fee_invoices USING btree (fee_id, lower(number));

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX idempotency_keys_created ON construction.idempotency_keys USING btree (created_at);

--
-- Name: milestones_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX milestones_project ON construction.milestones USING btree (project_id, forecast_date);

--
-- Name: outbox_published; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX outbox_published ON construction.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX outbox_unpublished ON construction.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: package_reports_package; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX package_reports_package ON construction.package_reports USING btree (package_id, reported_on DESC, created_at DESC);

--
-- Name: packages_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX packages_project ON construction.packages USING btree (project_id, created_at, id);

--
-- Name: project_relations_to; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX project_relations_to ON construction.project_relations USING btree (to_project_id);

--
-- Name: risks_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX risks_project ON construction.risks USING btree (project_id, created_at);

--
-- Name: task_dependencies_dependents; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX task_dependencies_dependents ON construction.task_dependencies USING btree (depends_on_task_id, task_id);

--
-- Name: task_links_one_primary; Type: INDEX; Schema: construction; Owner: -
--

CREATE UNIQUE INDEX task_links_one_primary ON construction.task_links USING btree (task_id) WHERE (relationship_type = 'primary'::text);

--
-- Name: task_links_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX task_links_project ON construction.task_links USING btree (project_id, task_id);

--
-- Name: task_notes_task; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX task_notes_task ON construction.task_notes USING btree (task_id, created_at, id);

--
-- Name: tasks_owner; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX tasks_owner ON construction.tasks USING btree (owner_fid) WHERE (owner_fid IS NOT NULL);

--
-- Name: tasks_package; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX tasks_package ON construction.tasks USING btree (package_id) WHERE (package_id IS NOT NULL);

--
-- Name: tasks_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX tasks_project ON construction.tasks USING btree (project_id, created_at, id);

--
-- Name: tasks_vendor; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX tasks_vendor ON construction.tasks USING btree (vendor_id) WHERE (vendor_id IS NOT NULL);

--
-- Name: variations_approval; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX variations_approval ON construction.variations USING btree (approval_id) WHERE (approval_id IS NOT NULL);

--
-- Name: variations_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX variations_project ON construction.variations USING btree (project_id, status);

--
-- Name: vendor_assignments_project_open; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX vendor_assignments_project_open ON construction.vendor_assignments USING btree (project_id, vendor_id) WHERE (ended_on IS NULL);

--
-- Name: vendor_assignments_vendor; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX vendor_assignments_vendor ON construction.vendor_assignments USING btree (vendor_id, ((ended_on IS NOT NULL)), created_at, id);

--
-- Name: weekly_updates_project; Type: INDEX; Schema: construction; Owner: -
--

CREATE INDEX weekly_updates_project ON construction.weekly_updates USING btree (project_id, created_at DESC, id DESC);

--
-- Name: baselines baselines_immutable; Type: TRIGGER; Schema: construction; Owner: -
--

CREATE TRIGGER baselines_immutable BEFORE DELETE OR UPDATE ON construction.baselines FOR EACH ROW EXECUTE FUNCTION construction.refuse_change();

--
-- Name: budget_lines budget_lines_totals; Type: TRIGGER; Schema: construction; Owner: -
--

CREATE TRIGGER budget_lines_totals AFTER INSERT OR DELETE OR UPDATE ON construction.budget_lines FOR EACH ROW EXECUTE FUNCTION construction.budget_lines_totals();

--
-- Name: cost_events cost_events_apply; Type: TRIGGER; Schema: construction; Owner: -
--

CREATE TRIGGER cost_events_apply AFTER INSERT ON construction.cost_events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION construction.cost_events_apply();

--
-- Name: cost_events cost_events_immutable; Type: TRIGGER; Schema: construction; Owner: -
--

CREATE TRIGGER cost_events_immutable BEFORE DELETE OR UPDATE ON construction.cost_events FOR EACH ROW EXECUTE FUNCTION construction.refuse_change();

--
-- Name: document_trail document_trail_append_only; Type: TRIGGER; Schema: construction; Owner: -
--

CREATE TRIGGER document_trail_append_only BEFORE DELETE OR UPDATE ON construction.document_trail FOR EACH ROW EXECUTE FUNCTION construction.refuse_change();

--
-- Name: activity activity_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.activity
    ADD CONSTRAINT activity_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: approval_reviewers approval_reviewers_approval_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.approval_reviewers
    ADD CONSTRAINT approval_reviewers_approval_id_fkey FOREIGN KEY (approval_id) REFERENCES construction.approvals(id);

--
-- Name: approvals approvals_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.approvals
    ADD CONSTRAINT approvals_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: baselines baselines_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.baselines
    ADD CONSTRAINT baselines_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: budget_lines budget_lines_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.budget_lines
    ADD CONSTRAINT budget_lines_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: cost_events cost_events_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.cost_events
    ADD CONSTRAINT cost_events_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: cost_events cost_events_reverses_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.cost_events
    ADD CONSTRAINT cost_events_reverses_id_fkey FOREIGN KEY (reverses_id) REFERENCES construction.cost_events(id);

--
-- Name: decision_alternatives decision_alternatives_decision_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decision_alternatives
    ADD CONSTRAINT decision_alternatives_decision_id_fkey FOREIGN KEY (decision_id) REFERENCES construction.decisions(id);

--
-- Name: decision_participants decision_participants_decision_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decision_participants
    ADD CONSTRAINT decision_participants_decision_id_fkey FOREIGN KEY (decision_id) REFERENCES construction.decisions(id);

--
-- Name: decisions decisions_id_alternative_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decisions
    ADD CONSTRAINT decisions_id_alternative_id_fkey FOREIGN KEY (id, alternative_id) REFERENCES construction.decision_alternatives(decision_id, id);

--
-- Name: decisions decisions_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.decisions
    ADD CONSTRAINT decisions_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: design_fees design_fees_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.design_fees
    ADD CONSTRAINT design_fees_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: document_impacts document_impacts_document_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_impacts
    ADD CONSTRAINT document_impacts_document_id_fkey FOREIGN KEY (document_id) REFERENCES construction.documents(id);

--
-- Name: document_impacts document_impacts_revision_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_impacts
    ADD CONSTRAINT document_impacts_revision_id_fkey FOREIGN KEY (revision_id) REFERENCES construction.document_revisions(id);

--
-- Name: document_impacts document_impacts_variation_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_impacts
    ADD CONSTRAINT document_impacts_variation_id_fkey FOREIGN KEY (variation_id) REFERENCES construction.variations(id);

--
-- Name: document_links document_links_document_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_links
    ADD CONSTRAINT document_links_document_id_fkey FOREIGN KEY (document_id) REFERENCES construction.documents(id);

--
-- Name: document_links document_links_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_links
    ADD CONSTRAINT document_links_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: document_revisions document_revisions_document_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_revisions
    ADD CONSTRAINT document_revisions_document_id_fkey FOREIGN KEY (document_id) REFERENCES construction.documents(id);

--
-- Name: document_trail document_trail_document_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_trail
    ADD CONSTRAINT document_trail_document_id_fkey FOREIGN KEY (document_id) REFERENCES construction.documents(id);

--
-- Name: document_trail document_trail_revision_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.document_trail
    ADD CONSTRAINT document_trail_revision_id_fkey FOREIGN KEY (revision_id) REFERENCES construction.document_revisions(id);

--
-- Name: fee_invoices fee_invoices_fee_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.fee_invoices
    ADD CONSTRAINT fee_invoices_fee_id_fkey FOREIGN KEY (fee_id) REFERENCES construction.design_fees(id);

--
-- Name: milestones milestones_driving_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.milestones
    ADD CONSTRAINT milestones_driving_project_id_fkey FOREIGN KEY (driving_project_id) REFERENCES construction.development_projects(id);

--
-- Name: milestones milestones_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.milestones
    ADD CONSTRAINT milestones_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: package_reports package_reports_package_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.package_reports
    ADD CONSTRAINT package_reports_package_id_fkey FOREIGN KEY (package_id) REFERENCES construction.packages(id);

--
-- Name: packages packages_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.packages
    ADD CONSTRAINT packages_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: project_awards project_awards_baseline_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_awards
    ADD CONSTRAINT project_awards_baseline_id_fkey FOREIGN KEY (baseline_id) REFERENCES construction.baselines(id);

--
-- Name: project_awards project_awards_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_awards
    ADD CONSTRAINT project_awards_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: project_relations project_relations_from_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_relations
    ADD CONSTRAINT project_relations_from_project_id_fkey FOREIGN KEY (from_project_id) REFERENCES construction.development_projects(id);

--
-- Name: project_relations project_relations_to_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_relations
    ADD CONSTRAINT project_relations_to_project_id_fkey FOREIGN KEY (to_project_id) REFERENCES construction.development_projects(id);

--
-- Name: project_stages project_stages_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.project_stages
    ADD CONSTRAINT project_stages_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: risks risks_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.risks
    ADD CONSTRAINT risks_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: task_dependencies task_dependencies_depends_on_task_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_dependencies
    ADD CONSTRAINT task_dependencies_depends_on_task_id_fkey FOREIGN KEY (depends_on_task_id) REFERENCES construction.tasks(id);

--
-- Name: task_dependencies task_dependencies_task_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_dependencies
    ADD CONSTRAINT task_dependencies_task_id_fkey FOREIGN KEY (task_id) REFERENCES construction.tasks(id);

--
-- Name: task_documents task_documents_document_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_documents
    ADD CONSTRAINT task_documents_document_id_fkey FOREIGN KEY (document_id) REFERENCES construction.documents(id);

--
-- Name: task_documents task_documents_revision_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_documents
    ADD CONSTRAINT task_documents_revision_id_fkey FOREIGN KEY (revision_id) REFERENCES construction.document_revisions(id);

--
-- Name: task_documents task_documents_task_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_documents
    ADD CONSTRAINT task_documents_task_id_fkey FOREIGN KEY (task_id) REFERENCES construction.tasks(id);

--
-- Name: task_links task_links_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_links
    ADD CONSTRAINT task_links_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: task_links task_links_task_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_links
    ADD CONSTRAINT task_links_task_id_fkey FOREIGN KEY (task_id) REFERENCES construction.tasks(id);

--
-- Name: task_notes task_notes_task_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.task_notes
    ADD CONSTRAINT task_notes_task_id_fkey FOREIGN KEY (task_id) REFERENCES construction.tasks(id);

--
-- Name: tasks tasks_package_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.tasks
    ADD CONSTRAINT tasks_package_id_fkey FOREIGN KEY (package_id) REFERENCES construction.packages(id);

--
-- Name: tasks tasks_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.tasks
    ADD CONSTRAINT tasks_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: variations variations_approval_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.variations
    ADD CONSTRAINT variations_approval_id_fkey FOREIGN KEY (approval_id) REFERENCES construction.approvals(id);

--
-- Name: variations variations_baseline_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.variations
    ADD CONSTRAINT variations_baseline_id_fkey FOREIGN KEY (baseline_id) REFERENCES construction.baselines(id);

--
-- Name: variations variations_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.variations
    ADD CONSTRAINT variations_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: variations variations_source_revision_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.variations
    ADD CONSTRAINT variations_source_revision_id_fkey FOREIGN KEY (source_revision_id) REFERENCES construction.document_revisions(id);

--
-- Name: vendor_assignments vendor_assignments_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.vendor_assignments
    ADD CONSTRAINT vendor_assignments_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- Name: weekly_updates weekly_updates_project_id_fkey; Type: FK CONSTRAINT; Schema: construction; Owner: -
--

ALTER TABLE ONLY construction.weekly_updates
    ADD CONSTRAINT weekly_updates_project_id_fkey FOREIGN KEY (project_id) REFERENCES construction.development_projects(id);

--
-- PostgreSQL database dump complete
--
