-- Vendor work on projects (spec 3, "Vendors and files"): which firm is on which project in what
-- role, the design fees agreed with a firm and the invoices against them. Firms, contacts and
-- insurance live in the vendors service (CON-172): a firm and a contact are kept here only as the
-- vendors service's ids, never their names, emails or certificates.

CREATE TABLE vendor_assignments (
  id uuid PRIMARY KEY,
  -- The firm's id in the vendors service.
  vendor_id uuid NOT NULL,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  role text NOT NULL CHECK (length(role) BETWEEN 1 AND 100),
  -- One of the firm's contacts in the vendors service, when one is named.
  contact_id uuid,
  started_on date NOT NULL,
  -- Set when the firm is taken off the project; open while null.
  ended_on date CHECK (ended_on >= started_on),
  ended_by text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- A firm's assignments, open ones first (CON-166).
CREATE INDEX vendor_assignments_vendor ON vendor_assignments (vendor_id, (ended_on IS NOT NULL), created_at, id);
-- The firms on a project: its open assignments.
CREATE INDEX vendor_assignments_project_open ON vendor_assignments (project_id, vendor_id) WHERE ended_on IS NULL;

CREATE TABLE design_fees (
  id uuid PRIMARY KEY,
  vendor_id uuid NOT NULL,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  description text NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
  agreed_minor bigint NOT NULL CHECK (agreed_minor >= 0),
  -- Kept: the sum of the fee's invoices, written with each invoice; never above agreed_minor.
  invoiced_minor bigint NOT NULL DEFAULT 0 CHECK (invoiced_minor >= 0 AND invoiced_minor <= agreed_minor),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX design_fees_vendor ON design_fees (vendor_id, created_at, id);
CREATE INDEX design_fees_project ON design_fees (project_id, vendor_id);

CREATE TABLE fee_invoices (
  id uuid PRIMARY KEY,
  fee_id uuid NOT NULL REFERENCES design_fees (id),
  number text NOT NULL CHECK (length(number) BETWEEN 1 AND 100),
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  invoiced_on date NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
-- One invoice number once per fee, ignoring case (409 invoice_number_taken).
CREATE UNIQUE INDEX fee_invoices_number ON fee_invoices (fee_id, lower(number));
CREATE INDEX fee_invoices_fee ON fee_invoices (fee_id, invoiced_on DESC, created_at DESC, id DESC);
