-- Personal and service API credentials (spec 3, Broker credential) and the links of saved
-- conversations (spec 3, Saved conversations).

-- A credential a person minted. The secret is never stored: only the SHA-256 of a 256-bit random
-- secret. A service credential acts as <client_id>@service.broker (a roster identity of kind
-- service); a personal one as its owner.
CREATE TABLE credentials (
  client_id text PRIMARY KEY,
  owner_fid text NOT NULL,
  owner_email text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('personal', 'service')),
  secret_hash text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- No expiry when null; there is no latest expiration.
  expires_at timestamptz,
  secret_set_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX credentials_owner ON credentials (owner_email, created_at);

-- A saved conversation: which workspace conversation an identity's API calls go to. The broker
-- keeps only these links, never message text. client_key is X-Platform-Conversation-Id.
CREATE TABLE broker_conversations (
  id uuid PRIMARY KEY,
  owner_email text NOT NULL,
  -- Null until the workspace has answered the create (retried with the same key on the next call).
  workspace_conversation_id text,
  client_key text,
  created_at timestamptz NOT NULL
);
-- Conversations without a client key (nulls are distinct) are found through their links.
CREATE UNIQUE INDEX broker_conversations_client_key ON broker_conversations (owner_email, client_key);

-- How later calls find a conversation: a provider response id (previous_response_id), a
-- responses-API conversation id, or the hash of a call's whole message list including its reply
-- (message_count messages). One key leads to one conversation per identity: the latest call's.
CREATE TABLE broker_conversation_links (
  owner_email text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('response', 'conversation', 'messages')),
  key text NOT NULL,
  conversation_id uuid NOT NULL REFERENCES broker_conversations (id) ON DELETE CASCADE,
  message_count integer NOT NULL DEFAULT 0 CHECK (message_count >= 0),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner_email, kind, key)
);
CREATE INDEX broker_conversation_links_conversation ON broker_conversation_links (conversation_id, kind);
