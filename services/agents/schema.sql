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
-- Name: agents; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA agents;

--
-- Name: write_brief_revisions(jsonb); Type: FUNCTION; Schema: agents; Owner: -
--

CREATE FUNCTION agents.write_brief_revisions(revs jsonb) RETURNS SETOF jsonb
    LANGUAGE plpgsql
    SET search_path TO 'agents', 'public'
    AS $$
DECLARE
  kept int[];
  kept_rows jsonb;
BEGIN
  -- Serializes every write of one recipient's day (the job, a paste, a retried draft), so
  -- revisions are numbered once and a concurrent paste and job never both stay published. Taken
  -- in key order, so two writers of several days never wait on each other in a cycle.
  PERFORM count(pg_advisory_xact_lock(hashtext(k))) FROM (
    SELECT DISTINCT 'brief:' || (r ->> 'recipient') || ':' || (r ->> 'brief_date') COLLATE "C" AS k
    FROM jsonb_array_elements(revs) AS r
    ORDER BY k
  ) AS days;

  SELECT coalesce(array_agg(i.ord), '{}'),
         coalesce(jsonb_agg(jsonb_build_object('ord', i.ord, 'kept', true, 'brief', to_jsonb(b))), '[]')
    INTO kept, kept_rows
  FROM jsonb_to_recordset(revs) AS i(ord int, recipient text, brief_date date, keep_published boolean)
  JOIN briefs AS b ON b.recipient = i.recipient AND b.brief_date = i.brief_date AND b.status = 'published'
  WHERE i.keep_published;

  -- The replaced rows leave the partial unique indexes before the new ones enter them;
  -- superseded_by names a row inserted next: the reference is checked at commit (DEFERRABLE).
  UPDATE briefs AS b SET status = 'superseded', superseded_by = i.id, superseded_at = i.created_at
  FROM jsonb_to_recordset(revs) AS i(ord int, id uuid, recipient text, brief_date date, status text, created_at timestamptz)
  WHERE i.ord <> ALL (kept)
    AND b.recipient = i.recipient AND b.brief_date = i.brief_date AND b.status <> 'superseded'
    AND (i.status = 'published' OR b.status = 'draft');

  RETURN QUERY SELECT jsonb_array_elements(kept_rows);
  RETURN QUERY
  WITH written AS (
    INSERT INTO briefs (id, recipient, brief_date, revision, text, status, origin, written_by, model, failure, created_at)
    SELECT i.id, i.recipient, i.brief_date,
      coalesce((SELECT max(d.revision) FROM briefs AS d WHERE d.recipient = i.recipient AND d.brief_date = i.brief_date), 0) + 1,
      i.text, i.status, i.origin, i.written_by, i.model, i.failure, i.created_at
    FROM jsonb_to_recordset(revs) AS i(ord int, id uuid, recipient text, brief_date date, text text, status text,
      origin text, written_by text, model text, failure text, created_at timestamptz)
    WHERE i.ord <> ALL (kept)
    RETURNING *
  )
  SELECT jsonb_build_object('ord', i.ord, 'kept', false, 'brief', to_jsonb(w))
  FROM written AS w JOIN jsonb_to_recordset(revs) AS i(ord int, id uuid) ON i.id = w.id;
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: action_sources; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.action_sources (
    action_id uuid NOT NULL,
    source_id uuid NOT NULL,
    kind text NOT NULL,
    read_in_run boolean NOT NULL,
    CONSTRAINT action_sources_kind_check CHECK ((kind = ANY (ARRAY['evidence'::text, 'insight'::text, 'message'::text])))
);

--
-- Name: agent_actions; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agent_actions (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    action text NOT NULL,
    run_id uuid,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT agent_actions_action_check CHECK ((action = ANY (ARRAY['send_email'::text, 'send_sms'::text, 'send_announcement'::text, 'git_commit'::text, 'open_pull_request'::text])))
);

