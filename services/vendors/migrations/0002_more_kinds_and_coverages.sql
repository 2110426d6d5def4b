-- Issue 14, item 10: certificates and firms that could not be recorded. More firm kinds and
-- coverage lines, each list with an `other` that carries a description saying what it is
-- (required for `other`, absent otherwise). An `other` certificate's line is its description
-- ignoring case (coverage_key, computed by the service as for firm names), so that "latest per
-- coverage" and the coverage + policy number + start date uniqueness keep each such line apart.

ALTER TABLE firms DROP CONSTRAINT firms_kind_check;
ALTER TABLE firms ADD CONSTRAINT firms_kind_check CHECK (kind IN ('contractor', 'subcontractor', 'consultant',
  'supplier', 'service_provider', 'utility', 'manufacturer', 'distributor', 'equipment_rental', 'staffing_agency',
  'government_agency', 'other'));
ALTER TABLE firms ADD COLUMN kind_description text;
ALTER TABLE firms ADD CONSTRAINT firms_kind_description CHECK ((kind = 'other') = (kind_description IS NOT NULL));

ALTER TABLE certificates DROP CONSTRAINT certificates_coverage_check;
ALTER TABLE certificates ADD CONSTRAINT certificates_coverage_check CHECK (coverage IN ('general_liability',
  'workers_compensation', 'auto_liability', 'umbrella', 'professional_liability', 'builders_risk',
  'pollution_liability', 'property', 'employers_liability', 'excess_liability', 'cyber_liability', 'inland_marine',
  'crime', 'employment_practices_liability', 'garage_liability', 'liquor_liability', 'owners_contractors_protective',
  'railroad_protective_liability', 'other'));
ALTER TABLE certificates ADD COLUMN coverage_description text;
ALTER TABLE certificates ADD COLUMN coverage_key text NOT NULL DEFAULT '';
ALTER TABLE certificates ADD CONSTRAINT certificates_coverage_description
  CHECK ((coverage = 'other') = (coverage_description IS NOT NULL) AND (coverage = 'other') = (coverage_key <> ''));
-- The triple is unique per firm and line (VEN-027, VEN-028).
ALTER TABLE certificates DROP CONSTRAINT certificates_firm_id_coverage_policy_number_starts_on_key;
ALTER TABLE certificates ADD CONSTRAINT certificates_one_per_line
  UNIQUE (firm_id, coverage, coverage_key, policy_number, starts_on);

-- One current certificate per firm and line.
ALTER TABLE current_certificates ADD COLUMN coverage_key text NOT NULL DEFAULT '';
ALTER TABLE current_certificates DROP CONSTRAINT current_certificates_pkey;
ALTER TABLE current_certificates ADD PRIMARY KEY (firm_id, coverage, coverage_key);

CREATE OR REPLACE FUNCTION certificate_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- As before, one line at a time in the order of the count rows it moves (coverage, then expiry
-- day): a firm may now have several `other` lines, and concurrent writers must still take those
-- rows' locks in one order.
CREATE OR REPLACE FUNCTION firm_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
