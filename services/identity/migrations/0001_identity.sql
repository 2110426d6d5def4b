-- People signed in by the authorization server; a person's id (FID) is the access token's sub.
CREATE TABLE people (
  fid uuid PRIMARY KEY,
  email text NOT NULL,
  email_verified boolean NOT NULL DEFAULT false,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  -- scrypt$N$r$p$salt$hash; null until an admin sets one (upstream or dev sign-in only).
  password_hash text,
  -- The upstream OpenID provider's subject, when the person signed in there.
  upstream_sub text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX people_email_key ON people (lower(email));
CREATE UNIQUE INDEX people_upstream_sub_key ON people (upstream_sub) WHERE upstream_sub IS NOT NULL;

-- Grants of people (by FID) and services (service:<client_id>).
CREATE TABLE grants (
  id uuid PRIMARY KEY,
  principal_id text NOT NULL,
  role text NOT NULL,
  scope_type text NOT NULL CHECK (scope_type IN ('global', 'building')),
  scope_id text NOT NULL,
  verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  CHECK ((scope_type = 'global') = (scope_id = '*'))
);
CREATE UNIQUE INDEX grants_one_per_scope ON grants (principal_id, role, scope_type, scope_id);

-- The authorization server's short-lived state: sessions, interactions, codes, grants.
CREATE TABLE oidc_payloads (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid ON oidc_payloads (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_expires ON oidc_payloads (expires_at);
