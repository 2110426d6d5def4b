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
-- Name: workspace; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA workspace;

--
-- Name: conversation_turns_append_only(); Type: FUNCTION; Schema: workspace; Owner: -
--

CREATE FUNCTION workspace.conversation_turns_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW.text IS NULL AND NEW.redacted_at IS NOT NULL
     AND NEW.conversation_id = OLD.conversation_id AND NEW.seq = OLD.seq
     AND NEW.turn_kind = OLD.turn_kind AND NEW.author = OLD.author
     AND NEW.extra = OLD.extra AND NEW.written_by = OLD.written_by
     AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'conversation turns are append-only (a redaction destroys only the text)'
    USING ERRCODE = 'integrity_constraint_violation';
END $$;

--
-- Name: evidence_utterances_append_only(); Type: FUNCTION; Schema: workspace; Owner: -
--

CREATE FUNCTION workspace.evidence_utterances_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM evidence WHERE id = OLD.evidence_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'evidence utterances are append-only'
    USING ERRCODE = 'integrity_constraint_violation';
END $$;

--
-- Name: goal_checkins_are_permanent(); Type: FUNCTION; Schema: workspace; Owner: -
--

CREATE FUNCTION workspace.goal_checkins_are_permanent() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  RAISE EXCEPTION 'goal check-ins are permanent' USING ERRCODE = 'integrity_constraint_violation';
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: activity; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.activity (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    kind text NOT NULL,
    subject_id uuid,
    actor text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    "position" bigint NOT NULL
);

--
-- Name: activity_heads; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.activity_heads (
    project_id uuid NOT NULL,
    "position" bigint NOT NULL
);

--
-- Name: agent_sessions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.agent_sessions (
    id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    agent text NOT NULL,
    status text NOT NULL,
    started_by text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    last_heartbeat_at timestamp with time zone NOT NULL,
    heartbeats integer DEFAULT 0 NOT NULL,
    ended_at timestamp with time zone,
    ended_by text,
    CONSTRAINT agent_sessions_status_check CHECK ((status = ANY (ARRAY['active'::text, 'ended'::text, 'expired'::text])))
);

--
-- Name: audit_log; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.audit_log (
    id bigint NOT NULL,
    event_id uuid NOT NULL,
    domain text NOT NULL,
    event_type text NOT NULL,
    source text NOT NULL,
    actor text,
    project_id uuid,
    summary text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    recorded_at timestamp with time zone NOT NULL
);

--
-- Name: audit_log_id_seq; Type: SEQUENCE; Schema: workspace; Owner: -
--

CREATE SEQUENCE workspace.audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: audit_log_id_seq; Type: SEQUENCE OWNED BY; Schema: workspace; Owner: -
--

ALTER SEQUENCE workspace.audit_log_id_seq OWNED BY workspace.audit_log.id;

--
-- Name: break_glass_grants; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.break_glass_grants (
    id uuid NOT NULL,
    person text NOT NULL,
    granted_by text NOT NULL,
    reason text NOT NULL,
    granted_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    expired_at timestamp with time zone,
    CONSTRAINT break_glass_grants_check CHECK ((expires_at > granted_at))
);

--
-- Name: case_amounts; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.case_amounts (
    id uuid NOT NULL,
    case_id uuid NOT NULL,
    project_id uuid NOT NULL,
    stage text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    tied_to_correction boolean,
    recorded_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT case_amounts_amount_check CHECK ((amount >= 0)),
    CONSTRAINT case_amounts_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT case_amounts_stage_check CHECK ((stage = ANY (ARRAY['identified'::text, 'approved'::text, 'posted'::text, 'collected'::text]))),
    CONSTRAINT case_amounts_tied CHECK (((stage = 'collected'::text) = (tied_to_correction IS NOT NULL)))
);

