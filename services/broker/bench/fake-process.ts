import { startFakeProvider } from '../test/fakes/providers.ts';
import { PROVIDER_KEY } from './lib.ts';

/**
 * The bench's model provider, in its own process: the relay tests' fake (real wire formats,
 * replies that depend only on the request) demanding the bench key, recording nothing.
 * argv: text deltas per streamed reply, delay between stream events (ms).
 */
const [chunks = '8', delay = '0'] = process.argv.slice(2);
const fake = await startFakeProvider({
  key: PROVIDER_KEY,
  record: false,
  chunks: Number(chunks),
  chunkDelayMs: Number(delay),
});
process.send?.({ baseUrl: fake.baseUrl });
process.on('message', async () => {
  await fake.close();
  process.exit(0);
});
