import { AppError } from '@platform/kit';
import { dropKeys, overlay, overlayVariants, pick } from './domain.ts';
import type { UnleashAdmin } from './unleash.ts';

type Json = Record<string, unknown>;

const seg = encodeURIComponent;
const feat = (project: string, feature: string) => `/api/admin/projects/${seg(project)}/features/${seg(feature)}`;
const envOf = (project: string, feature: string, env: string) => `${feat(project, feature)}/environments/${seg(env)}`;

/** The fields Unleash's write schemas take (updateFeatureSchema, updateFeatureStrategySchema, ...). */
const DETAIL_FIELDS = ['description', 'type', 'stale', 'archived', 'impressionData'] as const;
const STRATEGY_FIELDS = [
  'name',
  'title',
  'disabled',
  'sortOrder',
  'constraints',
  'parameters',
  'variants',
  'segments',
] as const;
const VARIANT_FIELDS = ['name', 'weight', 'weightType', 'stickiness', 'payload'] as const;
const APPLICATION_FIELDS = ['description', 'url', 'color', 'icon'] as const;
const SERVICE_ACCOUNT_FIELDS = ['name', 'username', 'rootRole'] as const;

const body = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown, field: string): Json[] => {
  const rows = body(v)[field];
  return Array.isArray(rows) ? (rows as Json[]) : [];
};
/** Drops nulls a write schema refuses (a strategy's unset title comes back as null). */
const noNulls = (v: Json): Json => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null));

export const keyNotFound = (name: string) => new AppError(404, 'key_not_found', `No API key named ${name}`);

/**
 * The feature-flag surface over one subscription's Unleash admin API (OPS-021). Reads pass the
 * server's value on with keys removed (OPS-027); every value write reads first, lays the
 * operator's fields over the read value, and sends it whole with the read's version: its ETag as
 * If-Match (OPS-022..024). Refusals come back as the server gave them (OPS-025, OPS-026).
 */
export class FlagsProxy {
  constructor(private readonly unleash: UnleashAdmin) {}

  private async get(path: string) {
    return this.unleash.call('GET', path);
  }

  /** Read, overlay, write whole with the read's version. */
  private async readThenWrite(
    readPath: string,
    write: { method: string; path: string },
    whole: (read: unknown) => unknown,
  ): Promise<unknown> {
    const read = await this.get(readPath);
    const sent = await this.unleash.call(write.method, write.path, whole(read.body), read.etag);
    return sent.body;
  }

  // Reads (viewer).
  async features(project: string) {
    return dropKeys(list((await this.get(`/api/admin/projects/${seg(project)}/features`)).body, 'features'));
  }
  async feature(project: string, feature: string) {
    return dropKeys((await this.get(feat(project, feature))).body);
  }
  async strategies(project: string, feature: string, env: string) {
    return dropKeys((await this.get(`${envOf(project, feature, env)}/strategies`)).body);
  }
  /** A strategy's values: its variants (Unleash 7 keeps a flag's values there; environment variants are deprecated). */
  async values(project: string, feature: string, env: string, strategy: string) {
    const read = body((await this.get(`${envOf(project, feature, env)}/strategies/${seg(strategy)}`)).body);
    return dropKeys({ strategy: read.id ?? strategy, variants: Array.isArray(read.variants) ? read.variants : [] });
  }
  async applications() {
    return dropKeys(list((await this.get('/api/admin/metrics/applications')).body, 'applications'));
  }
  async serviceAccounts() {
    return dropKeys(list((await this.get('/api/admin/service-account')).body, 'serviceAccounts'));
  }
  /** API keys listed without their secrets (Unleash's own list carries them). */
  async keys() {
    return dropKeys(list((await this.get('/api/admin/api-tokens')).body, 'tokens'));
  }

  /** One key, secret included: its own request, for an engineer (OPS-028, OPS-055). */
  async key(name: string) {
    const tokens = list((await this.get(`/api/admin/api-tokens/${seg(name)}`)).body, 'tokens');
    if (tokens.length === 0) throw keyNotFound(name);
    return { name, tokens };
  }

  // Writes (engineer).
  async createFeature(project: string, data: Json) {
    return (await this.unleash.call('POST', `/api/admin/projects/${seg(project)}/features`, data)).body;
  }
  async updateDetails(project: string, feature: string, fields: Json) {
    const path = feat(project, feature);
    return this.readThenWrite(path, { method: 'PUT', path }, (read) =>
      overlay(pick(read, DETAIL_FIELDS), pick(fields, DETAIL_FIELDS)),
    );
  }
  async createStrategy(project: string, feature: string, env: string, data: Json) {
    return (await this.unleash.call('POST', `${envOf(project, feature, env)}/strategies`, data)).body;
  }
  async updateStrategy(project: string, feature: string, env: string, id: string, fields: Json) {
    const path = `${envOf(project, feature, env)}/strategies/${seg(id)}`;
    return this.readThenWrite(path, { method: 'PUT', path }, (read) =>
      overlay(noNulls(pick(read, STRATEGY_FIELDS)), pick(fields, STRATEGY_FIELDS)),
    );
  }
  /**
   * A strategy's values: each sent variant laid over the read one of its name (others kept), the
   * strategy sent whole with the read's version.
   */
  async updateValues(project: string, feature: string, env: string, strategy: string, variants: Json[]) {
    const path = `${envOf(project, feature, env)}/strategies/${seg(strategy)}`;
    return this.readThenWrite(path, { method: 'PUT', path }, (read) => ({
      ...noNulls(pick(read, STRATEGY_FIELDS)),
      variants: overlayVariants(
        list(read, 'variants').map((v) => pick(v, VARIANT_FIELDS)),
        variants.map((v) => pick(v, VARIANT_FIELDS)),
      ),
    }));
  }
  async updateApplication(app: string, fields: Json) {
    const path = `/api/admin/metrics/applications/${seg(app)}`;
    return this.readThenWrite(path, { method: 'POST', path }, (read) =>
      overlay(noNulls(pick(read, APPLICATION_FIELDS)), pick(fields, APPLICATION_FIELDS)),
    );
  }
  async createServiceAccount(data: Json) {
    return dropKeys((await this.unleash.call('POST', '/api/admin/service-account', data)).body);
  }
  async updateServiceAccount(id: string, fields: Json) {
    const path = `/api/admin/service-account/${seg(id)}`;
    return dropKeys(
      await this.readThenWrite(path, { method: 'PUT', path }, (read) =>
        overlay(pick(read, SERVICE_ACCOUNT_FIELDS), pick(fields, SERVICE_ACCOUNT_FIELDS)),
      ),
    );
  }
}
