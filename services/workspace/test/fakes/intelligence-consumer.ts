import { type Bus, type BusMessage, consumerName, type EventEnvelope } from '@platform/kit';
import { WORKSPACE_TOPOLOGY } from '../../src/bus-topology.ts';

/** A claim of the fake knowledge layer. */
export interface Claim {
  id: string;
  /** The fact or evidence record it was derived from. */
  factId?: string;
  evidenceId?: string;
  kind: 'statement' | 'commitment' | 'utterance';
  text: string;
  /** Who it is attributed to: a speaker label until speaker_attributed names the person. */
  author: string | null;
  speaker?: string;
  withdrawn: boolean;
}

/** Sources whose summaries' next steps become commitment claims (docs/intelligence-contract.md). */
export const MEETING_SOURCES = ['zoom', 'teams', 'google_meet', 'phone', 'recorder'];

/**
 * The intelligence service's side of the workspace contract (docs/intelligence-contract.md), as a
 * test stand-in reading the workspace's topics through the real consumers `evidence_intelligence`
 * and `fact_intelligence`: claims derived from a fact's text (read back by id, as the contract
 * says: events carry ids only), withdrawn when the fact is superseded or archived; redaction,
 * deletion and knowledge-off withdraw an evidence record's claims inside the handler, before the
 * message is acknowledged; speaker attribution rewrites authorship; a meeting summary's next steps
 * become commitments for meetings from a video call, phone or recorder only.
 */
export function fakeIntelligenceConsumer(
  bus: Bus,
  read: {
    factText(projectId: string, factId: string): Promise<string>;
    nextSteps(evidenceId: string): Promise<string[]>;
  },
) {
  const claims: Claim[] = [];
  /** Per message: the claims of its record still active when the handler returned (the ack). */
  const atAck = new Map<string, number>();
  let n = 0;
  const add = (c: Omit<Claim, 'id' | 'withdrawn'>) => claims.push({ ...c, id: `claim-${++n}`, withdrawn: false });
  const withdraw = (f: (c: Claim) => boolean) => {
    for (const c of claims) if (f(c)) c.withdrawn = true;
  };
  const active = (f: (c: Claim) => boolean) => claims.filter((c) => !c.withdrawn && f(c)).length;

  async function onFact(e: EventEnvelope<Record<string, string>>) {
    const { factId, projectId } = e.data;
    if (e.type === 'fact.recorded' || e.type === 'fact.updated') {
      withdraw((c) => c.factId === factId);
      const text = await read.factText(projectId, factId);
      for (const sentence of text.split(/(?<=\.)\s+/).filter(Boolean)) {
        add({ factId, kind: 'statement', text: sentence, author: e.data.actor });
      }
    }
    if (e.type === 'fact.superseded' || e.type === 'fact.archived') withdraw((c) => c.factId === factId);
  }

  async function onEvidence(e: EventEnvelope<Record<string, unknown>>) {
    const evidenceId = e.data.evidenceId as string;
    switch (e.type) {
      case 'evidence.redaction_recorded':
      case 'evidence.deleted':
        withdraw((c) => c.evidenceId === evidenceId);
        break;
      case 'evidence.knowledge_changed':
        if (e.data.contributesToKnowledge === false) withdraw((c) => c.evidenceId === evidenceId);
        break;
      case 'evidence.speaker_attributed':
        for (const c of claims) {
          if (c.evidenceId === evidenceId && c.speaker === e.data.label) c.author = e.data.principalId as string;
        }
        break;
      case 'evidence.summary_ready':
        if (!MEETING_SOURCES.includes(e.data.source as string)) break;
        for (const step of await read.nextSteps(evidenceId)) {
          add({ evidenceId, kind: 'commitment', text: step, author: null });
        }
        break;
    }
  }

  const handle = (f: (e: EventEnvelope<never>) => Promise<void>) => async (m: BusMessage) => {
    const e = m.data as EventEnvelope<never>;
    await f(e);
    const data = (e as EventEnvelope<Record<string, string>>).data;
    const id = data.evidenceId ?? data.factId;
    atAck.set(
      m.id,
      active((c) => c.evidenceId === id || c.factId === id),
    );
  };
  const t = WORKSPACE_TOPOLOGY.service;
  return {
    claims,
    atAck,
    /** Claims the extraction step would have made from a meeting's lines (speaker labels only). */
    extracted(evidenceId: string, speaker: string, text: string) {
      add({ evidenceId, kind: 'utterance', text, author: null, speaker });
    },
    async start() {
      const stops = [
        await bus.subscribe(`${t}.fact.>`, consumerName('fact', 'intelligence'), handle(onFact)),
        await bus.subscribe(`${t}.evidence.>`, consumerName('evidence', 'intelligence'), handle(onEvidence)),
      ];
      return async () => {
        for (const stop of stops) await stop();
      };
    },
  };
}
