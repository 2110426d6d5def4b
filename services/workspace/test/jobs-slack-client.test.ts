import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSlack } from '../src/clients/slack.ts';
import { type FakeSlack, startFakeSlack } from './fakes/slack.ts';

let slack: FakeSlack;
beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack.close();
});

describe('the Slack client against the fake Web API', () => {
  it('19 WS-504 users.lookupByEmail finds a chat account by email and answers users_not_found for none', async () => {
    const u = slack.addUser({ email: 'Lead@ws.test', name: 'lead' });
    const client = new HttpSlack({ token: slack.token, baseUrl: slack.url });
    const found = await client.lookupByEmail('lead@ws.test');
    expect(found).toMatchObject({ ok: true, data: { id: u.id, profile: { email: 'Lead@ws.test' } } });
    expect(await client.lookupByEmail('nobody@ws.test')).toMatchObject({ ok: false, error: 'users_not_found' });
    // Read methods go form-encoded, with the bot token.
    const call = slack.calls.find((c) => c.method === 'users.lookupByEmail');
    expect(call?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call?.headers.authorization).toBe(`Bearer ${slack.token}`);
  });

  it('19 WS-500 chat.postMessage to a user id posts a direct message; failures and rate limits are answers', async () => {
    const u = slack.addUser({ email: 'dm@ws.test' });
    const client = new HttpSlack({ token: slack.token, baseUrl: slack.url });
    const r = await client.postMessage({ channel: u.id, text: 'Hello' });
    expect(r.ok).toBe(true);
    expect(slack.messages.at(-1)).toMatchObject({ channel: `D${u.id.slice(1)}`, text: 'Hello' });
    slack.failChannels.add(u.id);
    expect(await client.postMessage({ channel: u.id, text: 'Again' })).toMatchObject({
      ok: false,
      error: 'channel_not_found',
    });
    slack.failChannels.clear();
    slack.ratelimit['chat.postMessage'] = 7;
    expect(await client.postMessage({ channel: u.id, text: 'Again' })).toEqual({
      ok: false,
      error: 'ratelimited',
      status: 429,
      retryAfter: 7,
    });
    slack.ratelimit['chat.postMessage'] = undefined;
    const wrong = new HttpSlack({ token: 'xoxb-wrong', baseUrl: slack.url });
    expect(await wrong.postMessage({ channel: u.id, text: 'x' })).toMatchObject({ ok: false, error: 'invalid_auth' });
    const down = new HttpSlack({ token: slack.token, baseUrl: 'http://127.0.0.1:1/api' });
    expect(await down.postMessage({ channel: u.id, text: 'x' })).toMatchObject({ ok: false, error: 'unreachable' });
  });
});
