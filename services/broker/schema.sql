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
-- Name: broker; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA broker;

--
-- Name: record_relayed_calls(jsonb, jsonb, jsonb); Type: FUNCTION; Schema: broker; Owner: -
--

CREATE FUNCTION broker.record_relayed_calls(usage jsonb, decisions jsonb, daily jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'broker', 'public'
    AS $$
BEGIN
  INSERT INTO usage_events (
    id, occurred_at, day, actor_fid, provider, provider_kind, model, requested_model, request_kind,
    input_tokens, output_tokens, cache_read_tokens, cost_micros, cache_savings_micros,
    routing_savings_micros, source, estimated)
  SELECT
    id, occurred_at, day, actor_fid, provider, provider_kind, model, requested_model, request_kind,
    input_tokens, output_tokens, cache_read_tokens, cost_micros, cache_savings_micros,
    routing_savings_micros, source, estimated
  FROM jsonb_populate_recordset(NULL::usage_events, usage);

  INSERT INTO routing_decisions (
    decided_at, day, actor_fid, provider, family, tier, classifier, outcome, requested_model, model,
    rule_id, grading_cost_micros, savings_micros)
  SELECT
    decided_at, day, actor_fid, provider, family, tier, classifier, outcome, requested_model, model,
    rule_id, grading_cost_micros, savings_micros
  FROM jsonb_populate_recordset(NULL::routing_decisions, decisions);

  INSERT INTO usage_daily (
    day, actor_fid, provider, provider_kind, model, calls, input_tokens, output_tokens,
    cache_read_tokens, cost_micros, cache_savings_micros, routing_savings_micros)
  SELECT
    day, actor_fid, provider, provider_kind, model, calls, input_tokens, output_tokens,
    cache_read_tokens, cost_micros, cache_savings_micros, routing_savings_micros
  FROM jsonb_populate_recordset(NULL::usage_daily, daily)
  ON CONFLICT (day, actor_fid, provider, model) DO UPDATE SET
    calls = usage_daily.calls + excluded.calls,
    input_tokens = usage_daily.input_tokens + excluded.input_tokens,
    output_tokens = usage_daily.output_tokens + excluded.output_tokens,
    cache_read_tokens = usage_daily.cache_read_tokens + excluded.cache_read_tokens,
    cost_micros = usage_daily.cost_micros + excluded.cost_micros,
    cache_savings_micros = usage_daily.cache_savings_micros + excluded.cache_savings_micros,
    routing_savings_micros = usage_daily.routing_savings_micros + excluded.routing_savings_micros;
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: broker_conversation_links; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.broker_conversation_links (
    owner_email text NOT NULL,
    kind text NOT NULL,
    key text NOT NULL,
    conversation_id uuid NOT NULL,
    message_count integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT broker_conversation_links_kind_check CHECK ((kind = ANY (ARRAY['response'::text, 'conversation'::text, 'messages'::text]))),
    CONSTRAINT broker_conversation_links_message_count_check CHECK ((message_count >= 0))
);

--
-- Name: broker_conversations; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.broker_conversations (
    id uuid NOT NULL,
    owner_email text NOT NULL,
    workspace_conversation_id text,
    client_key text,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: budget_overrides; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.budget_overrides (
    actor_fid text NOT NULL,
    limit_cents bigint NOT NULL,
    set_by text NOT NULL,
    set_at timestamp with time zone NOT NULL,
    CONSTRAINT budget_overrides_limit_cents_check CHECK ((limit_cents >= 0))
);

--
-- Name: budget_settings; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.budget_settings (
    id boolean DEFAULT true NOT NULL,
    default_limit_cents bigint NOT NULL,
    updated_by text,
    updated_at timestamp with time zone,
    service_default_limit_cents bigint DEFAULT 0 NOT NULL,
    CONSTRAINT budget_settings_default_limit_cents_check CHECK ((default_limit_cents >= 0)),
    CONSTRAINT budget_settings_id_check CHECK (id),
    CONSTRAINT budget_settings_service_default_limit_cents_check CHECK ((service_default_limit_cents >= 0))
);

--
-- Name: credentials; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.credentials (
    client_id text NOT NULL,
    owner_fid text NOT NULL,
    owner_email text NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    secret_hash text NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    expires_at timestamp with time zone,
    secret_set_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT credentials_kind_check CHECK ((kind = ANY (ARRAY['personal'::text, 'service'::text])))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.idempotency_keys (
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
-- Name: identities; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.identities (
    fid text NOT NULL,
    email text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    kind text NOT NULL,
    creator_fid text,
    creator_email text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT identities_kind_check CHECK ((kind = ANY (ARRAY['person'::text, 'agent'::text, 'service'::text])))
);

--
-- Name: outbox; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: broker; Owner: -
--

CREATE SEQUENCE broker.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: broker; Owner: -
--

ALTER SEQUENCE broker.outbox_id_seq OWNED BY broker.outbox.id;

--
-- Name: routing_decisions; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.routing_decisions (
    id bigint NOT NULL,
    decided_at timestamp with time zone NOT NULL,
    day date NOT NULL,
    actor_fid text NOT NULL,
    provider text NOT NULL,
    family text,
    tier text,
    classifier text,
    outcome text NOT NULL,
    requested_model text NOT NULL,
    model text NOT NULL,
    rule_id text,
    grading_cost_micros bigint DEFAULT 0 NOT NULL,
    savings_micros bigint DEFAULT 0 NOT NULL,
    CONSTRAINT routing_decisions_outcome_check CHECK ((outcome = ANY (ARRAY['rule'::text, 'routed'::text, 'kept'::text, 'off'::text])))
);

--
-- Name: routing_decisions_id_seq; Type: SEQUENCE; Schema: broker; Owner: -
--

ALTER TABLE broker.routing_decisions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME broker.routing_decisions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: routing_opt_outs; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.routing_opt_outs (
    email text NOT NULL,
    off_at timestamp with time zone NOT NULL,
    off_by text NOT NULL
);

--
-- Name: routing_rules; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.routing_rules (
    id text NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    match_model text NOT NULL,
    match_provider text,
    match_api text,
    target_model text NOT NULL,
    enabled boolean NOT NULL,
    updated_by text NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT routing_rules_match_api_check CHECK ((match_api = ANY (ARRAY['chat'::text, 'responses'::text, 'messages'::text])))
);

--
-- Name: routing_settings; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.routing_settings (
    id boolean DEFAULT true NOT NULL,
    max_input_chars integer NOT NULL,
    max_messages integer NOT NULL,
    classifier_provider text,
    classifier_model text,
    classifier_max_input_chars integer NOT NULL,
    CONSTRAINT routing_settings_check CHECK (((classifier_provider IS NULL) = (classifier_model IS NULL))),
    CONSTRAINT routing_settings_classifier_max_input_chars_check CHECK ((classifier_max_input_chars >= 0)),
    CONSTRAINT routing_settings_id_check CHECK (id),
    CONSTRAINT routing_settings_max_input_chars_check CHECK ((max_input_chars >= 0)),
    CONSTRAINT routing_settings_max_messages_check CHECK ((max_messages >= 0))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: usage_daily; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.usage_daily (
    day date NOT NULL,
    actor_fid text NOT NULL,
    provider text NOT NULL,
    provider_kind text NOT NULL,
    model text NOT NULL,
    calls bigint DEFAULT 0 NOT NULL,
    input_tokens bigint DEFAULT 0 NOT NULL,
    output_tokens bigint DEFAULT 0 NOT NULL,
    cache_read_tokens bigint DEFAULT 0 NOT NULL,
    cost_micros bigint DEFAULT 0 NOT NULL,
    cache_savings_micros bigint DEFAULT 0 NOT NULL,
    routing_savings_micros bigint DEFAULT 0 NOT NULL
);

--
-- Name: usage_events; Type: TABLE; Schema: broker; Owner: -
--

CREATE TABLE broker.usage_events (
    id uuid NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    day date NOT NULL,
    actor_fid text NOT NULL,
    provider text NOT NULL,
    provider_kind text NOT NULL,
    model text NOT NULL,
    requested_model text,
    request_kind text NOT NULL,
    input_tokens bigint DEFAULT 0 NOT NULL,
    output_tokens bigint DEFAULT 0 NOT NULL,
    cache_read_tokens bigint DEFAULT 0 NOT NULL,
    cost_micros bigint DEFAULT 0 NOT NULL,
    cache_savings_micros bigint DEFAULT 0 NOT NULL,
    routing_savings_micros bigint DEFAULT 0 NOT NULL,
    source text NOT NULL,
    estimated boolean DEFAULT false NOT NULL,
    CONSTRAINT usage_events_cache_read_tokens_check CHECK ((cache_read_tokens >= 0)),
    CONSTRAINT usage_events_input_tokens_check CHECK ((input_tokens >= 0)),
    CONSTRAINT usage_events_output_tokens_check CHECK ((output_tokens >= 0)),
    CONSTRAINT usage_events_source_check CHECK ((source = ANY (ARRAY['relay'::text, 'report'::text])))
);

--
-- Name: outbox id; Type: DEFAULT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.outbox ALTER COLUMN id SET DEFAULT nextval('broker.outbox_id_seq'::regclass);

--
-- Name: broker_conversation_links broker_conversation_links_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.broker_conversation_links
    ADD CONSTRAINT broker_conversation_links_pkey PRIMARY KEY (owner_email, kind, key);

--
-- Name: broker_conversations broker_conversations_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.broker_conversations
    ADD CONSTRAINT broker_conversations_pkey PRIMARY KEY (id);

--
-- Name: budget_overrides budget_overrides_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.budget_overrides
    ADD CONSTRAINT budget_overrides_pkey PRIMARY KEY (actor_fid);

--
-- Name: budget_settings budget_settings_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.budget_settings
    ADD CONSTRAINT budget_settings_pkey PRIMARY KEY (id);

--
-- Name: credentials credentials_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.credentials
    ADD CONSTRAINT credentials_pkey PRIMARY KEY (client_id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: identities identities_email_key; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.identities
    ADD CONSTRAINT identities_email_key UNIQUE (email);

--
-- Name: identities identities_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.identities
    ADD CONSTRAINT identities_pkey PRIMARY KEY (fid);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: routing_decisions routing_decisions_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.routing_decisions
    ADD CONSTRAINT routing_decisions_pkey PRIMARY KEY (id);

--
-- Name: routing_opt_outs routing_opt_outs_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.routing_opt_outs
    ADD CONSTRAINT routing_opt_outs_pkey PRIMARY KEY (email);

--
-- Name: routing_rules routing_rules_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.routing_rules
    ADD CONSTRAINT routing_rules_pkey PRIMARY KEY (id);

--
-- Name: routing_rules routing_rules_position_key; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.routing_rules
    ADD CONSTRAINT routing_rules_position_key UNIQUE ("position");

--
-- Name: routing_settings routing_settings_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.routing_settings
    ADD CONSTRAINT routing_settings_pkey PRIMARY KEY (id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: usage_daily usage_daily_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.usage_daily
    ADD CONSTRAINT usage_daily_pkey PRIMARY KEY (day, actor_fid, provider, model);

--
-- Name: usage_events usage_events_pkey; Type: CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.usage_events
    ADD CONSTRAINT usage_events_pkey PRIMARY KEY (id);

--
-- Name: broker_conversation_links_conversation; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX broker_conversation_links_conversation ON broker.broker_conversation_links USING btree (conversation_id, kind);

--
-- Name: broker_conversations_client_key; Type: INDEX; Schema: broker; Owner: -
--

CREATE UNIQUE INDEX broker_conversations_client_key ON broker.broker_conversations USING btree (owner_email, client_key);

--
-- Name: credentials_owner; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX credentials_owner ON broker.credentials USING btree (owner_email, created_at);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX idempotency_keys_created ON broker.idempotency_keys USING btree (created_at);

--
-- Name: identities_creator; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX identities_creator ON broker.identities USING btree (creator_fid);

--
-- Name: outbox_published; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX outbox_published ON broker.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX outbox_unpublished ON broker.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: routing_decisions_actor_day; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX routing_decisions_actor_day ON broker.routing_decisions USING btree (actor_fid, day);

--
-- Name: routing_decisions_day; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX routing_decisions_day ON broker.routing_decisions USING btree (day);

--
-- Name: usage_daily_actor_day; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX usage_daily_actor_day ON broker.usage_daily USING btree (actor_fid, day);

--
-- Name: usage_events_actor_time; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX usage_events_actor_time ON broker.usage_events USING btree (actor_fid, occurred_at);

--
-- Name: usage_events_time; Type: INDEX; Schema: broker; Owner: -
--

CREATE INDEX usage_events_time ON broker.usage_events USING btree (occurred_at);

--
-- Name: broker_conversation_links broker_conversation_links_conversation_id_fkey; Type: FK CONSTRAINT; Schema: broker; Owner: -
--

ALTER TABLE ONLY broker.broker_conversation_links
    ADD CONSTRAINT broker_conversation_links_conversation_id_fkey FOREIGN KEY (conversation_id) REFERENCES broker.broker_conversations(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
