import type { WorkspaceConfig } from '../config.ts';
import { BrokerTranscriber, type Transcriber, transcriptionConfigured } from './transcription.ts';

/** The transcription client the configuration names, or none (audio slices then answer 503). */
export function transcriberFromConfig(
  c: Pick<
    WorkspaceConfig,
    | 'BROKER_URL'
    | 'SERVICE_TOKEN'
    | 'TRANSCRIPTION_MODEL'
    | 'TRANSCRIPTION_PROVIDER'
    | 'TRANSCRIPTION_FAST_MODEL'
    | 'TRANSCRIPTION_FAST_PROVIDER'
    | 'TRANSCRIPTION_TIMEOUT_MS'
  >,
): Transcriber | undefined {
  const o = {
    baseUrl: c.BROKER_URL ?? '',
    serviceToken: c.SERVICE_TOKEN,
    model: c.TRANSCRIPTION_MODEL,
    provider: c.TRANSCRIPTION_PROVIDER,
    fastModel: c.TRANSCRIPTION_FAST_MODEL,
    fastProvider: c.TRANSCRIPTION_FAST_PROVIDER,
    timeoutMs: c.TRANSCRIPTION_TIMEOUT_MS,
  };
  return transcriptionConfigured(o) ? new BrokerTranscriber(o) : undefined;
}
