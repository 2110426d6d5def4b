/**
 * Usage and text read from provider replies: whole JSON bodies and SSE streams cut at any byte,
 * in the formats the fake provider speaks (the providers' own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../src/domain/catalog.ts';
import {
  estimateTokens,
  factsFromJson,
  jsonStringLength,
  promptChars,
  type ReplyFacts,
  StreamTap,
} from '../src/relay/usage-extract.ts';
import { type FakeProvider, startFakeProvider } from './fakes/providers.ts';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider({ record: false });
});
afterAll(() => fake.close());

const PATHS: Record<Api, string> = {
  chat: '/chat/completions',
  responses: '/responses',
  messages: '/messages',
  speech: '/audio/speech',
  transcription: '/audio/transcriptions',
};

async function reply(api: Api, body: object): Promise<Buffer> {
  const r = await fetch(fake.baseUrl + PATHS[api], {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return Buffer.from(await r.arrayBuffer());
}

/** Feeds `bytes` to a tap in pieces of `size` bytes (cutting events and characters anywhere). */
function tapIn(api: Api, bytes: Buffer, size: number, wantText: boolean): ReplyFacts {
  const tap = new StreamTap(api, wantText);
  for (let i = 0; i < bytes.length; i += size) tap.push(bytes.subarray(i, i + size));
  return tap.finish();
}

const forced = { usage: { input_tokens: 1200, output_tokens: 340, cached_tokens: 200 } };
const tokens = { input_tokens: 1200, output_tokens: 340, cache_read_tokens: 200 };

describe('streams', () => {
  it('BRK-014 chat streams are read from the include_usage chunk wherever the bytes are cut', async () => {
    const bytes = await reply('chat', {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'café ünïcödé 日本語 text' }],
      stream: true,
      stream_options: { include_usage: true },
      fake: forced,
    });
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const facts = tapIn('chat', bytes, size, true);
      expect(facts.tokens, `pieces of ${size}`).toEqual(tokens);
      expect(facts.text).toBe('gpt-4.1 heard: café ünïcödé 日本語 text');
    }
  });

  it('BRK-014 a chat stream without usage gives no tokens but the size of its text', async () => {
    const bytes = await reply('chat', {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'say "quoted" words\\n' }],
      stream: true,
    });
    const text = 'gpt-4.1 heard: say "quoted" words\\n';
    const counted = tapIn('chat', bytes, 5, false);
    expect(counted.tokens).toBeUndefined();
    expect(counted.text).toBe('');
    expect(counted.textChars).toBe(text.length);
    expect(tapIn('chat', bytes, 5, true).text).toBe(text);
  });

  it('BRK-014 responses streams are read from response.completed, with the response id', async () => {
    const bytes = await reply('responses', { model: 'gpt-4.1', input: 'stream me', stream: true, fake: forced });
    const facts = tapIn('responses', bytes, 11, true);
    expect(facts.tokens).toEqual(tokens);
    expect(facts.text).toBe('gpt-4.1 heard: stream me');
    expect(facts.responseId).toMatch(/^resp_[0-9a-f]{24}$/);
  });

  it('BRK-014 messages streams add cache reads to input and take output from message_delta', async () => {
    const bytes = await reply('messages', {
      model: 'claude-haiku-4-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      fake: forced,
    });
    const facts = tapIn('messages', bytes, 9, false);
    expect(facts.tokens).toEqual(tokens);
    expect(facts.textChars).toBe('claude-haiku-4-5 heard: stream me'.length);
  });

  it('BRK-014 CRLF line ends and a last line without a newline are read', () => {
    const usage =
      '{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":3}}}';
    const sse = `data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\r\n\r\ndata: ${usage}`;
    const facts = tapIn('chat', Buffer.from(sse), 4, true);
    expect(facts.tokens).toEqual({ input_tokens: 9, output_tokens: 4, cache_read_tokens: 3 });
    expect(facts.text).toBe('hi');
  });
});

describe('JSON replies', () => {
  it('BRK-014 chat, responses and messages bodies give their usage and text', async () => {
    const chat = JSON.parse(
      (
        await reply('chat', { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }], fake: forced })
      ).toString(),
    );
    expect(factsFromJson('chat', chat)).toEqual({ tokens, text: 'gpt-4.1 heard: hello' });
    const responses = JSON.parse(
      (await reply('responses', { model: 'gpt-4.1', input: 'hello', fake: forced })).toString(),
    );
    expect(factsFromJson('responses', responses)).toEqual({
      tokens,
      text: 'gpt-4.1 heard: hello',
      responseId: responses.id,
    });
    const messages = JSON.parse(
      (
        await reply('messages', {
          model: 'claude-haiku-4-5',
          max_tokens: 5,
          messages: [{ role: 'user', content: 'hello' }],
          fake: forced,
        })
      ).toString(),
    );
    expect(factsFromJson('messages', messages)).toEqual({ tokens, text: 'claude-haiku-4-5 heard: hello' });
  });

  it('BRK-014 Anthropic cache writes count as input', () => {
    const facts = factsFromJson('messages', {
      content: [],
      usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 20, output_tokens: 3 },
    });
    expect(facts.tokens).toEqual({ input_tokens: 35, output_tokens: 3, cache_read_tokens: 20 });
  });

  it('BRK-014 a body without usage gives no tokens', () => {
    expect(factsFromJson('chat', { choices: [{ message: { content: 'x' } }] }).tokens).toBeUndefined();
    expect(factsFromJson('chat', 'not an object')).toEqual({ text: '' });
  });
});

describe('estimates', () => {
  it('BRK-014 a prompt is measured from its messages, system text and input; four characters a token', () => {
    expect(
      promptChars({
        system: 'abcd',
        messages: [{ content: 'hello' }, { content: [{ type: 'text', text: 'abc' }, { type: 'image' }] }],
      }),
    ).toBe(12);
    expect(promptChars({ instructions: 'ab', input: 'abcdef' })).toBe(8);
    expect(estimateTokens(9, 4)).toEqual({ input_tokens: 3, output_tokens: 1, cache_read_tokens: 0 });
  });

  it('BRK-014 a JSON string is measured without parsing, escapes as one character', () => {
    const s = '{"content":"a\\"b\\\\c\\u00e9d"}';
    expect(jsonStringLength(s, s.indexOf('"content":"') + 11)).toBe(JSON.parse(s).content.length);
  });
});
