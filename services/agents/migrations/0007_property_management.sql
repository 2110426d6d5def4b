-- The property-management tools (spec 3: move-ins, resident access, unit-mapping gaps, unit
-- mapping, missing PMS emails, emails from the directory). Kept in the database so every replica
-- shares them.

-- Tool answers read from the connector, already reduced to codes and flags (no names or contact
-- data is stored): move-ins, gaps and missing emails 30 minutes, resident access an hour per person.
CREATE TABLE pm_cache (
  kind text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (kind, key)
);

-- One row per agent, write tool and New York calendar day: how many calls did their work. Its row
-- lock orders the day's calls of that tool, so the limit (10 mappings, 30 fills) is never passed.
CREATE TABLE pm_tool_days (
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  tool text NOT NULL CHECK (tool IN ('apply_unit_mapping', 'fill_pms_emails_from_directory')),
  day date NOT NULL,
  calls integer NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, tool, day)
);

-- The first result of a write tool for one subject (a unit, a tenant) in the day: a repeat that
-- day answers it and writes nothing. Written with the day's count, in one transaction.
CREATE TABLE pm_tool_results (
  agent_id uuid NOT NULL,
  tool text NOT NULL,
  day date NOT NULL,
  subject text NOT NULL,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (agent_id, tool, day, subject),
  FOREIGN KEY (agent_id, tool, day) REFERENCES pm_tool_days (agent_id, tool, day) ON DELETE CASCADE
);
