-- Cluster mode: where each server process takes internal calls (host:port), registered with
-- its lease. A process that does not drive a table forwards the table's actions to the
-- address of the process that does. NULL: the process takes no forwarded calls.
ALTER TABLE instances ADD COLUMN address TEXT;
