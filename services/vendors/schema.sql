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
-- Name: vendors; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA vendors;

--
-- Name: certificate_recorded(); Type: FUNCTION; Schema: vendors; Owner: -
--

CREATE FUNCTION vendors.certificate_recorded() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO current_certificates AS c
    (firm_id, coverage, coverage_key, certificate_id, starts_on, expires_on, recorded_at, active)
  SELECT NEW.firm_id, NEW.coverage, NEW.coverage_key, NEW.id, NEW.starts_on, NEW.expires_on, NEW.recorded_at,
    f.status = 'active'
  FROM firms f WHERE f.id = NEW.firm_id
  ON CONFLICT (firm_id, coverage, coverage_key) DO UPDATE
    SET certificate_id = EXCLUDED.certificate_id, starts_on = EXCLUDED.starts_on,
      expires_on = EXCLUDED.expires_on, recorded_at = EXCLUDED.recorded_at
    WHERE (EXCLUDED.starts_on, EXCLUDED.recorded_at, EXCLUDED.certificate_id)
      > (c.starts_on, c.recorded_at, c.certificate_id);
  RETURN NULL;
END $$;

--
-- Name: current_certificate_counted(); Type: FUNCTION; Schema: vendors; Owner: -
--

CREATE FUNCTION vendors.current_certificate_counted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  d record;
BEGIN
  FOR d IN
    SELECT x.coverage, x.expires_on, sum(x.delta)::int AS delta
    FROM (
      SELECT OLD.coverage AS coverage, OLD.expires_on AS expires_on, -1 AS delta
      WHERE TG_OP <> 'INSERT' AND OLD.active
      UNION ALL
      SELECT NEW.coverage, NEW.expires_on, 1 WHERE TG_OP <> 'DELETE' AND NEW.active
    ) x
    GROUP BY x.coverage, x.expires_on HAVING sum(x.delta) <> 0
    ORDER BY x.coverage, x.expires_on
  LOOP
    INSERT INTO current_expiry_counts AS n (coverage, expires_on, certificates)
    VALUES (d.coverage, d.expires_on, d.delta)
    ON CONFLICT (coverage, expires_on) DO UPDATE SET certificates = n.certificates + EXCLUDED.certificates;
  END LOOP;
  RETURN NULL;
END $$;

--
-- Name: firm_name_key(); Type: FUNCTION; Schema: vendors; Owner: -
--

CREATE FUNCTION vendors.firm_name_key() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF NEW.name_key IS NULL THEN
    NEW.name_key := lower(normalize(NEW.name, NFC));
  END IF;
  RETURN NEW;
END $$;

--
-- Name: firm_status_changed(); Type: FUNCTION; Schema: vendors; Owner: -
--

CREATE FUNCTION vendors.firm_status_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  c record;
BEGIN
  FOR c IN SELECT coverage, coverage_key FROM current_certificates WHERE firm_id = NEW.id
    ORDER BY coverage, expires_on, coverage_key LOOP
    UPDATE current_certificates SET active = (NEW.status = 'active')
    WHERE firm_id = NEW.id AND coverage = c.coverage AND coverage_key = c.coverage_key
      AND active IS DISTINCT FROM (NEW.status = 'active');
  END LOOP;
  RETURN NULL;
END $$;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: certificates; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.certificates (
    id uuid NOT NULL,
    firm_id uuid NOT NULL,
    coverage text NOT NULL,
    policy_number text NOT NULL,
    insurer text,
    starts_on date NOT NULL,
    expires_on date NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    recorded_by text DEFAULT 'system'::text NOT NULL,
    coverage_description text,
    coverage_key text DEFAULT ''::text NOT NULL,
    CONSTRAINT certificates_check CHECK ((expires_on >= starts_on)),
    CONSTRAINT certificates_coverage_check CHECK ((coverage = ANY (ARRAY['general_liability'::text, 'workers_compensation'::text, 'auto_liability'::text, 'umbrella'::text, 'professional_liability'::text, 'builders_risk'::text, 'pollution_liability'::text, 'property'::text, 'employers_liability'::text, 'excess_liability'::text, 'cyber_liability'::text, 'inland_marine'::text, 'crime'::text, 'employment_practices_liability'::text, 'garage_liability'::text, 'liquor_liability'::text, 'owners_contractors_protective'::text, 'railroad_protective_liability'::text, 'other'::text]))),
    CONSTRAINT certificates_coverage_description CHECK ((((coverage = 'other'::text) = (coverage_description IS NOT NULL)) AND ((coverage = 'other'::text) = (coverage_key <> ''::text))))
);