--
-- Name: cases; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.cases (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    subject text NOT NULL,
    subject_key text NOT NULL,
    owner text NOT NULL,
    evidence jsonb DEFAULT '[]'::jsonb NOT NULL,
    proposed_correction text NOT NULL,
    still_to_check text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'needs_validation'::text NOT NULL,
    dismissal_reason text,
    verification_method text,
    expected_currency text,
    expected_one_off bigint,
    expected_recurring_monthly bigint,
    expected_recurring_months integer,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    status_changed_at timestamp with time zone NOT NULL,
    CONSTRAINT cases_dismissal_reason CHECK (((status = 'dismissed'::text) = (dismissal_reason IS NOT NULL))),
    CONSTRAINT cases_expected_currency_check CHECK ((expected_currency ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT cases_expected_one_off_check CHECK ((expected_one_off >= 0)),
    CONSTRAINT cases_expected_recurring_monthly_check CHECK ((expected_recurring_monthly >= 0)),
    CONSTRAINT cases_expected_recurring_months_check CHECK (((expected_recurring_months >= 0) AND (expected_recurring_months <= 120))),
    CONSTRAINT cases_expected_value CHECK ((((expected_currency IS NULL) AND (expected_one_off IS NULL) AND (expected_recurring_monthly IS NULL) AND (expected_recurring_months IS NULL)) OR ((expected_currency IS NOT NULL) AND (expected_one_off IS NOT NULL) AND (expected_recurring_monthly IS NOT NULL) AND (expected_recurring_months IS NOT NULL)))),
    CONSTRAINT cases_status_check CHECK ((status = ANY (ARRAY['needs_validation'::text, 'accepted'::text, 'in_progress'::text, 'verified'::text, 'dismissed'::text]))),
    CONSTRAINT cases_verification_method CHECK (((status = 'verified'::text) = (verification_method IS NOT NULL)))
);

--
-- Name: chat_question_channel_cursor; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.chat_question_channel_cursor (
    channel text NOT NULL,
    latest_ts text NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: chat_question_messages; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.chat_question_messages (
    request_id uuid NOT NULL,
    day date NOT NULL,
    recipient text NOT NULL,
    slack_user text NOT NULL,
    channel text,
    ts text,
    posted_at timestamp with time zone NOT NULL
);

--
-- Name: chat_question_replies; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.chat_question_replies (
    channel text NOT NULL,
    ts text NOT NULL,
    slack_user text NOT NULL,
    request_id uuid,
    via text NOT NULL,
    outcome text NOT NULL,
    read_at timestamp with time zone NOT NULL,
    CONSTRAINT chat_question_replies_outcome_check CHECK ((outcome = ANY (ARRAY['answered'::text, 'not_open'::text, 'no_question'::text, 'refused'::text]))),
    CONSTRAINT chat_question_replies_via_check CHECK ((via = ANY (ARRAY['thread'::text, 'direct'::text])))
);

--
-- Name: connector_cursors; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.connector_cursors (
    connector text NOT NULL,
    cursor jsonb NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT connector_cursors_connector_check CHECK (((char_length(connector) >= 1) AND (char_length(connector) <= 300)))
);

--
-- Name: context_packs; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.context_packs (
    project_id uuid NOT NULL,
    "position" bigint NOT NULL,
    change_seq bigint NOT NULL,
    content jsonb NOT NULL,
    summary text,
    degraded boolean NOT NULL,
    built_at timestamp with time zone NOT NULL
);

--
-- Name: conversation_files; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.conversation_files (
    id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    project_id uuid,
    document_id uuid NOT NULL,
    filename text DEFAULT ''::text NOT NULL,
    content_type text,
    size_bytes bigint,
    turn_seq integer,
    saved_by text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: conversation_suggestion_resolutions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.conversation_suggestion_resolutions (
    conversation_id uuid NOT NULL,
    project_id uuid NOT NULL,
    decision text NOT NULL,
    resolved_by text NOT NULL,
    resolved_at timestamp with time zone NOT NULL,
    CONSTRAINT conversation_suggestion_resolutions_decision_check CHECK ((decision = ANY (ARRAY['accept'::text, 'dismiss'::text])))
);

--
-- Name: conversation_turns; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.conversation_turns (
    conversation_id uuid NOT NULL,
    seq integer NOT NULL,
    turn_kind text NOT NULL,
    author text NOT NULL,
    text text,
    extra jsonb DEFAULT '{}'::jsonb NOT NULL,
    written_by text NOT NULL,
    redacted_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT conversation_turns_seq_check CHECK ((seq >= 1)),
    CONSTRAINT conversation_turns_turn_kind_check CHECK ((turn_kind = ANY (ARRAY['utterance'::text, 'lookup'::text, 'output'::text, 'system'::text])))
);

--
-- Name: conversations; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.conversations (
    id uuid NOT NULL,
    project_id uuid,
    title text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    contributes_to_knowledge boolean DEFAULT true NOT NULL,
    created_by text NOT NULL,
    last_seq integer DEFAULT 0 NOT NULL,
    utterance_count integer DEFAULT 0 NOT NULL,
    last_turn_at timestamp with time zone,
    last_activity_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT conversations_status_check CHECK ((status = ANY (ARRAY['active'::text, 'archived'::text])))
);

--
-- Name: data_sources; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.data_sources (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    reference text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT data_sources_kind_check CHECK ((kind = ANY (ARRAY['document'::text, 'folder'::text, 'repository'::text, 'channel'::text, 'mailbox'::text, 'spreadsheet'::text, 'database'::text, 'website'::text]))),
    CONSTRAINT data_sources_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT data_sources_reference_check CHECK (((char_length(reference) >= 1) AND (char_length(reference) <= 2000)))
);

--
-- Name: decisions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.decisions (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    detail text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'proposed'::text NOT NULL,
    proposed_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    approved_by text,
    approved_at timestamp with time zone,
    supersedes uuid,
    superseded_by uuid,
    archived_at timestamp with time zone,
    updated_at timestamp with time zone,
    CONSTRAINT decisions_check CHECK ((((status <> ALL (ARRAY['approved'::text, 'superseded'::text])) OR ((approved_at IS NOT NULL) AND (approved_by IS NOT NULL))) AND ((status <> 'proposed'::text) OR ((approved_at IS NULL) AND (approved_by IS NULL))))),
    CONSTRAINT decisions_status_check CHECK ((status = ANY (ARRAY['proposed'::text, 'approved'::text, 'superseded'::text, 'archived'::text]))),
    CONSTRAINT decisions_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 200)))
);

--
-- Name: digests; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.digests (
    project_id uuid NOT NULL,
    principal text NOT NULL,
    since_position bigint NOT NULL,
    "position" bigint NOT NULL,
    since timestamp with time zone,
    counts jsonb NOT NULL,
    total integer NOT NULL,
    computed_at timestamp with time zone NOT NULL,
    line text,
    line_failed boolean DEFAULT false NOT NULL
);

--
-- Name: evidence; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence (
    id uuid NOT NULL,
    kind text NOT NULL,
    source text NOT NULL,
    external_ref text,
    document_id text,
    device_serial text,
    author text NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    body text,
    project_id uuid,
    live boolean DEFAULT false NOT NULL,
    live_slices integer,
    transcription_status text DEFAULT 'none'::text NOT NULL,
    last_seq integer DEFAULT 0 NOT NULL,
    transcript_first_seq integer DEFAULT 1 NOT NULL,
    archived_at timestamp with time zone,
    contributes_to_knowledge boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    ended_at timestamp with time zone,
    ended_by text,
    CONSTRAINT evidence_check CHECK (((kind <> 'note'::text) OR (body IS NOT NULL))),
    CONSTRAINT evidence_check1 CHECK (((source <> 'phone'::text) OR (device_serial IS NULL))),
    CONSTRAINT evidence_kind_check CHECK ((kind = ANY (ARRAY['note'::text, 'meeting'::text, 'thread'::text, 'recording'::text, 'email'::text, 'file'::text, 'chat'::text, 'code'::text]))),
    CONSTRAINT evidence_last_seq_check CHECK ((last_seq >= 0)),
    CONSTRAINT evidence_live_slices_check CHECK ((live_slices >= 0)),
    CONSTRAINT evidence_source_check CHECK ((source ~ '^[a-z][a-z0-9_]{0,39}$'::text)),
    CONSTRAINT evidence_transcript_first_seq_check CHECK ((transcript_first_seq >= 1)),
    CONSTRAINT evidence_transcription_status_check CHECK ((transcription_status = ANY (ARRAY['none'::text, 'live'::text, 'pending'::text, 'transcribing'::text, 'transcribed'::text, 'no_speech'::text, 'failed'::text])))
);

--
-- Name: evidence_audio_slices; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence_audio_slices (
    evidence_id uuid NOT NULL,
    slice_index integer NOT NULL,
    start_ms integer NOT NULL,
    byte_size integer NOT NULL,
    status text NOT NULL,
    answer jsonb,
    claimed_at timestamp with time zone NOT NULL,
    read_at timestamp with time zone,
    CONSTRAINT evidence_audio_slices_byte_size_check CHECK ((byte_size >= 0)),
    CONSTRAINT evidence_audio_slices_slice_index_check CHECK ((slice_index >= 0)),
    CONSTRAINT evidence_audio_slices_start_ms_check CHECK ((start_ms >= 0)),
    CONSTRAINT evidence_audio_slices_status_check CHECK ((status = ANY (ARRAY['claimed'::text, 'read'::text])))
);

--
-- Name: evidence_participants; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence_participants (
    evidence_id uuid NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    added_by text NOT NULL,
    added_at timestamp with time zone NOT NULL,
    CONSTRAINT evidence_participants_position_check CHECK (("position" >= 1))
);

--
-- Name: evidence_slack_sync_cursor; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence_slack_sync_cursor (
    channel_id text NOT NULL,
    channel_name text NOT NULL,
    latest_ts text,
    page_cursor text,
    page_oldest text,
    page_newest_ts text,
    joined_at timestamp with time zone,
    last_run_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

--
-- Name: evidence_speakers; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence_speakers (
    evidence_id uuid NOT NULL,
    label text NOT NULL,
    name text NOT NULL,
    principal_id text,
    assigned_by text NOT NULL,
    assigned_at timestamp with time zone NOT NULL
);

--
-- Name: evidence_summaries; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence_summaries (
    evidence_id uuid NOT NULL,
    summary text,
    written_at timestamp with time zone,
    failed_attempts integer DEFAULT 0 NOT NULL,
    last_failure text,
    last_attempt_at timestamp with time zone NOT NULL
);

--
-- Name: evidence_utterances; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.evidence_utterances (
    evidence_id uuid NOT NULL,
    seq integer NOT NULL,
    speaker text NOT NULL,
    text text NOT NULL,
    start_ms integer,
    origin text DEFAULT 'posted'::text NOT NULL,
    written_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT evidence_utterances_origin_check CHECK ((origin = ANY (ARRAY['posted'::text, 'live'::text, 'file'::text]))),
    CONSTRAINT evidence_utterances_seq_check CHECK ((seq >= 1)),
    CONSTRAINT evidence_utterances_start_ms_check CHECK ((start_ms >= 0))
);

--
-- Name: file_uploads; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.file_uploads (
    id uuid NOT NULL,
    requested_by text NOT NULL,
    project_id uuid,
    purpose text NOT NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    storage_account text NOT NULL,
    container text NOT NULL,
    blob_name text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    renewals integer DEFAULT 0 NOT NULL,
    document_id text,
    registered_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT file_uploads_check CHECK (((document_id IS NULL) = (registered_at IS NULL))),
    CONSTRAINT file_uploads_purpose_check CHECK ((purpose = ANY (ARRAY['file'::text, 'recording'::text, 'live_recording'::text]))),
    CONSTRAINT file_uploads_renewals_check CHECK ((renewals >= 0))
);

--
-- Name: flow_tool_repositories; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.flow_tool_repositories (
    full_name text NOT NULL,
    repo_id bigint NOT NULL,
    private boolean NOT NULL,
    archived boolean NOT NULL,
    default_branch text,
    updated_at timestamp with time zone,
    synced_at timestamp with time zone NOT NULL
);

--
-- Name: goal_checkin_messages; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.goal_checkin_messages (
    goal_id uuid NOT NULL,
    state text NOT NULL,
    checkin_day date NOT NULL,
    project_id uuid NOT NULL,
    lead text NOT NULL,
    chat_user text NOT NULL,
    chat_channel text NOT NULL,
    chat_ts text NOT NULL,
    sent_at timestamp with time zone NOT NULL,
    CONSTRAINT goal_checkin_messages_state_check CHECK ((state = ANY (ARRAY['due'::text, 'overdue'::text])))
);

--
-- Name: goal_checkins; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.goal_checkins (
    id uuid NOT NULL,
    goal_id uuid NOT NULL,
    project_id uuid NOT NULL,
    status_before text NOT NULL,
    status text NOT NULL,
    note text NOT NULL,
    author text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT goal_checkins_status_check CHECK ((status = ANY (ARRAY['on_track'::text, 'at_risk'::text, 'off_track'::text])))
);

--
-- Name: goals; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.goals (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    lead text NOT NULL,
    target_date date,
    status text NOT NULL,
    closing_note text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone,
    CONSTRAINT goals_status_check CHECK ((status = ANY (ARRAY['on_track'::text, 'at_risk'::text, 'off_track'::text, 'achieved'::text, 'missed'::text, 'dropped'::text])))
);

--
-- Name: handoff_receipts; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.handoff_receipts (
    handoff_id uuid NOT NULL,
    revision integer NOT NULL,
    project_id uuid NOT NULL,
    accepted_by text NOT NULL,
    accepted_at timestamp with time zone NOT NULL,
    package jsonb NOT NULL
);

--
-- Name: handoffs; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.handoffs (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    sender text NOT NULL,
    receiver text NOT NULL,
    title text NOT NULL,
    next_step text NOT NULL,
    must_stay_true jsonb DEFAULT '[]'::jsonb NOT NULL,
    evidence_links jsonb DEFAULT '[]'::jsonb NOT NULL,
    verify_by date,
    due_on date NOT NULL,
    case_id uuid,
    status text DEFAULT 'draft'::text NOT NULL,
    revision integer DEFAULT 1 NOT NULL,
    offered_at timestamp with time zone,
    accepted_at timestamp with time zone,
    cancelled_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT handoffs_revision_check CHECK ((revision >= 1)),
    CONSTRAINT handoffs_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'offered'::text, 'changes_requested'::text, 'accepted'::text, 'cancelled'::text])))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.idempotency_keys (
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
-- Name: imported_evidence; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.imported_evidence (
    id uuid NOT NULL,
    source text NOT NULL,
    external_id text NOT NULL,
    version text NOT NULL,
    document_id text NOT NULL,
    title text NOT NULL,
    origin text NOT NULL,
    url text,
    contributes_to_knowledge boolean NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    imported_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT imported_evidence_external_id_check CHECK (((char_length(external_id) >= 1) AND (char_length(external_id) <= 500))),
    CONSTRAINT imported_evidence_source_check CHECK ((source = ANY (ARRAY['github_pull'::text, 'github_issue'::text, 'gmail'::text, 'drive'::text])))
);

--
-- Name: job_notices; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.job_notices (
    notice_key text NOT NULL,
    job text NOT NULL,
    recipient text NOT NULL,
    subject_id uuid,
    sent_on date NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: join_requests; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.join_requests (
    project_id uuid NOT NULL,
    principal_id text NOT NULL,
    status text NOT NULL,
    message text DEFAULT ''::text NOT NULL,
    role text,
    decided_by text,
    decided_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT join_requests_role_check CHECK ((role = ANY (ARRAY['viewer'::text, 'editor'::text, 'owner'::text]))),
    CONSTRAINT join_requests_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'declined'::text])))
);

