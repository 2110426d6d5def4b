ALTER TABLE people ADD COLUMN upstream_sub text;
CREATE UNIQUE INDEX people_upstream_sub_key ON people (upstream_sub) WHERE upstream_sub IS NOT NULL;
DROP TABLE upstream_identities;