--
-- Name: contacts; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.contacts (
    id uuid NOT NULL,
    firm_id uuid NOT NULL,
    email text NOT NULL,
    given_name text NOT NULL,
    family_name text NOT NULL,
    phone text,
    active boolean NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT 'system'::text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: current_certificates; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.current_certificates (
    firm_id uuid NOT NULL,
    coverage text NOT NULL,
    certificate_id uuid NOT NULL,
    starts_on date NOT NULL,
    expires_on date NOT NULL,
    recorded_at timestamp with time zone NOT NULL,
    active boolean NOT NULL,
    coverage_key text DEFAULT ''::text NOT NULL
);

--
-- Name: current_expiry_counts; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.current_expiry_counts (
    coverage text NOT NULL,
    expires_on date NOT NULL,
    certificates integer NOT NULL
);

--
-- Name: firms; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.firms (
    id uuid NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    discipline text NOT NULL,
    status text NOT NULL,
    name_key text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT 'system'::text NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    kind_description text,
    CONSTRAINT firms_discipline_check CHECK ((discipline = ANY (ARRAY['general_contracting'::text, 'architecture'::text, 'structural_engineering'::text, 'mep_engineering'::text, 'civil_engineering'::text, 'electrical'::text, 'plumbing'::text, 'hvac'::text, 'roofing'::text, 'concrete'::text, 'steel'::text, 'carpentry'::text, 'painting'::text, 'landscaping'::text, 'cleaning'::text, 'security'::text, 'elevators'::text, 'fire_protection'::text, 'environmental'::text, 'surveying'::text, 'legal'::text, 'property_management'::text, 'other'::text]))),
    CONSTRAINT firms_kind_check CHECK ((kind = ANY (ARRAY['contractor'::text, 'subcontractor'::text, 'consultant'::text, 'supplier'::text, 'service_provider'::text, 'utility'::text, 'manufacturer'::text, 'distributor'::text, 'equipment_rental'::text, 'staffing_agency'::text, 'government_agency'::text, 'other'::text]))),
    CONSTRAINT firms_kind_description CHECK (((kind = 'other'::text) = (kind_description IS NOT NULL))),
    CONSTRAINT firms_status_check CHECK ((status = ANY (ARRAY['active'::text, 'inactive'::text])))
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.idempotency_keys (
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
-- Name: outbox; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.outbox (
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
-- Name: outbox_id_seq; Type: SEQUENCE; Schema: vendors; Owner: -
--

CREATE SEQUENCE vendors.outbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: outbox_id_seq; Type: SEQUENCE OWNED BY; Schema: vendors; Owner: -
--

ALTER SEQUENCE vendors.outbox_id_seq OWNED BY vendors.outbox.id;

--
-- Name: schema_migrations; Type: TABLE; Schema: vendors; Owner: -
--

CREATE TABLE vendors.schema_migrations (
    id text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: outbox id; Type: DEFAULT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.outbox ALTER COLUMN id SET DEFAULT nextval('vendors.outbox_id_seq'::regclass);

--
-- Name: certificates certificates_one_per_line; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.certificates
    ADD CONSTRAINT certificates_one_per_line UNIQUE (firm_id, coverage, coverage_key, policy_number, starts_on);

--
-- Name: certificates certificates_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.certificates
    ADD CONSTRAINT certificates_pkey PRIMARY KEY (id);

--
-- Name: contacts contacts_email_key; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.contacts
    ADD CONSTRAINT contacts_email_key UNIQUE (email);

--
-- Name: contacts contacts_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.contacts
    ADD CONSTRAINT contacts_pkey PRIMARY KEY (id);

--
-- Name: current_certificates current_certificates_certificate_id_key; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.current_certificates
    ADD CONSTRAINT current_certificates_certificate_id_key UNIQUE (certificate_id);

--
-- Name: current_certificates current_certificates_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.current_certificates
    ADD CONSTRAINT current_certificates_pkey PRIMARY KEY (firm_id, coverage, coverage_key);

--
-- Name: current_expiry_counts current_expiry_counts_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.current_expiry_counts
    ADD CONSTRAINT current_expiry_counts_pkey PRIMARY KEY (coverage, expires_on);

--
-- Name: firms firms_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.firms
    ADD CONSTRAINT firms_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (key);

--
-- Name: outbox outbox_event_id_key; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.outbox
    ADD CONSTRAINT outbox_event_id_key UNIQUE (event_id);

--
-- Name: outbox outbox_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.outbox
    ADD CONSTRAINT outbox_pkey PRIMARY KEY (id);

--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);

--
-- Name: certificates_by_firm; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX certificates_by_firm ON vendors.certificates USING btree (firm_id, starts_on DESC, recorded_at DESC, id DESC);

--
-- Name: contacts_by_firm; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX contacts_by_firm ON vendors.contacts USING btree (firm_id);

--
-- Name: current_certificates_by_coverage; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX current_certificates_by_coverage ON vendors.current_certificates USING btree (coverage, expires_on, certificate_id) WHERE active;

--
-- Name: current_certificates_by_expiry; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX current_certificates_by_expiry ON vendors.current_certificates USING btree (expires_on, certificate_id) WHERE active;

--
-- Name: firms_name_key; Type: INDEX; Schema: vendors; Owner: -
--

CREATE UNIQUE INDEX firms_name_key ON vendors.firms USING btree (name_key);

--
-- Name: idempotency_keys_created; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX idempotency_keys_created ON vendors.idempotency_keys USING btree (created_at);

--
-- Name: outbox_published; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX outbox_published ON vendors.outbox USING btree (published_at) WHERE (published_at IS NOT NULL);

--
-- Name: outbox_unpublished; Type: INDEX; Schema: vendors; Owner: -
--

CREATE INDEX outbox_unpublished ON vendors.outbox USING btree (id) WHERE (published_at IS NULL);

--
-- Name: certificates certificates_current; Type: TRIGGER; Schema: vendors; Owner: -
--

CREATE TRIGGER certificates_current AFTER INSERT ON vendors.certificates FOR EACH ROW EXECUTE FUNCTION vendors.certificate_recorded();

--
-- Name: current_certificates current_certificates_counted; Type: TRIGGER; Schema: vendors; Owner: -
--

CREATE TRIGGER current_certificates_counted AFTER INSERT OR DELETE OR UPDATE ON vendors.current_certificates FOR EACH ROW EXECUTE FUNCTION vendors.current_certificate_counted();

--
-- Name: firms firms_name_key; Type: TRIGGER; Schema: vendors; Owner: -
--

CREATE TRIGGER firms_name_key BEFORE INSERT ON vendors.firms FOR EACH ROW EXECUTE FUNCTION vendors.firm_name_key();

--
-- Name: firms firms_status; Type: TRIGGER; Schema: vendors; Owner: -
--

CREATE TRIGGER firms_status AFTER UPDATE OF status ON vendors.firms FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION vendors.firm_status_changed();

--
-- Name: certificates certificates_firm_id_fkey; Type: FK CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.certificates
    ADD CONSTRAINT certificates_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES vendors.firms(id);

--
-- Name: contacts contacts_firm_id_fkey; Type: FK CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.contacts
    ADD CONSTRAINT contacts_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES vendors.firms(id);

--
-- Name: current_certificates current_certificates_certificate_id_fkey; Type: FK CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.current_certificates
    ADD CONSTRAINT current_certificates_certificate_id_fkey FOREIGN KEY (certificate_id) REFERENCES vendors.certificates(id);

--
-- Name: current_certificates current_certificates_firm_id_fkey; Type: FK CONSTRAINT; Schema: vendors; Owner: -
--

ALTER TABLE ONLY vendors.current_certificates
    ADD CONSTRAINT current_certificates_firm_id_fkey FOREIGN KEY (firm_id) REFERENCES vendors.firms(id);

--
-- PostgreSQL database dump complete
--
