-- Ranks become double precision (issue 14, item 12): a move takes the exact mean of its
-- neighbours, so about 50 moves fit into one 1024 gap before the project must be renumbered
-- (which makes every follower of /changes reload), instead of 10 with integers. Every bigint
-- rank the service wrote is a whole number far below 2^53, so the conversion is exact and keeps
-- the order; the position index is rebuilt with the column.
ALTER TABLE tasks ALTER COLUMN rank TYPE double precision;
