import type { Transcriber } from '../clients/transcription.ts';

/**
 * What the audio-slice route needs beyond every route's deps (RouteDeps, routes/deps.ts): the
 * transcription client. Declared here, next to the route that reads it.
 */
declare module './deps.ts' {
  interface RouteDeps {
    /** Transcription through the broker (BROKER_URL and a transcription model); unset: audio slices answer 503. */
    transcriber?: Transcriber;
  }
}
