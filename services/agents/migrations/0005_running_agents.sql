-- The reconciler reads every agent meant to run on each pass (to repair a workload that
-- vanished): a partial index keeps that read proportional to the running agents, not the table.
CREATE INDEX agents_running ON agents (id) WHERE desired_state = 'running';
