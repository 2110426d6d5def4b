/**
 * The end of a reply the relay holds back until the usage row is committed (reply-end.ts): a
 * stream's final event wherever the chunks split it, a plain body's last byte, and nothing
 * mistaken for a final event that is only text inside an event's data.
 */
import { describe, expect, it } from 'vitest';
import type { Api } from '../src/domain/catalog.ts';
import { replyEnd } from '../src/relay/reply-end.ts';

/** Feeds `chunks` and answers what was sent at once and what was held for after the commit. */
function feed(api: Api, stream: boolean, chunks: string[]) {
  const end = replyEnd(api, stream);
  const sent = chunks.map((c) => end.push(Buffer.from(c)).toString('utf8')).join('');
  return { sent, held: end.rest().toString('utf8') };
}

const CHAT =
  'data: {"choices":[{"delta":{"content":"say data: [DONE]\\ndata: [DONE]"}}]}\n\n' +
  'data: {"choices":[],"usage":{"prompt_tokens":5}}\n\n' +
  'data: [DONE]\n\n';
const MESSAGES =
  'event: message_start\ndata: {"type":"message_start"}\n\n' +
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"event: message_stop"}}\n\n' +
  'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":3}}\n\n' +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';
const RESPONSES =
  'event: response.created\ndata: {"type":"response.created"}\n\n' +
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"response.completed"}\n\n' +
  'event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":5}}}\n\n';

const STREAMS: { api: Api; text: string; final: string }[] = [
  { api: 'chat', text: CHAT, final: 'data: [DONE]\n\n' },
  { api: 'messages', text: MESSAGES, final: 'event: message_stop\ndata: {"type":"message_stop"}\n\n' },
  { api: 'responses', text: RESPONSES, final: RESPONSES.slice(RESPONSES.lastIndexOf('event: response.completed')) },
];

describe('what of a reply waits for its usage row', () => {
  for (const { api, text, final } of STREAMS) {
    it(`13.2 a ${api} stream sends everything before its final event and holds that event, however the chunks split it`, () => {
      const before = text.slice(0, text.length - final.length);
      expect(feed(api, true, [text])).toEqual({ sent: before, held: final });
      for (let i = 1; i < text.length; i++) {
        expect(feed(api, true, [text.slice(0, i), text.slice(i)]), `split at ${i}`).toEqual({
          sent: before,
          held: final,
        });
      }
      // One byte at a time: nothing of the final event is sent early.
      expect(feed(api, true, [...text])).toEqual({ sent: before, held: final });
    });
  }

  it('13.2 SSE lines without the space after the colon and with CRLF line ends are recognised too', () => {
    const text = 'data:{"choices":[]}\r\n\r\ndata:[DONE]\r\n\r\n';
    expect(feed('chat', true, [text])).toEqual({ sent: 'data:{"choices":[]}\r\n\r\n', held: 'data:[DONE]\r\n\r\n' });
  });

  it('13.2 events that merely start like the final one are not held once they turn out otherwise', () => {
    const text = 'event: message_start\ndata: {}\n\nevent: message_stopped_early\ndata: {}\n\n';
    const { sent, held } = feed('messages', true, ['event: message_start\ndata: {}\n\nevent: mess', text.slice(42)]);
    expect(sent + held).toBe(text);
    expect(feed('messages', true, [text])).toEqual({ sent: text, held: '' });
  });

  it('13.2 a stream without a final event is sent whole (its body’s end still waits)', () => {
    const text = 'data: {"choices":[]}\n\n';
    expect(feed('chat', true, [text.slice(0, 5), text.slice(5)])).toEqual({ sent: text, held: '' });
  });

  it('13.2 a plain body sends all but its last byte', () => {
    expect(feed('chat', false, ['{"id":"x",', '"usage":{}}'])).toEqual({ sent: '{"id":"x","usage":{}', held: '}' });
    expect(feed('speech', false, ['ab', '', 'c'])).toEqual({ sent: 'ab', held: 'c' });
    expect(feed('chat', false, [])).toEqual({ sent: '', held: '' });
  });
});
