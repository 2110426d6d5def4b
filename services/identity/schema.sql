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
-- Name: identity; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA identity;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: grants; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.grants (
    id uuid NOT NULL,
    principal_id text NOT NULL,
    role text NOT NULL,
    scope_type text NOT NULL,
    scope_id text NOT NULL,
    verified boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text NOT NULL,
    CONSTRAINT grants_check CHECK (((scope_type = 'global'::text) = (scope_id = '*'::text))),
    CONSTRAINT grants_scope_type_check CHECK ((scope_type = ANY (ARRAY['global'::text, 'building'::text])))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.idempotency_keys (
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
-- Name: oidc_payloads; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.oidc_payloads (
    model text NOT NULL,
    id text NOT NULL,
    payload jsonb NOT NULL,
    grant_id text,
    user_code text,
    uid text,
    expires_at timestamp with time zone,
    consumed_at timestamp with time zone
);

--
-- Name: outbox; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: identity; Owner: -
--

CREATE SEQUENCE identity.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: identity; Owner: -
--

ALTER SEQUENCE identity.outbox_id_seq OWNED BY identity.outbox.id;

--
-- Name: people; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.people (
    fid uuid NOT NULL,
    email text NOT NULL,
    email_verified boolean DEFAULT false NOT NULL,
    first_name text DEFAULT ''::text NOT NULL,
    last_name text DEFAULT ''::text NOT NULL,
    password_hash text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: schema_migrations; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: upstream_identities; Type: TABLE; Schema: identity; Owner: -
--

CREATE TABLE identity.upstream_identities (
    issuer text NOT NULL,
    sub text NOT NULL,
    fid uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: outbox id; Type: DEFAULT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.outbox ALTER COLUMN id SET DEFAULT nextval('identity.outbox_id_seq'::regclass);

--
-- Name: grants grants_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.grants
    ADD CONSTRAINT grants_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: oidc_payloads oidc_payloads_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.oidc_payloads
    ADD CONSTRAINT oidc_payloads_pkey PRIMARY KEY (model, id);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: people people_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.people
    ADD CONSTRAINT people_pkey PRIMARY KEY (fid);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: upstream_identities upstream_identities_pkey; Type: CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.upstream_identities
    ADD CONSTRAINT upstream_identities_pkey PRIMARY KEY (issuer, sub);

--
-- Name: grants_one_per_scope; Type: INDEX; Schema: identity; Owner: -
--

CREATE UNIQUE INDEX grants_one_per_scope ON identity.grants USING btree (principal_id, role, scope_type, scope_id);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: identity; Owner: -
--

CREATE INDEX idempotency_keys_created ON identity.idempotency_keys USING btree (created_at);

--
-- Name: oidc_payloads_expires; Type: INDEX; Schema: identity; Owner: -
--

CREATE INDEX oidc_payloads_expires ON identity.oidc_payloads USING btree (expires_at);

--
-- Name: oidc_payloads_grant; Type: INDEX; Schema: identity; Owner: -
--

CREATE INDEX oidc_payloads_grant ON identity.oidc_payloads USING btree (grant_id) WHERE (grant_id IS NOT NULL);

--
-- Name: oidc_payloads_uid; Type: INDEX; Schema: identity; Owner: -
--

CREATE INDEX oidc_payloads_uid ON identity.oidc_payloads USING btree (model, uid) WHERE (uid IS NOT NULL);

--
-- Name: outbox_published; Type: INDEX; Schema: identity; Owner: -
--

CREATE INDEX outbox_published ON identity.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: identity; Owner: -
--

CREATE INDEX outbox_unpublished ON identity.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: people_email_key; Type: INDEX; Schema: identity; Owner: -
--

CREATE UNIQUE INDEX people_email_key ON identity.people USING btree (lower(email));

--
-- Name: upstream_identities_one_per_person; Type: INDEX; Schema: identity; Owner: -
--

CREATE UNIQUE INDEX upstream_identities_one_per_person ON identity.upstream_identities USING btree (issuer, fid);

--
-- Name: upstream_identities upstream_identities_fid_fkey; Type: FK CONSTRAINT; Schema: identity; Owner: -
--

ALTER TABLE ONLY identity.upstream_identities
    ADD CONSTRAINT upstream_identities_fid_fkey FOREIGN KEY (fid) REFERENCES identity.people(fid) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
