-- Events outbox drained after commit (issue 15, "Events that cost little"), first step.
-- dispatched_at: when the event's deliveries were made. NULL = pending (a dispatcher has yet
-- to queue them). Existing events already have their deliveries: stamped with created_at.
ALTER TABLE events ADD COLUMN dispatched_at timestamptz;
UPDATE events SET dispatched_at = created_at;
-- The dispatcher's order: pending events only, oldest first.
CREATE INDEX events_pending ON events (created_at) WHERE dispatched_at IS NULL;
-- The dispatcher (login role, not bp_app) reads pending events of every tenant, only in a
-- transaction that sets app.event_dispatch = 'on' (the pattern of 0019's purge_expired_read).
CREATE POLICY dispatch_pending_read ON events FOR SELECT TO CURRENT_USER
  USING (dispatched_at IS NULL AND current_setting('app.event_dispatch', true) = 'on');