--
-- Name: agent_inbox; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agent_inbox (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    seq bigint NOT NULL,
    reason text NOT NULL,
    ref text,
    wake_key text,
    queued_by text NOT NULL,
    queued_at timestamp with time zone NOT NULL,
    drained_at timestamp with time zone,
    CONSTRAINT agent_inbox_reason_check CHECK ((reason = ANY (ARRAY['comms'::text, 'dream'::text, 'harvest'::text, 'manual'::text])))
);

--
-- Name: agent_inbox_seq_seq; Type: SEQUENCE; Schema: agents; Owner: -
--

CREATE SEQUENCE agents.agent_inbox_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: agent_inbox_seq_seq; Type: SEQUENCE OWNED BY; Schema: agents; Owner: -
--

ALTER SEQUENCE agents.agent_inbox_seq_seq OWNED BY agents.agent_inbox.seq;

--
-- Name: agent_logs; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agent_logs (
    id bigint NOT NULL,
    agent_id uuid NOT NULL,
    kind text NOT NULL,
    message text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT agent_logs_kind_check CHECK ((kind = ANY (ARRAY['started'::text, 'heartbeat'::text, 'wake'::text, 'error'::text, 'skill'::text, 'info'::text, 'warn'::text])))
);

--
-- Name: agent_logs_id_seq; Type: SEQUENCE; Schema: agents; Owner: -
--

ALTER TABLE agents.agent_logs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME agents.agent_logs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: agent_members; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agent_members (
    agent_id uuid NOT NULL,
    principal_fid text NOT NULL,
    role text NOT NULL,
    seq bigint NOT NULL,
    added_at timestamp with time zone NOT NULL,
    CONSTRAINT agent_members_role_check CHECK ((role = ANY (ARRAY['editor'::text, 'viewer'::text])))
);

--
-- Name: agent_members_seq_seq; Type: SEQUENCE; Schema: agents; Owner: -
--

CREATE SEQUENCE agents.agent_members_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: agent_members_seq_seq; Type: SEQUENCE OWNED BY; Schema: agents; Owner: -
--

ALTER SEQUENCE agents.agent_members_seq_seq OWNED BY agents.agent_members.seq;

--
-- Name: agent_memories; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agent_memories (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    content text NOT NULL,
    tier text NOT NULL,
    source text NOT NULL,
    created_by text NOT NULL,
    recall_count integer DEFAULT 0 NOT NULL,
    last_recalled_at timestamp with time zone,
    merged_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT agent_memories_source_check CHECK ((source = ANY (ARRAY['agent'::text, 'person'::text]))),
    CONSTRAINT agent_memories_tier_check CHECK ((tier = ANY (ARRAY['core'::text, 'archive'::text])))
);

--
-- Name: agent_runs; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agent_runs (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    inbox_item_id uuid,
    reason text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    outcome text NOT NULL,
    turns integer NOT NULL,
    model text,
    summary text,
    recorded_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT agent_runs_check CHECK ((finished_at >= started_at)),
    CONSTRAINT agent_runs_outcome_check CHECK ((outcome = ANY (ARRAY['completed'::text, 'failed'::text, 'max_turns'::text]))),
    CONSTRAINT agent_runs_reason_check CHECK ((reason = ANY (ARRAY['comms'::text, 'dream'::text, 'harvest'::text, 'manual'::text, 'on_demand'::text]))),
    CONSTRAINT agent_runs_turns_check CHECK ((turns >= 0))
);

