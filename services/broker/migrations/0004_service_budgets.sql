-- Service credentials' identities (<client_id>@service.broker) have their own default monthly
-- budget, 0 until an admin sets one: minting credentials never adds to what a person can spend
-- without an admin (issue 14.4). An admin gives one service a budget with an override, or every
-- service without one a default here.
ALTER TABLE budget_settings
  ADD COLUMN service_default_limit_cents bigint NOT NULL DEFAULT 0 CHECK (service_default_limit_cents >= 0);
