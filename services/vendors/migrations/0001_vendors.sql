-- Vendors: firms, the people who may sign in to the vendor portal for them (contacts), the
-- insurance certificates firms give, and for each firm and coverage its current (latest)
-- certificate, kept by triggers so that every writer keeps it right.

CREATE TABLE firms (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('contractor', 'subcontractor', 'consultant', 'supplier', 'service_provider',
    'utility')),
  discipline text NOT NULL CHECK (discipline IN ('general_contracting', 'architecture', 'structural_engineering',
    'mep_engineering', 'civil_engineering', 'electrical', 'plumbing', 'hvac', 'roofing', 'concrete', 'steel',
    'carpentry', 'painting', 'landscaping', 'cleaning', 'security', 'elevators', 'fire_protection', 'environmental',
    'surveying', 'legal', 'property_management', 'other')),
  status text NOT NULL CHECK (status IN ('active', 'inactive')),
  -- The name ignoring case, as the service computes it (domain/firms.ts nameKey: NFC, then full
  -- Unicode case folding), so that uniqueness never depends on the database's locale.
  name_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A name is unique ignoring case (VEN-006); the list is ordered by it too, and q matches it.
CREATE UNIQUE INDEX firms_name_key ON firms (name_key);

-- Rows written straight to the table (a bulk load) without a key get the database's nearest
-- equivalent; the service always sets it.
CREATE FUNCTION firm_name_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name_key IS NULL THEN
    NEW.name_key := lower(normalize(NEW.name, NFC));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER firms_name_key BEFORE INSERT ON firms FOR EACH ROW EXECUTE FUNCTION firm_name_key();

CREATE TABLE contacts (
  id uuid PRIMARY KEY,
  firm_id uuid NOT NULL REFERENCES firms (id),
  -- Stored lower-case: unique across all firms, ignoring case (VEN-021, VEN-022).
  email text NOT NULL UNIQUE,
  given_name text NOT NULL,
  family_name text NOT NULL,
  phone text,
  active boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contacts_by_firm ON contacts (firm_id);

CREATE TABLE certificates (
  id uuid PRIMARY KEY,
  firm_id uuid NOT NULL REFERENCES firms (id),
  coverage text NOT NULL CHECK (coverage IN ('general_liability', 'workers_compensation', 'auto_liability', 'umbrella',
    'professional_liability', 'builders_risk', 'pollution_liability', 'property')),
  policy_number text NOT NULL,
  insurer text,
  starts_on date NOT NULL,
  expires_on date NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  recorded_by text NOT NULL DEFAULT 'system',
  -- Expiry must not be before start (VEN-029, VEN-030).
  CHECK (expires_on >= starts_on),
  -- The triple is unique per firm only (VEN-027, VEN-028).
  UNIQUE (firm_id, coverage, policy_number, starts_on)
);
CREATE INDEX certificates_by_firm ON certificates (firm_id, starts_on DESC, recorded_at DESC, id DESC);

-- One row per firm and coverage: its latest certificate (latest start; on equal starts the latest
-- recorded), with the firm's active flag copied in, so that GET /v1/vendor-insurance reads one
-- index range in expiry order whatever the number of firms.
CREATE TABLE current_certificates (
  firm_id uuid NOT NULL REFERENCES firms (id),
  coverage text NOT NULL,
  certificate_id uuid NOT NULL UNIQUE REFERENCES certificates (id),
  starts_on date NOT NULL,
  expires_on date NOT NULL,
  recorded_at timestamptz NOT NULL,
  active boolean NOT NULL,
  PRIMARY KEY (firm_id, coverage)
);
CREATE INDEX current_certificates_by_expiry ON current_certificates (expires_on, certificate_id) WHERE active;
CREATE INDEX current_certificates_by_coverage ON current_certificates (coverage, expires_on, certificate_id)
  WHERE active;

-- How many active firms' current certificates expire on each day, per coverage: a page's total
-- is a sum over days, not a count over firms.
CREATE TABLE current_expiry_counts (
  coverage text NOT NULL,
  expires_on date NOT NULL,
  certificates integer NOT NULL,
  PRIMARY KEY (coverage, expires_on)
);

-- A recorded certificate becomes its firm's current one for its coverage when it is the latest.
CREATE FUNCTION certificate_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO current_certificates AS c
    (firm_id, coverage, certificate_id, starts_on, expires_on, recorded_at, active)
  SELECT NEW.firm_id, NEW.coverage, NEW.id, NEW.starts_on, NEW.expires_on, NEW.recorded_at, f.status = 'active'
  FROM firms f WHERE f.id = NEW.firm_id
  ON CONFLICT (firm_id, coverage) DO UPDATE
    SET certificate_id = EXCLUDED.certificate_id, starts_on = EXCLUDED.starts_on,
      expires_on = EXCLUDED.expires_on, recorded_at = EXCLUDED.recorded_at
    WHERE (EXCLUDED.starts_on, EXCLUDED.recorded_at, EXCLUDED.certificate_id)
      > (c.starts_on, c.recorded_at, c.certificate_id);
  RETURN NULL;
END $$;
CREATE TRIGGER certificates_current AFTER INSERT ON certificates
  FOR EACH ROW EXECUTE FUNCTION certificate_recorded();

-- A firm's status is copied to its current certificates, one coverage at a time in coverage order,
-- so that concurrent writers take the count rows' locks in one order.
CREATE FUNCTION firm_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c record;
BEGIN
  FOR c IN SELECT coverage FROM current_certificates WHERE firm_id = NEW.id ORDER BY coverage LOOP
    UPDATE current_certificates SET active = (NEW.status = 'active')
    WHERE firm_id = NEW.id AND coverage = c.coverage AND active IS DISTINCT FROM (NEW.status = 'active');
  END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER firms_status AFTER UPDATE OF status ON firms
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION firm_status_changed();

-- The per-day counts follow the current certificates of active firms. A row that moves between
-- days changes two counts, taken in (coverage, day) order like every other writer's.
CREATE FUNCTION current_certificate_counted() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER current_certificates_counted AFTER INSERT OR UPDATE OR DELETE ON current_certificates
  FOR EACH ROW EXECUTE FUNCTION current_certificate_counted();
