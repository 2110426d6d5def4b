-- Legacy project goals (spec 2, Project; WS-047, WS-048): the free-text goals of older clients move
-- into instructions under a "Goals:" heading when the result fits in 20,000 characters; otherwise
-- they stay in goals and instructions is left as it was. A moved text leaves goals empty (the
-- field itself stays for older clients). Whitespace-only goals are left alone.
WITH moved AS (
  SELECT id,
    CASE WHEN btrim(instructions) = '' THEN 'Goals:' || E'\n' || goals
         ELSE instructions || E'\n\n' || 'Goals:' || E'\n' || goals
    END AS result
  FROM projects
  WHERE btrim(goals) <> ''
)
UPDATE projects p SET instructions = moved.result, goals = ''
FROM moved
WHERE p.id = moved.id AND char_length(moved.result) <= 20000;
