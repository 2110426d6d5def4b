-- Routing (spec 3): substitution rules, the default rule's settings, who has routing off, and
-- one decision row per routed-path call (the stats and the routing side of GET /v1/savings).

-- The substitution rules, whole list replaced by PUT /v1/routing/rules; the first enabled
-- match in position order wins. A match model ending in * is a prefix.
CREATE TABLE routing_rules (
  id text PRIMARY KEY,
  position integer NOT NULL UNIQUE,
  name text NOT NULL,
  match_model text NOT NULL,
  match_provider text,
  match_api text CHECK (match_api IN ('chat', 'responses', 'messages')),
  target_model text NOT NULL,
  enabled boolean NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The default rule (one row). A request passes the quick check (grades light) when its text is
-- at most max_input_chars over at most max_messages messages with no tools, images or files.
-- When a classifier model is named, requests that fail the quick check but carry at most
-- classifier_max_input_chars of text (and no tools or media) are graded by it.
CREATE TABLE routing_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  max_input_chars integer NOT NULL CHECK (max_input_chars >= 0),
  max_messages integer NOT NULL CHECK (max_messages >= 0),
  classifier_provider text,
  classifier_model text,
  classifier_max_input_chars integer NOT NULL CHECK (classifier_max_input_chars >= 0),
  CHECK ((classifier_provider IS NULL) = (classifier_model IS NULL))
);
INSERT INTO routing_settings (id, max_input_chars, max_messages, classifier_max_input_chars)
VALUES (true, 2000, 6, 20000);

-- Routing is on for every email without a row here.
CREATE TABLE routing_opt_outs (
  email text PRIMARY KEY,
  off_at timestamptz NOT NULL,
  off_by text NOT NULL
);

-- What routing decided for each relayed call, written with the call's usage row.
CREATE TABLE routing_decisions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  decided_at timestamptz NOT NULL,
  day date NOT NULL,
  actor_fid text NOT NULL,
  provider text NOT NULL,
  family text,
  -- The tier of the model sent.
  tier text,
  -- quick_check, the classifier's wire id, or null when no grading ran.
  classifier text,
  outcome text NOT NULL CHECK (outcome IN ('rule', 'routed', 'kept', 'off')),
  requested_model text NOT NULL,
  model text NOT NULL,
  rule_id text,
  grading_cost_micros bigint NOT NULL DEFAULT 0,
  savings_micros bigint NOT NULL DEFAULT 0
);
CREATE INDEX routing_decisions_day ON routing_decisions (day);
CREATE INDEX routing_decisions_actor_day ON routing_decisions (actor_fid, day);
