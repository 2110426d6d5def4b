import type { BusTopology } from '@platform/kit';

/** The intelligence conversation queue's message lock: its consumer may wait on a model call. */
export const CONVERSATION_INTELLIGENCE_ACK_WAIT_MS = 5 * 60_000;

/**
 * The intelligence service's knowledge queue, which the workspace reads (spec 2, Bus topology):
 * subjects `intelligence.knowledge.<event>`, read by the durable consumer `knowledge_workspace`.
 */
export const KNOWLEDGE_QUEUE = { service: 'intelligence', domain: 'knowledge', subscriber: 'workspace' } as const;

/**
 * The workspace's bus topology (spec 2, Bus topology; the publisher owns it), as data: each domain
 * is a topic (`workspace.<domain>.>`, with `restricted.workspace.<domain>.>` beside it for personal
 * data) and each subscriber a durable consumer `<domain>_<subscriber>`. Ack waits are one minute
 * (the kit's default) except conversation_intelligence, five. Declared when the service starts, on
 * NATS JetStream or the in-process bus of the embedded platform.
 */
export const WORKSPACE_TOPOLOGY = {
  service: 'workspace',
  domains: {
    project: { notification: {}, intelligence: {}, audit: {} },
    conversation: {
      listener: {},
      intelligence: { ackWaitMs: CONVERSATION_INTELLIGENCE_ACK_WAIT_MS },
      audit: {},
    },
    evidence: { intelligence: {}, audit: {} },
    fact: { intelligence: {}, audit: {} },
    file: { audit: {} },
    notification: { audit: {} },
  },
  reads: [{ ...KNOWLEDGE_QUEUE }],
} as const satisfies BusTopology;

export type WorkspaceDomain = keyof typeof WORKSPACE_TOPOLOGY.domains;

/** The domains the workspace's audit subscriber reads: every one. */
export const AUDITED_DOMAINS = Object.keys(WORKSPACE_TOPOLOGY.domains) as WorkspaceDomain[];
