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
-- Name: documents; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA documents;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: document_metadata; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.document_metadata (
    document_id uuid NOT NULL,
    "position" integer NOT NULL,
    meta_name text NOT NULL,
    meta_value text NOT NULL
);

--
-- Name: document_references; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.document_references (
    document_id uuid NOT NULL,
    "position" integer NOT NULL,
    ref_type text NOT NULL,
    ref_id text NOT NULL,
    ref_category text NOT NULL,
    is_external boolean NOT NULL
);

--
-- Name: documents; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.documents (
    id uuid NOT NULL,
    filename text NOT NULL,
    visibility text NOT NULL,
    storage_account text NOT NULL,
    container text NOT NULL,
    blob_name text NOT NULL,
    content_type text NOT NULL,
    content_hash text,
    byte_size bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    created_by text NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    updated_by text NOT NULL,
    CONSTRAINT documents_byte_size_check CHECK ((byte_size >= 0)),
    CONSTRAINT documents_content_hash_check CHECK ((content_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT documents_visibility_check CHECK ((visibility = ANY (ARRAY['private'::text, 'public'::text])))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.idempotency_keys (
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
-- Name: outbox; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: documents; Owner: -
--

CREATE SEQUENCE documents.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: documents; Owner: -
--

ALTER SEQUENCE documents.outbox_id_seq OWNED BY documents.outbox.id;

--
-- Name: registrations_in_flight; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.registrations_in_flight (
    id uuid NOT NULL,
    blob_name text NOT NULL,
    started_at timestamp with time zone NOT NULL
);

--
-- Name: schema_migrations; Type: TABLE; Schema: documents; Owner: -
--

CREATE TABLE documents.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: outbox id; Type: DEFAULT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.outbox ALTER COLUMN id SET DEFAULT nextval('documents.outbox_id_seq'::regclass);

--
-- Name: document_metadata document_metadata_document_id_meta_name_key; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.document_metadata
    ADD CONSTRAINT document_metadata_document_id_meta_name_key UNIQUE (document_id, meta_name);

--
-- Name: document_metadata document_metadata_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.document_metadata
    ADD CONSTRAINT document_metadata_pkey PRIMARY KEY (document_id, "position");

--
-- Name: document_references document_references_document_id_ref_type_ref_id_ref_categor_key; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.document_references
    ADD CONSTRAINT document_references_document_id_ref_type_ref_id_ref_categor_key UNIQUE (document_id, ref_type, ref_id, ref_category);

--
-- Name: document_references document_references_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.document_references
    ADD CONSTRAINT document_references_pkey PRIMARY KEY (document_id, "position");

--
-- Name: documents documents_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.documents
    ADD CONSTRAINT documents_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: registrations_in_flight registrations_in_flight_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.registrations_in_flight
    ADD CONSTRAINT registrations_in_flight_pkey PRIMARY KEY (id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: document_references_by_ref; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX document_references_by_ref ON documents.document_references USING btree (ref_id, ref_type, document_id);

--
-- Name: documents_newest; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX documents_newest ON documents.documents USING btree (created_at DESC, id DESC);

--
-- Name: documents_one_per_blob; Type: INDEX; Schema: documents; Owner: -
--

CREATE UNIQUE INDEX documents_one_per_blob ON documents.documents USING btree (blob_name);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX idempotency_keys_created ON documents.idempotency_keys USING btree (created_at);

--
-- Name: outbox_published; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX outbox_published ON documents.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX outbox_unpublished ON documents.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: registrations_in_flight_by_blob; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX registrations_in_flight_by_blob ON documents.registrations_in_flight USING btree (blob_name, started_at);

--
-- Name: registrations_in_flight_by_start; Type: INDEX; Schema: documents; Owner: -
--

CREATE INDEX registrations_in_flight_by_start ON documents.registrations_in_flight USING btree (started_at);

--
-- Name: document_metadata document_metadata_document_id_fkey; Type: FK CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.document_metadata
    ADD CONSTRAINT document_metadata_document_id_fkey FOREIGN KEY (document_id) REFERENCES documents.documents(id) ON DELETE CASCADE;

--
-- Name: document_references document_references_document_id_fkey; Type: FK CONSTRAINT; Schema: documents; Owner: -
--

ALTER TABLE ONLY documents.document_references
    ADD CONSTRAINT document_references_document_id_fkey FOREIGN KEY (document_id) REFERENCES documents.documents(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
