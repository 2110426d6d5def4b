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

SET default_tablespace = '';

SET default_table_access_method = heap;

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
    claim_token uuid
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
-- Name: schema_migrations; Type: TABLE; Schema: agents; Owner: -
--

CREATE TABLE agents.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: agent_members seq; Type: DEFAULT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_members ALTER COLUMN seq SET DEFAULT nextval('agents.agent_members_seq_seq'::regclass);

--
-- Name: outbox id; Type: DEFAULT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.outbox ALTER COLUMN id SET DEFAULT nextval('agents.outbox_id_seq'::regclass);

--
-- Name: agent_members agent_members_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_members
    ADD CONSTRAINT agent_members_pkey PRIMARY KEY (agent_id, principal_fid);

--
-- Name: agents agents_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agents
    ADD CONSTRAINT agents_pkey PRIMARY KEY (id);

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
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: agent_members_principal; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agent_members_principal ON agents.agent_members USING btree (principal_fid, agent_id);

--
-- Name: agents_owner; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_owner ON agents.agents USING btree (owner_fid);

--
-- Name: agents_parent; Type: INDEX; Schema: agents; Owner: -
--

CREATE INDEX agents_parent ON agents.agents USING btree (parent_id, created_at DESC);

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
-- Name: agent_members agent_members_agent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agent_members
    ADD CONSTRAINT agent_members_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- Name: agents agents_parent_id_fkey; Type: FK CONSTRAINT; Schema: agents; Owner: -
--

ALTER TABLE ONLY agents.agents
    ADD CONSTRAINT agents_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES agents.agents(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