--
-- Name: meeting_bot_occurrences; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.meeting_bot_occurrences (
    id uuid NOT NULL,
    series_id text NOT NULL,
    occurrence_ref text NOT NULL,
    starts_at timestamp with time zone NOT NULL,
    meeting_url text NOT NULL,
    job_name text NOT NULL,
    state text DEFAULT 'scheduled'::text NOT NULL,
    suspended boolean,
    unsuspended_at timestamp with time zone,
    finished_at timestamp with time zone,
    failure_reason text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT meeting_bot_occurrences_state_check CHECK ((state = ANY (ARRAY['scheduled'::text, 'created'::text, 'succeeded'::text, 'failed'::text])))
);

--
-- Name: notifications; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.notifications (
    id uuid NOT NULL,
    recipient text NOT NULL,
    kind text NOT NULL,
    project_id uuid,
    subject_id uuid,
    actor text,
    created_at timestamp with time zone NOT NULL,
    read_at timestamp with time zone,
    count integer
);

--
-- Name: objection_feedback; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.objection_feedback (
    conversation_id uuid NOT NULL,
    claim_id text NOT NULL,
    rated_by text NOT NULL,
    rating text NOT NULL,
    rated_at timestamp with time zone NOT NULL,
    CONSTRAINT objection_feedback_rating_check CHECK ((rating = ANY (ARRAY['useful'::text, 'already_knew'::text, 'wrong'::text])))
);

--
-- Name: outbox; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: workspace; Owner: -
--

CREATE SEQUENCE workspace.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: workspace; Owner: -
--

ALTER SEQUENCE workspace.outbox_id_seq OWNED BY workspace.outbox.id;

--
-- Name: output_uploads; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.output_uploads (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    slug text NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    storage_account text NOT NULL,
    container text NOT NULL,
    blob_name text NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    output_id uuid,
    finalized_at timestamp with time zone,
    CONSTRAINT output_uploads_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9._-]{0,119}$'::text))
);

--
-- Name: person_assignments; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.person_assignments (
    person_id text NOT NULL,
    assignment_id text NOT NULL,
    project_id text NOT NULL,
    role text NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    retired_at timestamp with time zone
);

--
-- Name: person_context_sources; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.person_context_sources (
    person_id text NOT NULL,
    source_id text NOT NULL,
    kind text NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    read_at timestamp with time zone NOT NULL
);

--
-- Name: person_contexts; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.person_contexts (
    person_id text NOT NULL,
    email text,
    name text,
    personalization boolean DEFAULT true NOT NULL,
    first_seen_at timestamp with time zone NOT NULL,
    refreshed_at timestamp with time zone,
    nightly_at timestamp with time zone
);

--
-- Name: presentation_revisions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.presentation_revisions (
    presentation_id uuid NOT NULL,
    revision integer NOT NULL,
    origin text NOT NULL,
    status text NOT NULL,
    slides jsonb,
    failure_reason text,
    attempts integer DEFAULT 1 NOT NULL,
    document_id uuid,
    content_type text,
    size_bytes bigint,
    sha256 text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    rendered_at timestamp with time zone,
    CONSTRAINT presentation_revisions_attempts_check CHECK ((attempts >= 1)),
    CONSTRAINT presentation_revisions_check CHECK (((status = 'rendered'::text) = (document_id IS NOT NULL))),
    CONSTRAINT presentation_revisions_check1 CHECK (((status = 'failed'::text) = (failure_reason IS NOT NULL))),
    CONSTRAINT presentation_revisions_origin_check CHECK ((origin = ANY (ARRAY['build'::text, 'edit'::text]))),
    CONSTRAINT presentation_revisions_revision_check CHECK ((revision >= 1)),
    CONSTRAINT presentation_revisions_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT presentation_revisions_size_bytes_check CHECK ((size_bytes >= 0)),
    CONSTRAINT presentation_revisions_slides_check CHECK (((slides IS NULL) OR (jsonb_typeof(slides) = 'array'::text))),
    CONSTRAINT presentation_revisions_status_check CHECK ((status = ANY (ARRAY['rendered'::text, 'failed'::text])))
);

