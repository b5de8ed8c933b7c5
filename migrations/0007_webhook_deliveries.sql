-- Webhook deliveries: one per (webhook, event), with every attempt kept. The job worker
-- schedules the attempts; these tables are what the API shows and what decides.
CREATE TABLE webhook_deliveries (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  webhook_id uuid NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  last_response_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, webhook_id, event_id),
  FOREIGN KEY (tenant_id, webhook_id) REFERENCES webhooks (tenant_id, id),
  FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id)
);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (tenant_id, webhook_id, created_at);
SELECT bp_tenant_table('webhook_deliveries');

CREATE TABLE webhook_attempts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  delivery_id uuid NOT NULL,
  webhook_id uuid NOT NULL,
  event_id uuid NOT NULL,
  -- 1, 2, ... across the delivery's life (a redelivery goes on counting)
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  -- what the receiver answered; NULL when no answer came (refused, timeout, network)
  response_status integer,
  error text,
  response_excerpt text,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, delivery_id) REFERENCES webhook_deliveries (tenant_id, id)
);
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (tenant_id, webhook_id, attempted_at DESC, id);
SELECT bp_tenant_table('webhook_attempts');