--
-- Name: agents; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.agents (
    id uuid NOT NULL,
    slug text NOT NULL,
    name text,
    instructions text,
    project_id uuid,
    practice text,
    conversation_id text,
    owner_fid text NOT NULL,
    created_by text NOT NULL,
    email text NOT NULL,
    last_heartbeat_at timestamp with time zone,
    lifetime text DEFAULT 'persistent'::text NOT NULL,
    run_type text DEFAULT 'always_on'::text NOT NULL,
    child_kind text,
    parent_id uuid,
    top_id uuid NOT NULL,
    swarm_id uuid,
    repository text,
    status text DEFAULT 'active'::text NOT NULL,
    desired_state text DEFAULT 'stopped'::text NOT NULL,
    generation integer DEFAULT 1 NOT NULL,
    observed_generation integer,
    observed_state text,
    runner_error text,
    reconciled_at timestamp with time zone,
    model text DEFAULT 'auto'::text NOT NULL,
    memory_model text DEFAULT 'auto'::text NOT NULL,
    harness_id text NOT NULL,
    max_turns integer DEFAULT 10 NOT NULL,
    skills jsonb DEFAULT '[]'::jsonb NOT NULL,
    tools jsonb DEFAULT '[]'::jsonb NOT NULL,
    contributes_to_knowledge boolean DEFAULT false NOT NULL,
    workspace_conversation_id text,
    call_secret_hash text,
    ttl_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT agents_child_kind_check CHECK ((child_kind = ANY (ARRAY['swarm'::text, 'coding'::text]))),
    CONSTRAINT agents_desired_state_check CHECK ((desired_state = ANY (ARRAY['stopped'::text, 'running'::text, 'completed'::text]))),
    CONSTRAINT agents_lifetime_check CHECK ((lifetime = ANY (ARRAY['persistent'::text, 'ephemeral'::text]))),
    CONSTRAINT agents_max_turns_check CHECK ((max_turns >= 10)),
    CONSTRAINT agents_run_type_check CHECK ((run_type = ANY (ARRAY['always_on'::text, 'on_demand'::text]))),
    CONSTRAINT agents_status_check CHECK ((status = ANY (ARRAY['active'::text, 'expired'::text, 'archive'::text])))
);

--
-- Name: audit_log; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.audit_log (
    id uuid NOT NULL,
    event_type text NOT NULL,
    domain text NOT NULL,
    actor text NOT NULL,
    entity text NOT NULL,
    agent_id uuid,
    sentence text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    recorded_at timestamp with time zone NOT NULL,
    recorded_by text NOT NULL,
    CONSTRAINT audit_log_recorded_by_check CHECK ((recorded_by = ANY (ARRAY['publisher'::text, 'listener'::text])))
);

--
-- Name: brief_feedback; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.brief_feedback (
    id uuid NOT NULL,
    brief_id uuid NOT NULL,
    kind text NOT NULL,
    note text,
    given_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT brief_feedback_kind_check CHECK ((kind = ANY (ARRAY['wrong_scope'::text, 'immaterial'::text, 'already_resolved'::text, 'missing'::text, 'ungrounded'::text, 'useful'::text]))),
    CONSTRAINT brief_feedback_note_check CHECK (((note IS NULL) OR ((char_length(note) >= 1) AND (char_length(note) <= 2000))))
);

--
-- Name: briefs; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.briefs (
    id uuid NOT NULL,
    recipient text NOT NULL,
    brief_date date NOT NULL,
    revision integer NOT NULL,
    text text NOT NULL,
    status text NOT NULL,
    origin text NOT NULL,
    written_by text NOT NULL,
    model text,
    failure text,
    created_at timestamp with time zone NOT NULL,
    superseded_by uuid,
    superseded_at timestamp with time zone,
    CONSTRAINT briefs_check CHECK (((status = 'superseded'::text) = ((superseded_by IS NOT NULL) AND (superseded_at IS NOT NULL)))),
    CONSTRAINT briefs_check1 CHECK (((origin = 'job'::text) OR (failure IS NULL))),
    CONSTRAINT briefs_origin_check CHECK ((origin = ANY (ARRAY['job'::text, 'pasted'::text]))),
    CONSTRAINT briefs_recipient_check CHECK (((recipient = lower(recipient)) AND ((char_length(recipient) >= 3) AND (char_length(recipient) <= 320)))),
    CONSTRAINT briefs_revision_check CHECK ((revision >= 1)),
    CONSTRAINT briefs_status_check CHECK ((status = ANY (ARRAY['published'::text, 'draft'::text, 'superseded'::text])))
);