--
-- Name: presentations; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.presentations (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    title text NOT NULL,
    outline jsonb NOT NULL,
    sources jsonb NOT NULL,
    latest_revision integer DEFAULT 0 NOT NULL,
    shared_revision integer,
    shared_by text,
    shared_at timestamp with time zone,
    share_id text,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT presentations_check CHECK (((shared_revision >= 1) AND (shared_revision <= latest_revision))),
    CONSTRAINT presentations_check1 CHECK (((shared_revision IS NULL) = (shared_at IS NULL))),
    CONSTRAINT presentations_latest_revision_check CHECK ((latest_revision >= 0)),
    CONSTRAINT presentations_outline_check CHECK ((jsonb_typeof(outline) = 'array'::text)),
    CONSTRAINT presentations_sources_check CHECK ((jsonb_typeof(sources) = 'array'::text)),
    CONSTRAINT presentations_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 200)))
);

--
-- Name: project_members; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.project_members (
    project_id uuid NOT NULL,
    principal_id text NOT NULL,
    role text NOT NULL,
    added_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT project_members_role_check CHECK ((role = ANY (ARRAY['viewer'::text, 'editor'::text, 'owner'::text])))
);

--
-- Name: project_templates; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.project_templates (
    id uuid NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    workflow text NOT NULL,
    builtin boolean DEFAULT false NOT NULL,
    starter_tasks jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT project_templates_workflow_check CHECK ((workflow = ANY (ARRAY['product_development'::text, 'general'::text])))
);

--
-- Name: project_visits; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.project_visits (
    project_id uuid NOT NULL,
    principal text NOT NULL,
    "position" bigint NOT NULL,
    visited_at timestamp with time zone NOT NULL
);

--
-- Name: projects; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.projects (
    id uuid NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    workflow text DEFAULT 'general'::text NOT NULL,
    checkin_weekday smallint DEFAULT 1 NOT NULL,
    goals text DEFAULT ''::text NOT NULL,
    instructions text DEFAULT ''::text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    contributes_to_knowledge boolean DEFAULT true NOT NULL,
    legal_hold boolean DEFAULT false NOT NULL,
    template_id uuid,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    change_seq bigint DEFAULT 0 NOT NULL,
    structure_seq bigint DEFAULT 0 NOT NULL,
    renumber_seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT projects_checkin_weekday_check CHECK (((checkin_weekday >= 1) AND (checkin_weekday <= 5))),
    CONSTRAINT projects_status_check CHECK ((status = ANY (ARRAY['active'::text, 'archived'::text]))),
    CONSTRAINT projects_workflow_check CHECK ((workflow = ANY (ARRAY['product_development'::text, 'general'::text])))
);

--
-- Name: recorder_devices; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.recorder_devices (
    serial text NOT NULL,
    person_id text NOT NULL,
    registered_at timestamp with time zone NOT NULL,
    CONSTRAINT recorder_devices_serial_check CHECK ((serial ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'::text))
);

--
-- Name: recorder_sign_ins; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.recorder_sign_ins (
    person_id text NOT NULL,
    day date NOT NULL,
    first_at timestamp with time zone NOT NULL
);

--
-- Name: recording_transcriptions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.recording_transcriptions (
    evidence_id uuid NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    claimed_until timestamp with time zone,
    last_error text,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT recording_transcriptions_attempts_check CHECK ((attempts >= 0))
);

--
-- Name: redaction_requests; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.redaction_requests (
    id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    seq integer NOT NULL,
    reason text DEFAULT ''::text NOT NULL,
    status text NOT NULL,
    requested_by text NOT NULL,
    requested_at timestamp with time zone NOT NULL,
    approved_by text,
    approved_at timestamp with time zone,
    CONSTRAINT redaction_requests_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text])))
);

--
-- Name: related_actions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.related_actions (
    id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    turn_seq integer NOT NULL,
    item_id text NOT NULL,
    action text NOT NULL,
    actor text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT related_actions_action_check CHECK ((action = ANY (ARRAY['opened'::text, 'not_relevant'::text, 'asked'::text])))
);

--
-- Name: saved_outputs; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.saved_outputs (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    conversation_id uuid,
    slug text NOT NULL,
    version integer NOT NULL,
    sha256 text NOT NULL,
    status text NOT NULL,
    title text DEFAULT ''::text NOT NULL,
    content_type text NOT NULL,
    size_bytes bigint NOT NULL,
    body text,
    document_id uuid,
    filename text,
    saved_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    superseded_at timestamp with time zone,
    CONSTRAINT saved_outputs_check CHECK (((body IS NULL) <> (document_id IS NULL))),
    CONSTRAINT saved_outputs_check1 CHECK (((status = 'superseded'::text) = (superseded_at IS NOT NULL))),
    CONSTRAINT saved_outputs_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT saved_outputs_size_bytes_check CHECK ((size_bytes >= 0)),
    CONSTRAINT saved_outputs_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9._-]{0,119}$'::text)),
    CONSTRAINT saved_outputs_status_check CHECK ((status = ANY (ARRAY['active'::text, 'superseded'::text]))),
    CONSTRAINT saved_outputs_version_check CHECK ((version >= 1))
);

