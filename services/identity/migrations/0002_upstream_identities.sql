-- Who a person is at an upstream OpenID provider: (issuer, sub) is the stable key there, an email
-- is not. The first sign-in links by a verified email; later ones find the person by this row.
CREATE TABLE upstream_identities (
  issuer text NOT NULL,
  sub text NOT NULL,
  fid uuid NOT NULL REFERENCES people (fid) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, sub)
);
-- One account per person at each upstream: a second account claiming the same email is refused.
CREATE UNIQUE INDEX upstream_identities_one_per_person ON upstream_identities (issuer, fid);

-- people.upstream_sub named no issuer and was never written; the table above replaces it.
DROP INDEX people_upstream_sub_key;
ALTER TABLE people DROP COLUMN upstream_sub;
