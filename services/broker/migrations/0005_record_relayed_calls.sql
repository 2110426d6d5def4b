-- The usage recorder's write (issue 13.2): a relayed reply ends only once the write carrying its
-- call has committed, so this runs on every call's path. A statement naming the three tables is
-- parsed and planned afresh each time, which was most of the write's cost; a function keeps its
-- statements' plans for the session. It runs in the schema it was created in, whatever the
-- caller's search_path.
--
-- usage: usage_events rows; decisions: routing_decisions rows (their id is generated);
-- daily: usage_daily sums, one per (day, actor_fid, provider, model), in key order (two writers
-- never wait on each other in opposite orders). Each a JSON array of objects named by column.
CREATE FUNCTION record_relayed_calls(usage jsonb, decisions jsonb, daily jsonb) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO usage_events (
    id, occurred_at, day, actor_fid, provider, provider_kind, model, requested_model, request_kind,
    input_tokens, output_tokens, cache_read_tokens, cost_micros, cache_savings_micros,
    routing_savings_micros, source, estimated)
  SELECT
    id, occurred_at, day, actor_fid, provider, provider_kind, model, requested_model, request_kind,
    input_tokens, output_tokens, cache_read_tokens, cost_micros, cache_savings_micros,
    routing_savings_micros, source, estimated
  FROM jsonb_populate_recordset(NULL::usage_events, usage);

  INSERT INTO routing_decisions (
    decided_at, day, actor_fid, provider, family, tier, classifier, outcome, requested_model, model,
    rule_id, grading_cost_micros, savings_micros)
  SELECT
    decided_at, day, actor_fid, provider, family, tier, classifier, outcome, requested_model, model,
    rule_id, grading_cost_micros, savings_micros
  FROM jsonb_populate_recordset(NULL::routing_decisions, decisions);

  INSERT INTO usage_daily (
    day, actor_fid, provider, provider_kind, model, calls, input_tokens, output_tokens,
    cache_read_tokens, cost_micros, cache_savings_micros, routing_savings_micros)
  SELECT
    day, actor_fid, provider, provider_kind, model, calls, input_tokens, output_tokens,
    cache_read_tokens, cost_micros, cache_savings_micros, routing_savings_micros
  FROM jsonb_populate_recordset(NULL::usage_daily, daily)
  ON CONFLICT (day, actor_fid, provider, model) DO UPDATE SET
    calls = usage_daily.calls + excluded.calls,
    input_tokens = usage_daily.input_tokens + excluded.input_tokens,
    output_tokens = usage_daily.output_tokens + excluded.output_tokens,
    cache_read_tokens = usage_daily.cache_read_tokens + excluded.cache_read_tokens,
    cost_micros = usage_daily.cost_micros + excluded.cost_micros,
    cache_savings_micros = usage_daily.cache_savings_micros + excluded.cache_savings_micros,
    routing_savings_micros = usage_daily.routing_savings_micros + excluded.routing_savings_micros;
END $$;