--
-- Name: saved_views; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.saved_views (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    name text NOT NULL,
    name_key text NOT NULL,
    layout text NOT NULL,
    group_by text NOT NULL,
    sort text NOT NULL,
    sort_desc boolean DEFAULT false NOT NULL,
    filters jsonb DEFAULT '{}'::jsonb NOT NULL,
    "position" integer NOT NULL,
    seed_key text,
    created_by text NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT saved_views_layout_check CHECK ((layout = ANY (ARRAY['list'::text, 'board'::text])))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: task_changes; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.task_changes (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    task_id uuid NOT NULL,
    field text NOT NULL,
    old_value jsonb,
    new_value jsonb,
    actor text NOT NULL,
    change_seq bigint NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: task_versions; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.task_versions (
    task_id uuid NOT NULL,
    version integer NOT NULL,
    type text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    fields jsonb NOT NULL,
    links jsonb NOT NULL,
    resolution text,
    author text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: tasks; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.tasks (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    type text NOT NULL,
    title text NOT NULL,
    body text DEFAULT ''::text NOT NULL,
    status_id text NOT NULL,
    category text NOT NULL,
    status_changed_at timestamp with time zone NOT NULL,
    rank double precision NOT NULL,
    version integer DEFAULT 1 NOT NULL,
    assignee text,
    target_date date,
    goal_id uuid,
    origin text DEFAULT 'human'::text NOT NULL,
    fields jsonb DEFAULT '{}'::jsonb NOT NULL,
    links jsonb DEFAULT '[]'::jsonb NOT NULL,
    resolution text,
    resolved_at timestamp with time zone,
    resolved_by text,
    archived boolean DEFAULT false NOT NULL,
    archived_at timestamp with time zone,
    created_by text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    change_seq bigint NOT NULL,
    CONSTRAINT tasks_category_check CHECK ((category = ANY (ARRAY['backlog'::text, 'unstarted'::text, 'started'::text, 'review'::text, 'completed'::text, 'canceled'::text]))),
    CONSTRAINT tasks_origin_check CHECK ((origin = ANY (ARRAY['human'::text, 'agent'::text, 'template'::text])))
);

--
-- Name: unblock_answers; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.unblock_answers (
    id uuid NOT NULL,
    request_id uuid NOT NULL,
    answer text NOT NULL,
    answered_by text NOT NULL,
    answered_at timestamp with time zone NOT NULL,
    sent_back_at timestamp with time zone,
    sent_back_reason text
);

--
-- Name: unblock_requests; Type: TABLE; Schema: workspace; Owner: -
--

CREATE TABLE workspace.unblock_requests (
    id uuid NOT NULL,
    project_id uuid NOT NULL,
    asker text NOT NULL,
    recipient text NOT NULL,
    needed text NOT NULL,
    why_now text NOT NULL,
    waiting_type text NOT NULL,
    waiting_id uuid NOT NULL,
    answer_kind text NOT NULL,
    options jsonb DEFAULT '[]'::jsonb NOT NULL,
    due_on date,
    snoozed_until timestamp with time zone,
    ranking_reason text NOT NULL,
    source text NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    closed_at timestamp with time zone,
    CONSTRAINT unblock_requests_answer_kind_check CHECK ((answer_kind = ANY (ARRAY['choice'::text, 'value'::text, 'document'::text, 'decision'::text, 'explanation'::text]))),
    CONSTRAINT unblock_requests_source_check CHECK ((source = ANY (ARRAY['person'::text, 'handoff'::text]))),
    CONSTRAINT unblock_requests_status_check CHECK ((status = ANY (ARRAY['open'::text, 'answered'::text, 'resolved'::text, 'withdrawn'::text, 'superseded'::text]))),
    CONSTRAINT unblock_requests_waiting_type_check CHECK ((waiting_type = ANY (ARRAY['task'::text, 'goal'::text, 'handoff'::text])))
);

--
-- Name: audit_log id; Type: DEFAULT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.audit_log ALTER COLUMN id SET DEFAULT nextval('workspace.audit_log_id_seq'::regclass);

--
-- Name: outbox id; Type: DEFAULT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.outbox ALTER COLUMN id SET DEFAULT nextval('workspace.outbox_id_seq'::regclass);

--
-- Name: activity_heads activity_heads_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.activity_heads
    ADD CONSTRAINT activity_heads_pkey PRIMARY KEY (project_id);

--
-- Name: activity activity_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.activity
    ADD CONSTRAINT activity_pkey PRIMARY KEY (id);

--
-- Name: agent_sessions agent_sessions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.agent_sessions
    ADD CONSTRAINT agent_sessions_pkey PRIMARY KEY (id);

--
-- Name: audit_log audit_log_event_id_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.audit_log
    ADD CONSTRAINT audit_log_event_id_key UNIQUE (event_id);

--
-- Name: audit_log audit_log_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);

--
-- Name: break_glass_grants break_glass_grants_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.break_glass_grants
    ADD CONSTRAINT break_glass_grants_pkey PRIMARY KEY (id);

--
-- Name: case_amounts case_amounts_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.case_amounts
    ADD CONSTRAINT case_amounts_pkey PRIMARY KEY (id);

--
-- Name: cases cases_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.cases
    ADD CONSTRAINT cases_pkey PRIMARY KEY (id);

--
-- Name: chat_question_channel_cursor chat_question_channel_cursor_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.chat_question_channel_cursor
    ADD CONSTRAINT chat_question_channel_cursor_pkey PRIMARY KEY (channel);

--
-- Name: chat_question_messages chat_question_messages_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.chat_question_messages
    ADD CONSTRAINT chat_question_messages_pkey PRIMARY KEY (request_id, day);

--
-- Name: chat_question_replies chat_question_replies_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.chat_question_replies
    ADD CONSTRAINT chat_question_replies_pkey PRIMARY KEY (channel, ts);

--
-- Name: connector_cursors connector_cursors_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.connector_cursors
    ADD CONSTRAINT connector_cursors_pkey PRIMARY KEY (connector);

--
-- Name: context_packs context_packs_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.context_packs
    ADD CONSTRAINT context_packs_pkey PRIMARY KEY (project_id);

--
-- Name: conversation_files conversation_files_conversation_id_document_id_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_files
    ADD CONSTRAINT conversation_files_conversation_id_document_id_key UNIQUE (conversation_id, document_id);

--
-- Name: conversation_files conversation_files_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_files
    ADD CONSTRAINT conversation_files_pkey PRIMARY KEY (id);

--
-- Name: conversation_suggestion_resolutions conversation_suggestion_resolutions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_suggestion_resolutions
    ADD CONSTRAINT conversation_suggestion_resolutions_pkey PRIMARY KEY (conversation_id, project_id);

--
-- Name: conversation_turns conversation_turns_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_turns
    ADD CONSTRAINT conversation_turns_pkey PRIMARY KEY (conversation_id, seq);

--
-- Name: conversations conversations_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversations
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (id);

--
-- Name: data_sources data_sources_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.data_sources
    ADD CONSTRAINT data_sources_pkey PRIMARY KEY (id);

--
-- Name: data_sources data_sources_project_id_kind_reference_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.data_sources
    ADD CONSTRAINT data_sources_project_id_kind_reference_key UNIQUE (project_id, kind, reference);

--
-- Name: decisions decisions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.decisions
    ADD CONSTRAINT decisions_pkey PRIMARY KEY (id);

--
-- Name: digests digests_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.digests
    ADD CONSTRAINT digests_pkey PRIMARY KEY (project_id, principal);

--
-- Name: evidence_audio_slices evidence_audio_slices_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_audio_slices
    ADD CONSTRAINT evidence_audio_slices_pkey PRIMARY KEY (evidence_id, slice_index);

--
-- Name: evidence_participants evidence_participants_evidence_id_name_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_participants
    ADD CONSTRAINT evidence_participants_evidence_id_name_key UNIQUE (evidence_id, name);

--
-- Name: evidence_participants evidence_participants_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_participants
    ADD CONSTRAINT evidence_participants_pkey PRIMARY KEY (evidence_id, "position");

--
-- Name: evidence evidence_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence
    ADD CONSTRAINT evidence_pkey PRIMARY KEY (id);

--
-- Name: evidence_slack_sync_cursor evidence_slack_sync_cursor_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_slack_sync_cursor
    ADD CONSTRAINT evidence_slack_sync_cursor_pkey PRIMARY KEY (channel_id);

--
-- Name: evidence_speakers evidence_speakers_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_speakers
    ADD CONSTRAINT evidence_speakers_pkey PRIMARY KEY (evidence_id, label);

--
-- Name: evidence_summaries evidence_summaries_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_summaries
    ADD CONSTRAINT evidence_summaries_pkey PRIMARY KEY (evidence_id);

--
-- Name: evidence_utterances evidence_utterances_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_utterances
    ADD CONSTRAINT evidence_utterances_pkey PRIMARY KEY (evidence_id, seq);

--
-- Name: file_uploads file_uploads_blob_name_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.file_uploads
    ADD CONSTRAINT file_uploads_blob_name_key UNIQUE (blob_name);

--
-- Name: file_uploads file_uploads_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.file_uploads
    ADD CONSTRAINT file_uploads_pkey PRIMARY KEY (id);

--
-- Name: flow_tool_repositories flow_tool_repositories_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.flow_tool_repositories
    ADD CONSTRAINT flow_tool_repositories_pkey PRIMARY KEY (full_name);

--
-- Name: goal_checkin_messages goal_checkin_messages_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goal_checkin_messages
    ADD CONSTRAINT goal_checkin_messages_pkey PRIMARY KEY (goal_id, state, checkin_day);

--
-- Name: goal_checkins goal_checkins_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goal_checkins
    ADD CONSTRAINT goal_checkins_pkey PRIMARY KEY (id);

--
-- Name: goals goals_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goals
    ADD CONSTRAINT goals_pkey PRIMARY KEY (id);

--
-- Name: handoff_receipts handoff_receipts_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.handoff_receipts
    ADD CONSTRAINT handoff_receipts_pkey PRIMARY KEY (handoff_id, revision);

--
-- Name: handoffs handoffs_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.handoffs
    ADD CONSTRAINT handoffs_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: imported_evidence imported_evidence_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.imported_evidence
    ADD CONSTRAINT imported_evidence_pkey PRIMARY KEY (id);

--
-- Name: imported_evidence imported_evidence_source_external_id_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.imported_evidence
    ADD CONSTRAINT imported_evidence_source_external_id_key UNIQUE (source, external_id);

--
-- Name: job_notices job_notices_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.job_notices
    ADD CONSTRAINT job_notices_pkey PRIMARY KEY (notice_key);

--
-- Name: join_requests join_requests_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.join_requests
    ADD CONSTRAINT join_requests_pkey PRIMARY KEY (project_id, principal_id);

--
-- Name: meeting_bot_occurrences meeting_bot_occurrences_job_name_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.meeting_bot_occurrences
    ADD CONSTRAINT meeting_bot_occurrences_job_name_key UNIQUE (job_name);

--
-- Name: meeting_bot_occurrences meeting_bot_occurrences_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.meeting_bot_occurrences
    ADD CONSTRAINT meeting_bot_occurrences_pkey PRIMARY KEY (id);

--
-- Name: meeting_bot_occurrences meeting_bot_occurrences_series_id_occurrence_ref_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.meeting_bot_occurrences
    ADD CONSTRAINT meeting_bot_occurrences_series_id_occurrence_ref_key UNIQUE (series_id, occurrence_ref);

--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (id);

--
-- Name: objection_feedback objection_feedback_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.objection_feedback
    ADD CONSTRAINT objection_feedback_pkey PRIMARY KEY (conversation_id, claim_id, rated_by);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: output_uploads output_uploads_blob_name_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.output_uploads
    ADD CONSTRAINT output_uploads_blob_name_key UNIQUE (blob_name);

--
-- Name: output_uploads output_uploads_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.output_uploads
    ADD CONSTRAINT output_uploads_pkey PRIMARY KEY (id);

--
-- Name: person_assignments person_assignments_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.person_assignments
    ADD CONSTRAINT person_assignments_pkey PRIMARY KEY (person_id, assignment_id);

--
-- Name: person_context_sources person_context_sources_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.person_context_sources
    ADD CONSTRAINT person_context_sources_pkey PRIMARY KEY (person_id, source_id);

--
-- Name: person_contexts person_contexts_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.person_contexts
    ADD CONSTRAINT person_contexts_pkey PRIMARY KEY (person_id);

--
-- Name: presentation_revisions presentation_revisions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.presentation_revisions
    ADD CONSTRAINT presentation_revisions_pkey PRIMARY KEY (presentation_id, revision);

--
-- Name: presentations presentations_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.presentations
    ADD CONSTRAINT presentations_pkey PRIMARY KEY (id);

--
-- Name: project_members project_members_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.project_members
    ADD CONSTRAINT project_members_pkey PRIMARY KEY (project_id, principal_id);

--
-- Name: project_templates project_templates_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.project_templates
    ADD CONSTRAINT project_templates_pkey PRIMARY KEY (id);

--
-- Name: project_visits project_visits_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.project_visits
    ADD CONSTRAINT project_visits_pkey PRIMARY KEY (project_id, principal);

--
-- Name: projects projects_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.projects
    ADD CONSTRAINT projects_pkey PRIMARY KEY (id);

--
-- Name: recorder_devices recorder_devices_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.recorder_devices
    ADD CONSTRAINT recorder_devices_pkey PRIMARY KEY (serial);

--
-- Name: recorder_sign_ins recorder_sign_ins_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.recorder_sign_ins
    ADD CONSTRAINT recorder_sign_ins_pkey PRIMARY KEY (person_id, day);

--
-- Name: recording_transcriptions recording_transcriptions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.recording_transcriptions
    ADD CONSTRAINT recording_transcriptions_pkey PRIMARY KEY (evidence_id);

--
-- Name: redaction_requests redaction_requests_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.redaction_requests
    ADD CONSTRAINT redaction_requests_pkey PRIMARY KEY (id);

--
-- Name: related_actions related_actions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.related_actions
    ADD CONSTRAINT related_actions_pkey PRIMARY KEY (id);

--
-- Name: saved_outputs saved_outputs_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_outputs
    ADD CONSTRAINT saved_outputs_pkey PRIMARY KEY (id);

--
-- Name: saved_outputs saved_outputs_project_id_slug_version_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_outputs
    ADD CONSTRAINT saved_outputs_project_id_slug_version_key UNIQUE (project_id, slug, version);

--
-- Name: saved_views saved_views_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_views
    ADD CONSTRAINT saved_views_pkey PRIMARY KEY (id);

--
-- Name: saved_views saved_views_project_id_name_key_key; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_views
    ADD CONSTRAINT saved_views_project_id_name_key_key UNIQUE (project_id, name_key);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: task_changes task_changes_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.task_changes
    ADD CONSTRAINT task_changes_pkey PRIMARY KEY (id);

--
-- Name: task_versions task_versions_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.task_versions
    ADD CONSTRAINT task_versions_pkey PRIMARY KEY (task_id, version);

--
-- Name: tasks tasks_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.tasks
    ADD CONSTRAINT tasks_pkey PRIMARY KEY (id);

--
-- Name: unblock_answers unblock_answers_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.unblock_answers
    ADD CONSTRAINT unblock_answers_pkey PRIMARY KEY (id);

--
-- Name: unblock_requests unblock_requests_pkey; Type: CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.unblock_requests
    ADD CONSTRAINT unblock_requests_pkey PRIMARY KEY (id);

--
-- Name: activity_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX activity_project ON workspace.activity USING btree (project_id, created_at DESC, id DESC);

--
-- Name: activity_project_position; Type: INDEX; Schema: workspace; Owner: -
--

CREATE UNIQUE INDEX activity_project_position ON workspace.activity USING btree (project_id, "position");

--
-- Name: agent_sessions_conversation; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX agent_sessions_conversation ON workspace.agent_sessions USING btree (conversation_id, started_at DESC);

--
-- Name: agent_sessions_live; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX agent_sessions_live ON workspace.agent_sessions USING btree (last_heartbeat_at) WHERE (status = 'active'::text);

--
-- Name: audit_log_domain; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX audit_log_domain ON workspace.audit_log USING btree (domain, id);

--
-- Name: audit_log_occurred; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX audit_log_occurred ON workspace.audit_log USING btree (occurred_at, id);

--
-- Name: break_glass_grants_live; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX break_glass_grants_live ON workspace.break_glass_grants USING btree (person, expires_at) WHERE (expired_at IS NULL);

--
-- Name: case_amounts_case; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX case_amounts_case ON workspace.case_amounts USING btree (case_id, created_at, id);

--
-- Name: cases_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX cases_project ON workspace.cases USING btree (project_id, created_at DESC, id DESC);

--
-- Name: cases_project_status; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX cases_project_status ON workspace.cases USING btree (project_id, status, created_at DESC, id DESC);

--
-- Name: cases_project_subject; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX cases_project_subject ON workspace.cases USING btree (project_id, subject_key, created_at, id);

--
-- Name: chat_question_messages_channel; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX chat_question_messages_channel ON workspace.chat_question_messages USING btree (channel, posted_at DESC);

--
-- Name: chat_question_messages_thread; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX chat_question_messages_thread ON workspace.chat_question_messages USING btree (channel, ts);

--
-- Name: conversation_files_list; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX conversation_files_list ON workspace.conversation_files USING btree (conversation_id, created_at, id);

--
-- Name: conversation_turns_created; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX conversation_turns_created ON workspace.conversation_turns USING btree (created_at);

--
-- Name: conversations_created; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX conversations_created ON workspace.conversations USING btree (created_at);

--
-- Name: conversations_creator; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX conversations_creator ON workspace.conversations USING btree (created_by, last_activity_at DESC, id DESC);

--
-- Name: conversations_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX conversations_project ON workspace.conversations USING btree (project_id, last_activity_at DESC, id DESC);

--
-- Name: data_sources_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX data_sources_project ON workspace.data_sources USING btree (project_id, created_at, id);

--
-- Name: decisions_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX decisions_project ON workspace.decisions USING btree (project_id, created_at DESC, id DESC);

--
-- Name: digests_line_pending; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX digests_line_pending ON workspace.digests USING btree (computed_at) WHERE ((line IS NULL) AND (NOT line_failed) AND (total > 0));

--
-- Name: evidence_author; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX evidence_author ON workspace.evidence USING btree (author, created_at DESC, id DESC);

--
-- Name: evidence_created; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX evidence_created ON workspace.evidence USING btree (created_at);

--
-- Name: evidence_external_ref; Type: INDEX; Schema: workspace; Owner: -
--

CREATE UNIQUE INDEX evidence_external_ref ON workspace.evidence USING btree (external_ref) WHERE (external_ref IS NOT NULL);

--
-- Name: evidence_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX evidence_project ON workspace.evidence USING btree (project_id, created_at DESC, id DESC) WHERE (project_id IS NOT NULL);

--
-- Name: file_uploads_requested_by; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX file_uploads_requested_by ON workspace.file_uploads USING btree (requested_by, created_at DESC);

--
-- Name: goal_checkins_goal; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX goal_checkins_goal ON workspace.goal_checkins USING btree (goal_id, created_at DESC, id DESC);

--
-- Name: goals_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX goals_project ON workspace.goals USING btree (project_id, created_at);

--
-- Name: handoffs_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX handoffs_project ON workspace.handoffs USING btree (project_id, created_at DESC, id DESC);

--
-- Name: handoffs_receiver; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX handoffs_receiver ON workspace.handoffs USING btree (receiver, status, created_at DESC);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX idempotency_keys_created ON workspace.idempotency_keys USING btree (created_at);

--
-- Name: imported_evidence_recent; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX imported_evidence_recent ON workspace.imported_evidence USING btree (source, imported_at DESC, id DESC);

--
-- Name: meeting_bot_occurrences_open; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX meeting_bot_occurrences_open ON workspace.meeting_bot_occurrences USING btree (series_id, starts_at) WHERE (state = ANY (ARRAY['scheduled'::text, 'created'::text]));

--
-- Name: notifications_recipient; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX notifications_recipient ON workspace.notifications USING btree (recipient, created_at DESC);

--
-- Name: outbox_published; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX outbox_published ON workspace.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX outbox_unpublished ON workspace.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: output_uploads_conversation; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX output_uploads_conversation ON workspace.output_uploads USING btree (conversation_id, created_at);

--
-- Name: presentations_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX presentations_project ON workspace.presentations USING btree (project_id, created_at DESC, id DESC);

--
-- Name: project_members_principal; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX project_members_principal ON workspace.project_members USING btree (principal_id, project_id);

--
-- Name: recorder_devices_person; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX recorder_devices_person ON workspace.recorder_devices USING btree (person_id, registered_at);

--
-- Name: recorder_sign_ins_first_at; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX recorder_sign_ins_first_at ON workspace.recorder_sign_ins USING btree (first_at);

--
-- Name: recording_transcriptions_due; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX recording_transcriptions_due ON workspace.recording_transcriptions USING btree (claimed_until NULLS FIRST, created_at);

--
-- Name: redaction_requests_conversation; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX redaction_requests_conversation ON workspace.redaction_requests USING btree (conversation_id, requested_at DESC);

--
-- Name: redaction_requests_one_pending; Type: INDEX; Schema: workspace; Owner: -
--

CREATE UNIQUE INDEX redaction_requests_one_pending ON workspace.redaction_requests USING btree (conversation_id, seq) WHERE (status = 'pending'::text);

--
-- Name: related_actions_conversation; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX related_actions_conversation ON workspace.related_actions USING btree (conversation_id, created_at);

--
-- Name: saved_outputs_conversation; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX saved_outputs_conversation ON workspace.saved_outputs USING btree (conversation_id, created_at DESC, id DESC);

--
-- Name: saved_outputs_one_active; Type: INDEX; Schema: workspace; Owner: -
--

CREATE UNIQUE INDEX saved_outputs_one_active ON workspace.saved_outputs USING btree (project_id, slug) WHERE (status = 'active'::text);

--
-- Name: saved_outputs_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX saved_outputs_project ON workspace.saved_outputs USING btree (project_id, created_at DESC, id DESC);

--
-- Name: saved_views_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX saved_views_project ON workspace.saved_views USING btree (project_id, "position");

--
-- Name: task_changes_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX task_changes_project ON workspace.task_changes USING btree (project_id, change_seq DESC, id DESC);

--
-- Name: task_changes_project_field; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX task_changes_project_field ON workspace.task_changes USING btree (project_id, field, change_seq DESC, id DESC);

--
-- Name: task_changes_task; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX task_changes_task ON workspace.task_changes USING btree (task_id, change_seq DESC, id DESC);

--
-- Name: tasks_goal; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX tasks_goal ON workspace.tasks USING btree (goal_id) WHERE (goal_id IS NOT NULL);

--
-- Name: tasks_project_change; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX tasks_project_change ON workspace.tasks USING btree (project_id, change_seq);

--
-- Name: tasks_project_rank; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX tasks_project_rank ON workspace.tasks USING btree (project_id, rank, id);

--
-- Name: unblock_answers_request; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX unblock_answers_request ON workspace.unblock_answers USING btree (request_id, answered_at, id);

--
-- Name: unblock_requests_asker; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX unblock_requests_asker ON workspace.unblock_requests USING btree (asker, status);

--
-- Name: unblock_requests_project; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX unblock_requests_project ON workspace.unblock_requests USING btree (project_id, created_at DESC, id DESC);

--
-- Name: unblock_requests_recipient; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX unblock_requests_recipient ON workspace.unblock_requests USING btree (recipient, status);

--
-- Name: unblock_requests_waiting; Type: INDEX; Schema: workspace; Owner: -
--

CREATE INDEX unblock_requests_waiting ON workspace.unblock_requests USING btree (waiting_type, waiting_id);

--
-- Name: conversation_turns conversation_turns_append_only; Type: TRIGGER; Schema: workspace; Owner: -
--

CREATE TRIGGER conversation_turns_append_only BEFORE DELETE OR UPDATE ON workspace.conversation_turns FOR EACH ROW EXECUTE FUNCTION workspace.conversation_turns_append_only();

--
-- Name: evidence_utterances evidence_utterances_append_only; Type: TRIGGER; Schema: workspace; Owner: -
--

CREATE TRIGGER evidence_utterances_append_only BEFORE DELETE OR UPDATE ON workspace.evidence_utterances FOR EACH ROW EXECUTE FUNCTION workspace.evidence_utterances_append_only();

--
-- Name: goal_checkins goal_checkins_no_truncate; Type: TRIGGER; Schema: workspace; Owner: -
--

CREATE TRIGGER goal_checkins_no_truncate BEFORE TRUNCATE ON workspace.goal_checkins FOR EACH STATEMENT EXECUTE FUNCTION workspace.goal_checkins_are_permanent();

--
-- Name: goal_checkins goal_checkins_permanent; Type: TRIGGER; Schema: workspace; Owner: -
--

CREATE TRIGGER goal_checkins_permanent BEFORE DELETE OR UPDATE ON workspace.goal_checkins FOR EACH ROW EXECUTE FUNCTION workspace.goal_checkins_are_permanent();

--
-- Name: activity_heads activity_heads_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.activity_heads
    ADD CONSTRAINT activity_heads_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: activity activity_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.activity
    ADD CONSTRAINT activity_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: agent_sessions agent_sessions_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.agent_sessions
    ADD CONSTRAINT agent_sessions_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: case_amounts case_amounts_case_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.case_amounts
    ADD CONSTRAINT case_amounts_case_id_fkey FOREIGN KEY (case_id) REFERENCES workspace.cases(id);

--
-- Name: case_amounts case_amounts_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.case_amounts
    ADD CONSTRAINT case_amounts_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: cases cases_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.cases
    ADD CONSTRAINT cases_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: chat_question_messages chat_question_messages_request_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.chat_question_messages
    ADD CONSTRAINT chat_question_messages_request_id_fkey FOREIGN KEY (request_id) REFERENCES workspace.unblock_requests(id);

--
-- Name: chat_question_replies chat_question_replies_request_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.chat_question_replies
    ADD CONSTRAINT chat_question_replies_request_id_fkey FOREIGN KEY (request_id) REFERENCES workspace.unblock_requests(id);

--
-- Name: context_packs context_packs_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.context_packs
    ADD CONSTRAINT context_packs_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: conversation_files conversation_files_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_files
    ADD CONSTRAINT conversation_files_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: conversation_files conversation_files_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_files
    ADD CONSTRAINT conversation_files_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: conversation_suggestion_resolutions conversation_suggestion_resolutions_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_suggestion_resolutions
    ADD CONSTRAINT conversation_suggestion_resolutions_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: conversation_suggestion_resolutions conversation_suggestion_resolutions_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_suggestion_resolutions
    ADD CONSTRAINT conversation_suggestion_resolutions_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: conversation_turns conversation_turns_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversation_turns
    ADD CONSTRAINT conversation_turns_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: conversations conversations_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.conversations
    ADD CONSTRAINT conversations_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: data_sources data_sources_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.data_sources
    ADD CONSTRAINT data_sources_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: decisions decisions_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.decisions
    ADD CONSTRAINT decisions_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: decisions decisions_superseded_by_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.decisions
    ADD CONSTRAINT decisions_superseded_by_fkey FOREIGN KEY (superseded_by) REFERENCES workspace.decisions(id);

--
-- Name: decisions decisions_supersedes_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.decisions
    ADD CONSTRAINT decisions_supersedes_fkey FOREIGN KEY (supersedes) REFERENCES workspace.decisions(id);

--
-- Name: digests digests_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.digests
    ADD CONSTRAINT digests_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: evidence_audio_slices evidence_audio_slices_evidence_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_audio_slices
    ADD CONSTRAINT evidence_audio_slices_evidence_id_fkey FOREIGN KEY (evidence_id) REFERENCES workspace.evidence(id) ON DELETE CASCADE;

--
-- Name: evidence_participants evidence_participants_evidence_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_participants
    ADD CONSTRAINT evidence_participants_evidence_id_fkey FOREIGN KEY (evidence_id) REFERENCES workspace.evidence(id) ON DELETE CASCADE;

--
-- Name: evidence evidence_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence
    ADD CONSTRAINT evidence_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: evidence_speakers evidence_speakers_evidence_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_speakers
    ADD CONSTRAINT evidence_speakers_evidence_id_fkey FOREIGN KEY (evidence_id) REFERENCES workspace.evidence(id) ON DELETE CASCADE;

--
-- Name: evidence_summaries evidence_summaries_evidence_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_summaries
    ADD CONSTRAINT evidence_summaries_evidence_id_fkey FOREIGN KEY (evidence_id) REFERENCES workspace.evidence(id) ON DELETE CASCADE;

--
-- Name: evidence_utterances evidence_utterances_evidence_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.evidence_utterances
    ADD CONSTRAINT evidence_utterances_evidence_id_fkey FOREIGN KEY (evidence_id) REFERENCES workspace.evidence(id) ON DELETE CASCADE;

--
-- Name: file_uploads file_uploads_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.file_uploads
    ADD CONSTRAINT file_uploads_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: goal_checkin_messages goal_checkin_messages_goal_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goal_checkin_messages
    ADD CONSTRAINT goal_checkin_messages_goal_id_fkey FOREIGN KEY (goal_id) REFERENCES workspace.goals(id);

--
-- Name: goal_checkin_messages goal_checkin_messages_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goal_checkin_messages
    ADD CONSTRAINT goal_checkin_messages_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: goal_checkins goal_checkins_goal_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goal_checkins
    ADD CONSTRAINT goal_checkins_goal_id_fkey FOREIGN KEY (goal_id) REFERENCES workspace.goals(id);

--
-- Name: goal_checkins goal_checkins_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goal_checkins
    ADD CONSTRAINT goal_checkins_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: goals goals_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.goals
    ADD CONSTRAINT goals_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: handoff_receipts handoff_receipts_handoff_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.handoff_receipts
    ADD CONSTRAINT handoff_receipts_handoff_id_fkey FOREIGN KEY (handoff_id) REFERENCES workspace.handoffs(id);

--
-- Name: handoff_receipts handoff_receipts_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.handoff_receipts
    ADD CONSTRAINT handoff_receipts_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: handoffs handoffs_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.handoffs
    ADD CONSTRAINT handoffs_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: join_requests join_requests_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.join_requests
    ADD CONSTRAINT join_requests_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: notifications notifications_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.notifications
    ADD CONSTRAINT notifications_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: objection_feedback objection_feedback_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.objection_feedback
    ADD CONSTRAINT objection_feedback_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: output_uploads output_uploads_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.output_uploads
    ADD CONSTRAINT output_uploads_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: output_uploads output_uploads_output_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.output_uploads
    ADD CONSTRAINT output_uploads_output_id_fkey FOREIGN KEY (output_id) REFERENCES workspace.saved_outputs(id);

--
-- Name: output_uploads output_uploads_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.output_uploads
    ADD CONSTRAINT output_uploads_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: person_assignments person_assignments_person_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.person_assignments
    ADD CONSTRAINT person_assignments_person_id_fkey FOREIGN KEY (person_id) REFERENCES workspace.person_contexts(person_id);

--
-- Name: person_context_sources person_context_sources_person_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.person_context_sources
    ADD CONSTRAINT person_context_sources_person_id_fkey FOREIGN KEY (person_id) REFERENCES workspace.person_contexts(person_id);

--
-- Name: presentation_revisions presentation_revisions_presentation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.presentation_revisions
    ADD CONSTRAINT presentation_revisions_presentation_id_fkey FOREIGN KEY (presentation_id) REFERENCES workspace.presentations(id);

--
-- Name: presentations presentations_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.presentations
    ADD CONSTRAINT presentations_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: project_members project_members_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.project_members
    ADD CONSTRAINT project_members_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: project_visits project_visits_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.project_visits
    ADD CONSTRAINT project_visits_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: recording_transcriptions recording_transcriptions_evidence_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.recording_transcriptions
    ADD CONSTRAINT recording_transcriptions_evidence_id_fkey FOREIGN KEY (evidence_id) REFERENCES workspace.evidence(id) ON DELETE CASCADE;

--
-- Name: redaction_requests redaction_requests_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.redaction_requests
    ADD CONSTRAINT redaction_requests_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: redaction_requests redaction_requests_conversation_id_seq_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.redaction_requests
    ADD CONSTRAINT redaction_requests_conversation_id_seq_fkey FOREIGN KEY (conversation_id, seq) REFERENCES workspace.conversation_turns(conversation_id, seq);

--
-- Name: related_actions related_actions_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.related_actions
    ADD CONSTRAINT related_actions_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: related_actions related_actions_conversation_id_turn_seq_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.related_actions
    ADD CONSTRAINT related_actions_conversation_id_turn_seq_fkey FOREIGN KEY (conversation_id, turn_seq) REFERENCES workspace.conversation_turns(conversation_id, seq);

--
-- Name: saved_outputs saved_outputs_conversation_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_outputs
    ADD CONSTRAINT saved_outputs_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES workspace.conversations(id);

--
-- Name: saved_outputs saved_outputs_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_outputs
    ADD CONSTRAINT saved_outputs_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: saved_views saved_views_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.saved_views
    ADD CONSTRAINT saved_views_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: task_changes task_changes_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.task_changes
    ADD CONSTRAINT task_changes_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: task_changes task_changes_task_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.task_changes
    ADD CONSTRAINT task_changes_task_id_fkey FOREIGN KEY (task_id) REFERENCES workspace.tasks(id);

--
-- Name: task_versions task_versions_task_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.task_versions
    ADD CONSTRAINT task_versions_task_id_fkey FOREIGN KEY (task_id) REFERENCES workspace.tasks(id);

--
-- Name: tasks tasks_goal_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.tasks
    ADD CONSTRAINT tasks_goal_id_fkey FOREIGN KEY (goal_id) REFERENCES workspace.goals(id);

--
-- Name: tasks tasks_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.tasks
    ADD CONSTRAINT tasks_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- Name: unblock_answers unblock_answers_request_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.unblock_answers
    ADD CONSTRAINT unblock_answers_request_id_fkey FOREIGN KEY (request_id) REFERENCES workspace.unblock_requests(id);

--
-- Name: unblock_requests unblock_requests_project_id_fkey; Type: FK CONSTRAINT; Schema: workspace; Owner: -
--

ALTER TABLE ONLY workspace.unblock_requests
    ADD CONSTRAINT unblock_requests_project_id_fkey FOREIGN KEY (project_id) REFERENCES workspace.projects(id);

--
-- PostgreSQL database dump complete
--
