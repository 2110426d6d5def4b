import { AppError } from '@platform/kit';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, type CatalogModel, findModel } from '../src/domain/catalog.ts';
import { reportPeriod } from '../src/domain/period.ts';
import {
  cheaperModelFor,
  checkRules,
  classifierMayGrade,
  firstApplicableRule,
  parseGrade,
  priceMeasure,
  quickCheckPasses,
  type RoutingRule,
  type RoutingSettings,
  requestShape,
  routeFamilies,
  ruleMatches,
} from '../src/domain/routing.ts';

const C = BUILT_IN_CATALOG;
const model = (provider: string, wireId: string) => findModel(C, provider, wireId) as CatalogModel;
const rule = (r: Partial<RoutingRule> & Pick<RoutingRule, 'match' | 'target_model'>): RoutingRule => ({
  id: 'r1',
  name: 'rule',
  enabled: true,
  ...r,
});
const settings: RoutingSettings = { max_input_chars: 100, max_messages: 3, classifier: null };

/** The error a function throws, for asserting its code and field. */
function thrown(f: () => unknown): AppError {
  try {
    f();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('rule matching', () => {
  it('BRK-113 an exact model, a trailing-* prefix and * alone match; provider and api narrow', () => {
    expect(ruleMatches({ model: 'gpt-4.1' }, 'openai', 'gpt-4.1', 'chat')).toBe(true);
    expect(ruleMatches({ model: 'gpt-4.1' }, 'openai', 'gpt-4.1-mini', 'chat')).toBe(false);
    expect(ruleMatches({ model: 'gpt-4.1*' }, 'openai', 'gpt-4.1-mini', 'chat')).toBe(true);
    expect(ruleMatches({ model: 'gpt-4.1*' }, 'openai', 'gpt-4o', 'chat')).toBe(false);
    expect(ruleMatches({ model: '*' }, 'anthropic', 'claude-opus-4-1', 'messages')).toBe(true);
    expect(ruleMatches({ model: 'gpt-4.1', provider: 'anthropic' }, 'openai', 'gpt-4.1', 'chat')).toBe(false);
    expect(ruleMatches({ model: 'gpt-4.1', api: 'responses' }, 'openai', 'gpt-4.1', 'chat')).toBe(false);
    expect(ruleMatches({ model: 'gpt-4.1', api: 'chat', provider: 'openai' }, 'openai', 'gpt-4.1', 'chat')).toBe(true);
  });

  it('BRK-113 the first enabled matching rule wins; disabled rules and unusable targets are passed over', () => {
    const gpt41 = model('openai', 'gpt-4.1');
    const rules = [
      rule({ id: 'off', enabled: false, match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-nano' }),
      rule({ id: 'other-provider', match: { model: 'gpt-4.1' }, target_model: 'claude-haiku-4-5' }),
      rule({ id: 'dearer', match: { model: 'gpt-4.1' }, target_model: 'gpt-4o' }),
      rule({ id: 'mini', match: { model: 'gpt-4.1*' }, target_model: 'gpt-4.1-mini' }),
      rule({ id: 'nano', match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-nano' }),
    ];
    const hit = firstApplicableRule(C, rules, gpt41, 'chat');
    expect(hit?.rule.id).toBe('mini');
    expect(hit?.target.wire_id).toBe('gpt-4.1-mini');
    expect(firstApplicableRule(C, rules.slice(0, 3), gpt41, 'chat')).toBeNull();
    // A rule naming the requested model as its target pins it (applies, changes nothing).
    const pin = firstApplicableRule(C, [rule({ match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1' })], gpt41, 'chat');
    expect(pin?.target.wire_id).toBe('gpt-4.1');
  });
});

describe('request shape and the quick check', () => {
  it('BRK-114 chat: text of every message counted; tools and images noticed', () => {
    const plain = requestShape('chat', {
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hello there' }] },
      ],
    });
    expect(plain).toEqual({ chars: 20, messages: 2, tools: false, media: false });
    expect(quickCheckPasses(plain, settings)).toBe(true);
    const image = requestShape('chat', {
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
    });
    expect(image.media).toBe(true);
    expect(quickCheckPasses(image, settings)).toBe(false);
    const tools = requestShape('chat', { messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function' }] });
    expect(tools.tools).toBe(true);
    expect(quickCheckPasses(tools, settings)).toBe(false);
    const toolReply = requestShape('chat', { messages: [{ role: 'tool', content: 'result', tool_call_id: 'a' }] });
    expect(toolReply.tools).toBe(true);
  });

  it('BRK-114 responses: string input, instructions and typed input parts; files noticed', () => {
    expect(requestShape('responses', { input: 'Say hi', instructions: 'Be kind' })).toEqual({
      chars: 13,
      messages: 1,
      tools: false,
      media: false,
    });
    const file = requestShape('responses', {
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Read' },
            { type: 'input_file', file_id: 'f' },
          ],
        },
      ],
    });
    expect(file).toMatchObject({ chars: 4, messages: 1, media: true });
    const call = requestShape('responses', { input: [{ type: 'function_call_output', call_id: 'c', output: 'x' }] });
    expect(call.tools).toBe(true);
  });

  it('BRK-114 messages: system text counted; documents and tool results noticed', () => {
    const shape = requestShape('messages', {
      system: [{ type: 'text', text: 'abc' }],
      messages: [{ role: 'user', content: 'defg' }],
    });
    expect(shape).toEqual({ chars: 7, messages: 1, tools: false, media: false });
    expect(
      requestShape('messages', { messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] }).media,
    ).toBe(true);
    expect(
      requestShape('messages', { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'r' }] }] })
        .tools,
    ).toBe(true);
  });

  it('BRK-114 the quick check fails over the character or message limit; counting stops past the cap', () => {
    const long = requestShape('chat', { messages: [{ role: 'user', content: 'x'.repeat(101) }] });
    expect(quickCheckPasses(long, settings)).toBe(false);
    const many = requestShape('chat', { messages: Array.from({ length: 4 }, () => ({ role: 'user', content: 'a' })) });
    expect(quickCheckPasses(many, settings)).toBe(false);
    const capped = requestShape(
      'chat',
      { messages: Array.from({ length: 50 }, () => ({ role: 'user', content: 'abcd' })) },
      10,
    );
    expect(capped.chars).toBeGreaterThan(10);
    expect(capped.messages).toBeLessThan(50);
  });

  it('BRK-114 the classifier grades only plain requests within its ceiling, and only when one is named', () => {
    const withClassifier: RoutingSettings = {
      ...settings,
      classifier: { provider: 'openai', model: 'gpt-4.1-nano', max_input_chars: 500 },
    };
    const mid = requestShape('chat', { messages: [{ role: 'user', content: 'x'.repeat(300) }] });
    expect(classifierMayGrade(mid, withClassifier)).toBe(true);
    expect(classifierMayGrade(mid, settings)).toBe(false);
    const over = requestShape('chat', { messages: [{ role: 'user', content: 'x'.repeat(501) }] });
    expect(classifierMayGrade(over, withClassifier)).toBe(false);
    expect(classifierMayGrade({ ...mid, tools: true }, withClassifier)).toBe(false);
  });

  it('parseGrade reads the first grade named, in any case', () => {
    expect(parseGrade('Light')).toBe('light');
    expect(parseGrade('standard.')).toBe('standard');
    expect(parseGrade('I would say HEAVY')).toBe('heavy');
    expect(parseGrade('lightweight')).toBeNull();
    expect(parseGrade('')).toBeNull();
  });
});

describe('the cheaper model a grade allows', () => {
  it('BRK-114 light sends a heavy request to the cheapest light model of its family, same provider', () => {
    expect(cheaperModelFor(C, model('openai', 'gpt-4.1'), 'light')?.wire_id).toBe('gpt-4.1-nano');
    expect(cheaperModelFor(C, model('anthropic', 'claude-opus-4-1'), 'light')?.wire_id).toBe('claude-haiku-4-5');
    expect(cheaperModelFor(C, model('openai', 'gpt-4o'), 'light')?.wire_id).toBe('gpt-4o-mini');
  });

  it('BRK-114 standard allows standard (and not light) models; heavy or an equal tier keeps the model', () => {
    expect(cheaperModelFor(C, model('openai', 'gpt-4.1'), 'standard')?.wire_id).toBe('gpt-4.1-mini');
    expect(cheaperModelFor(C, model('openai', 'gpt-4o'), 'standard')).toBeNull();
    expect(cheaperModelFor(C, model('openai', 'gpt-4.1'), 'heavy')).toBeNull();
    expect(cheaperModelFor(C, model('openai', 'gpt-4.1-nano'), 'light')).toBeNull();
  });

  it('a model without a family, or not routing-enabled, is never routed; disabled models are never chosen', () => {
    expect(cheaperModelFor(C, model('speech', 'tts-1'), 'light')).toBeNull();
    const catalog = {
      ...C,
      models: C.models.map((m) =>
        m.wire_id === 'gpt-4.1-nano'
          ? { ...m, routing_enabled: false }
          : m.wire_id === 'gpt-4o'
            ? { ...m, routing_enabled: false }
            : m,
      ),
    };
    expect(cheaperModelFor(catalog, findModel(catalog, 'openai', 'gpt-4.1') as CatalogModel, 'light')?.wire_id).toBe(
      'gpt-4.1-mini',
    );
    expect(cheaperModelFor(catalog, findModel(catalog, 'openai', 'gpt-4o') as CatalogModel, 'light')).toBeNull();
  });
});

describe('families', () => {
  it('BRK-097 BRK-098 each family lists its routing-enabled models, cheapest first by input + output price', () => {
    const families = routeFamilies(C);
    expect(families.map((f) => f.family)).toEqual(['claude', 'gpt-4.1', 'gpt-4o']);
    const gpt41 = families.find((f) => f.family === 'gpt-4.1');
    expect(gpt41?.models.map((m) => m.wire_id)).toEqual(['gpt-4.1-nano', 'gpt-4.1-mini', 'gpt-4.1']);
    for (const f of families) {
      const measures = f.models.map((m) => m.price_measure);
      expect(measures).toEqual([...measures].sort((a, b) => a - b));
    }
    expect(gpt41?.models[0].price_measure).toBe(priceMeasure(model('openai', 'gpt-4.1-nano')));
    expect(families.flatMap((f) => f.models).some((m) => m.wire_id === 'tts-1')).toBe(false);
  });
});

describe('checking rules before they are stored', () => {
  const ok = rule({ match: { model: 'gpt-4.1' }, target_model: 'gpt-4.1-nano' });

  it('BRK-092 accepts exact and prefix rules with catalog targets', () => {
    expect(() =>
      checkRules(C, [
        ok,
        rule({ id: 'r2', match: { model: 'claude-*', provider: 'anthropic' }, target_model: 'claude-haiku-4-5' }),
      ]),
    ).not.toThrow();
  });

  it('BRK-092 refuses unknown providers and models, other providers’ targets, dearer targets and repeated ids', () => {
    const cases: [RoutingRule[], string, string][] = [
      [
        [rule({ match: { model: 'gpt-4.1', provider: 'nowhere' }, target_model: 'gpt-4.1-nano' })],
        'unknown_provider',
        'body/data/rules/0/match/provider',
      ],
      [
        [
          rule({
            match: { model: 'gpt-4.1', provider: 'anthropic', api: 'responses' },
            target_model: 'claude-haiku-4-5',
          }),
        ],
        'unknown_provider',
        'body/data/rules/0/match/api',
      ],
      [
        [rule({ match: { model: 'gpt-9' }, target_model: 'gpt-4.1-nano' })],
        'unknown_model',
        'body/data/rules/0/match/model',
      ],
      [
        [ok, rule({ id: 'r2', match: { model: 'gpt-4.1' }, target_model: 'gpt-0' })],
        'unknown_model',
        'body/data/rules/1/target_model',
      ],
      [
        [rule({ match: { model: 'gpt-4.1' }, target_model: 'claude-haiku-4-5' })],
        'unknown_model',
        'body/data/rules/0/target_model',
      ],
      [
        [rule({ match: { model: 'gpt-4.1-nano' }, target_model: 'gpt-4.1' })],
        'target_more_expensive',
        'body/data/rules/0/target_model',
      ],
      [[ok, { ...ok }], 'duplicate_rule_id', 'body/data/rules/1/id'],
    ];
    for (const [rules, code, field] of cases) {
      const e = thrown(() => checkRules(C, rules));
      expect([e.status, e.code, e.details[0].field]).toEqual([422, code, field]);
    }
  });
});

describe('report periods', () => {
  const now = '2025-06-16';

  it('BRK-100 BRK-101 defaults to this month up to today and takes inclusive from and to', () => {
    expect(reportPeriod({}, now)).toEqual({ from: '2025-06-01', to: '2025-06-16' });
    expect(reportPeriod({ from: '2025-05-02', to: '2025-05-02' }, now)).toEqual({
      from: '2025-05-02',
      to: '2025-05-02',
    });
  });

  it('BRK-064 a malformed day or from after to is 422 bad_period naming the field', () => {
    for (const [q, field] of [
      [{ from: '2025-6-01' }, 'querystring/from'],
      [{ to: '2025-02-30' }, 'querystring/to'],
      [{ to: '2025-13-01' }, 'querystring/to'],
      [{ from: '2025-06-10', to: '2025-06-09' }, 'querystring/from'],
    ] as const) {
      const e = thrown(() => reportPeriod(q, now));
      expect([e.status, e.code, e.details[0].field]).toEqual([422, 'bad_period', field]);
    }
  });
});