--
-- Name: coaching_feedback; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.coaching_feedback (
    report_id uuid NOT NULL,
    point_id text NOT NULL,
    person_email text NOT NULL,
    useful boolean NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: coaching_reports; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.coaching_reports (
    id uuid NOT NULL,
    person_email text NOT NULL,
    week_start date NOT NULL,
    report jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: coaching_settings; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.coaching_settings (
    person_email text NOT NULL,
    enabled boolean NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.idempotency_keys (
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
-- Name: outbox; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: agents; Owner: -
--

CREATE SEQUENCE agents.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: agents; Owner: -
--

ALTER SEQUENCE agents.outbox_id_seq OWNED BY agents.outbox.id;

--
-- Name: pm_cache; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.pm_cache (
    kind text NOT NULL,
    key text NOT NULL,
    value jsonb NOT NULL,
    fetched_at timestamp with time zone NOT NULL
);

--
-- Name: pm_tool_days; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.pm_tool_days (
    agent_id uuid NOT NULL,
    tool text NOT NULL,
    day date NOT NULL,
    calls integer DEFAULT 0 NOT NULL,
    CONSTRAINT pm_tool_days_tool_check CHECK ((tool = ANY (ARRAY['apply_unit_mapping'::text, 'fill_pms_emails_from_directory'::text])))
);

--
-- Name: pm_tool_results; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.pm_tool_results (
    agent_id uuid NOT NULL,
    tool text NOT NULL,
    day date NOT NULL,
    subject text NOT NULL,
    result jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: research_checkpoints; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.research_checkpoints (
    agent_id uuid NOT NULL,
    scan_id text NOT NULL,
    "position" bigint NOT NULL,
    version integer NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT research_checkpoints_position_check CHECK (("position" >= 0)),
    CONSTRAINT research_checkpoints_version_check CHECK ((version >= 1))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: skill_versions; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.skill_versions (
    id uuid NOT NULL,
    skill_id uuid NOT NULL,
    number integer NOT NULL,
    source text NOT NULL,
    markdown text,
    document_id text,
    blob_name text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT skill_versions_number_check CHECK ((number >= 1)),
    CONSTRAINT skill_versions_source_check CHECK ((source = ANY (ARRAY['markdown'::text, 'document'::text, 'blob'::text])))
);

--
-- Name: skills; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.skills (
    id uuid NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    category text DEFAULT ''::text NOT NULL,
    owner_fid text NOT NULL,
    owner_email text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: tracker_claims; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.tracker_claims (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    issue_key text NOT NULL,
    repository text NOT NULL,
    branch text NOT NULL,
    path_prefix text,
    coding_agent_id uuid NOT NULL,
    pull_request_url text,
    comment_id text,
    reported_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT tracker_claims_check CHECK (((reported_at IS NULL) = (pull_request_url IS NULL))),
    CONSTRAINT tracker_claims_repository_check CHECK ((repository = ANY (ARRAY['deepsky'::text, 'platform'::text])))
);

--
-- Name: tracker_recommendations; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.tracker_recommendations (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    issue_key text NOT NULL,
    text text NOT NULL,
    comment_id text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: transcript_reviews; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.transcript_reviews (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    record_id text NOT NULL,
    source_version text NOT NULL,
    sequence integer NOT NULL,
    meeting_date date NOT NULL,
    summary text,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT transcript_reviews_sequence_check CHECK ((sequence >= 0))
);

--
-- Name: agent_inbox seq; Type: DEFAULT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_inbox ALTER COLUMN seq SET DEFAULT nextval('agents.agent_inbox_seq_seq'::regclass);

--
-- Name: agent_members seq; Type: DEFAULT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_members ALTER COLUMN seq SET DEFAULT nextval('agents.agent_members_seq_seq'::regclass);

--
-- Name: outbox id; Type: DEFAULT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.outbox ALTER COLUMN id SET DEFAULT nextval('agents.outbox_id_seq'::regclass);

--
-- Name: action_sources action_sources_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.action_sources
    ADD CONSTRAINT action_sources_pkey PRIMARY KEY (action_id, source_id);

--
-- Name: agent_actions agent_actions_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_actions
    ADD CONSTRAINT agent_actions_pkey PRIMARY KEY (id);

--
-- Name: agent_inbox agent_inbox_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_inbox
    ADD CONSTRAINT agent_inbox_pkey PRIMARY KEY (id);

--
-- Name: agent_logs agent_logs_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_logs
    ADD CONSTRAINT agent_logs_pkey PRIMARY KEY (id);

--
-- Name: agent_members agent_members_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_members
    ADD CONSTRAINT agent_members_pkey PRIMARY KEY (agent_id, principal_fid);

--
-- Name: agent_memories agent_memories_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_memories
    ADD CONSTRAINT agent_memories_pkey PRIMARY KEY (id);

--
-- Name: agent_runs agent_runs_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_runs
    ADD CONSTRAINT agent_runs_pkey PRIMARY KEY (id);

--
-- Name: agents agents_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agents
    ADD CONSTRAINT agents_pkey PRIMARY KEY (id);

--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);

--
-- Name: brief_feedback brief_feedback_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.brief_feedback
    ADD CONSTRAINT brief_feedback_pkey PRIMARY KEY (id);

--
-- Name: briefs briefs_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.briefs
    ADD CONSTRAINT briefs_pkey PRIMARY KEY (id);

--
-- Name: briefs briefs_recipient_brief_date_revision_key; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.briefs
    ADD CONSTRAINT briefs_recipient_brief_date_revision_key UNIQUE (recipient, brief_date, revision);

--
-- Name: coaching_feedback coaching_feedback_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.coaching_feedback
    ADD CONSTRAINT coaching_feedback_pkey PRIMARY KEY (report_id, point_id);

--
-- Name: coaching_reports coaching_reports_person_email_week_start_key; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.coaching_reports
    ADD CONSTRAINT coaching_reports_person_email_week_start_key UNIQUE (person_email, week_start);

--
-- Name: coaching_reports coaching_reports_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.coaching_reports
    ADD CONSTRAINT coaching_reports_pkey PRIMARY KEY (id);

--
-- Name: coaching_settings coaching_settings_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.coaching_settings
    ADD CONSTRAINT coaching_settings_pkey PRIMARY KEY (person_email);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: pm_cache pm_cache_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.pm_cache
    ADD CONSTRAINT pm_cache_pkey PRIMARY KEY (kind, key);

--
-- Name: pm_tool_days pm_tool_days_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.pm_tool_days
    ADD CONSTRAINT pm_tool_days_pkey PRIMARY KEY (agent_id, tool, day);

--
-- Name: pm_tool_results pm_tool_results_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.pm_tool_results
    ADD CONSTRAINT pm_tool_results_pkey PRIMARY KEY (agent_id, tool, day, subject);

--
-- Name: research_checkpoints research_checkpoints_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.research_checkpoints
    ADD CONSTRAINT research_checkpoints_pkey PRIMARY KEY (agent_id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: skill_versions skill_versions_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.skill_versions
    ADD CONSTRAINT skill_versions_pkey PRIMARY KEY (id);

--
-- Name: skill_versions skill_versions_skill_id_number_key; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.skill_versions
    ADD CONSTRAINT skill_versions_skill_id_number_key UNIQUE (skill_id, number);

--
-- Name: skills skills_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.skills
    ADD CONSTRAINT skills_pkey PRIMARY KEY (id);

--
-- Name: tracker_claims tracker_claims_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.tracker_claims
    ADD CONSTRAINT tracker_claims_pkey PRIMARY KEY (id);

--
-- Name: tracker_recommendations tracker_recommendations_agent_id_issue_key_key; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.tracker_recommendations
    ADD CONSTRAINT tracker_recommendations_agent_id_issue_key_key UNIQUE (agent_id, issue_key);

--
-- Name: tracker_recommendations tracker_recommendations_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.tracker_recommendations
    ADD CONSTRAINT tracker_recommendations_pkey PRIMARY KEY (id);

--
-- Name: transcript_reviews transcript_reviews_agent_id_record_id_source_version_sequen_key; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.transcript_reviews
    ADD CONSTRAINT transcript_reviews_agent_id_record_id_source_version_sequen_key UNIQUE (agent_id, record_id, source_version, sequence);

--
-- Name: transcript_reviews transcript_reviews_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.transcript_reviews
    ADD CONSTRAINT transcript_reviews_pkey PRIMARY KEY (id);

--
-- Name: action_sources_source; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX action_sources_source ON agents.action_sources USING btree (source_id, action_id);

--
-- Name: agent_actions_agent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_actions_agent ON agents.agent_actions USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: agent_inbox_key; Type: INDEX; Schema: agents; Owner: -
--

CREATE UNIQUE INDEX agent_inbox_key ON agents.agent_inbox USING btree (agent_id, wake_key);

--
-- Name: agent_inbox_waiting; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_inbox_waiting ON agents.agent_inbox USING btree (agent_id, seq) WHERE (drained_at IS NULL);

--
-- Name: agent_inbox_waiting_reason; Type: INDEX; Schema: agents; Owner: -
--

CREATE UNIQUE INDEX agent_inbox_waiting_reason ON agents.agent_inbox USING btree (agent_id, reason) WHERE ((wake_key IS NULL) AND (drained_at IS NULL));

--
-- Name: agent_logs_agent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_logs_agent ON agents.agent_logs USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: agent_members_principal; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_members_principal ON agents.agent_members USING btree (principal_fid, agent_id);

--
-- Name: agent_memories_agent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_memories_agent ON agents.agent_memories USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: agent_runs_history; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_runs_history ON agents.agent_runs USING btree (agent_id, started_at DESC, id DESC);

--
-- Name: agent_runs_inbox_item; Type: INDEX; Schema: agents; Owner: -
--

CREATE UNIQUE INDEX agent_runs_inbox_item ON agents.agent_runs USING btree (inbox_item_id) WHERE (inbox_item_id IS NOT NULL);

--
-- Name: agents_owner; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_owner ON agents.agents USING btree (owner_fid);

--
-- Name: agents_parent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_parent ON agents.agents USING btree (parent_id, created_at DESC);

--
-- Name: agents_running; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_running ON agents.agents USING btree (id) WHERE (desired_state = 'running'::text);

--
-- Name: agents_slug; Type: INDEX; Schema: agents; Owner: -
--

CREATE UNIQUE INDEX agents_slug ON agents.agents USING btree (slug);

--
-- Name: agents_swarm; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_swarm ON agents.agents USING btree (swarm_id) WHERE (swarm_id IS NOT NULL);

--
-- Name: agents_top; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_top ON agents.agents USING btree (top_id);

--
-- Name: agents_unreconciled; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_unreconciled ON agents.agents USING btree (id) WHERE ((observed_generation IS DISTINCT FROM generation) OR (observed_state IS DISTINCT FROM desired_state));

--
-- Name: audit_log_agent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX audit_log_agent ON agents.audit_log USING btree (agent_id);

--
-- Name: audit_log_entity; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX audit_log_entity ON agents.audit_log USING btree (entity);

--
-- Name: audit_log_occurred; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX audit_log_occurred ON agents.audit_log USING btree (occurred_at DESC, id DESC);

--
-- Name: brief_feedback_brief; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX brief_feedback_brief ON agents.brief_feedback USING btree (brief_id, created_at);

--
-- Name: briefs_day; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX briefs_day ON agents.briefs USING btree (brief_date, recipient) WHERE (status <> 'superseded'::text);

--
-- Name: briefs_draft; Type: INDEX; Schema: agents; Owner: -
--

CREATE UNIQUE INDEX briefs_draft ON agents.briefs USING btree (recipient, brief_date) WHERE (status = 'draft'::text);

--
-- Name: briefs_published; Type: INDEX; Schema: agents; Owner: -
--

CREATE UNIQUE INDEX briefs_published ON agents.briefs USING btree (recipient, brief_date) WHERE (status = 'published'::text);

--
-- Name: coaching_feedback_person; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX coaching_feedback_person ON agents.coaching_feedback USING btree (person_email);

--
-- Name: coaching_reports_latest; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX coaching_reports_latest ON agents.coaching_reports USING btree (person_email, week_start DESC);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX idempotency_keys_created ON agents.idempotency_keys USING btree (created_at);

--
-- Name: outbox_published; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX outbox_published ON agents.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX outbox_unpublished ON agents.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: skills_created; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX skills_created ON agents.skills USING btree (created_at DESC, id DESC);

--
-- Name: tracker_claims_agent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX tracker_claims_agent ON agents.tracker_claims USING btree (agent_id, issue_key, created_at DESC);

--
-- Name: tracker_claims_coding_agent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX tracker_claims_coding_agent ON agents.tracker_claims USING btree (coding_agent_id);

--
-- Name: transcript_reviews_meetings; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX transcript_reviews_meetings ON agents.transcript_reviews USING btree (agent_id, meeting_date DESC, id DESC);

--
-- Name: action_sources action_sources_action_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.action_sources
    ADD CONSTRAINT action_sources_action_id_fkey FOREIGN KEY (action_id) REFERENCES agents.agent_actions(id) ON DELETE CASCADE;

--
-- Name: agent_actions agent_actions_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_actions
    ADD CONSTRAINT agent_actions_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agent_inbox agent_inbox_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_inbox
    ADD CONSTRAINT agent_inbox_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agent_logs agent_logs_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_logs
    ADD CONSTRAINT agent_logs_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agent_members agent_members_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_members
    ADD CONSTRAINT agent_members_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agent_memories agent_memories_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_memories
    ADD CONSTRAINT agent_memories_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agent_runs agent_runs_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_runs
    ADD CONSTRAINT agent_runs_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agent_runs agent_runs_inbox_item_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_runs
    ADD CONSTRAINT agent_runs_inbox_item_id_fkey FOREIGN KEY (inbox_item_id) REFERENCES agents.agent_inbox(id) ON DELETE SET NULL;

--
-- Name: agents agents_parent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agents
    ADD CONSTRAINT agents_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: brief_feedback brief_feedback_brief_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.brief_feedback
    ADD CONSTRAINT brief_feedback_brief_id_fkey FOREIGN KEY (brief_id) REFERENCES agents.briefs(id);

--
-- Name: briefs briefs_superseded_by_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.briefs
    ADD CONSTRAINT briefs_superseded_by_fkey FOREIGN KEY (superseded_by) REFERENCES agents.briefs(id) DEFERRABLE INITIALLY DEFERRED;

--
-- Name: coaching_feedback coaching_feedback_report_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.coaching_feedback
    ADD CONSTRAINT coaching_feedback_report_id_fkey FOREIGN KEY (report_id) REFERENCES agents.coaching_reports(id) ON DELETE CASCADE;

--
-- Name: pm_tool_days pm_tool_days_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.pm_tool_days
    ADD CONSTRAINT pm_tool_days_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: pm_tool_results pm_tool_results_agent_id_tool_day_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.pm_tool_results
    ADD CONSTRAINT pm_tool_results_agent_id_tool_day_fkey FOREIGN KEY (agent_id, tool, day) REFERENCES agents.pm_tool_days(agent_id, tool, day) ON DELETE CASCADE;

--
-- Name: research_checkpoints research_checkpoints_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.research_checkpoints
    ADD CONSTRAINT research_checkpoints_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: skill_versions skill_versions_skill_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.skill_versions
    ADD CONSTRAINT skill_versions_skill_id_fkey FOREIGN KEY (skill_id) REFERENCES agents.skills(id) ON DELETE CASCADE;

--
-- Name: tracker_claims tracker_claims_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.tracker_claims
    ADD CONSTRAINT tracker_claims_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: tracker_claims tracker_claims_coding_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.tracker_claims
    ADD CONSTRAINT tracker_claims_coding_agent_id_fkey FOREIGN KEY (coding_agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: tracker_recommendations tracker_recommendations_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.tracker_recommendations
    ADD CONSTRAINT tracker_recommendations_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: transcript_reviews transcript_reviews_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.transcript_reviews
    ADD CONSTRAINT transcript_reviews_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
