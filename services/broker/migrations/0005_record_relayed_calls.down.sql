DROP FUNCTION record_relayed_calls(jsonb, jsonb, jsonb);
