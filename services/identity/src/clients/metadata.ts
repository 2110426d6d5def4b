import type { ClientMetadata } from 'oidc-provider';
import { type ClientDefinition, clientSecretFor, isServiceClient } from './definition.ts';

/**
 * A checked definition as the authorization server registers it. A service client's definition
 * keeps `response_types: [code]` (SIGN-037), but it has no redirect URIs, so the server registers
 * it without response types; its secret comes from the environment, never the file.
 */
export function toClientMetadata(
  def: ClientDefinition,
  env: Record<string, string | undefined>,
  environment: string,
): ClientMetadata {
  const common = {
    client_id: def.client_id,
    ...(def.client_name ? { client_name: def.client_name } : {}),
    scope: def.scope,
    first_party: def.metadata.first_party,
  };
  if (isServiceClient(def)) {
    return {
      ...common,
      client_secret: clientSecretFor(def, env, environment),
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: def.token_endpoint_auth_method,
    };
  }
  // A custom-scheme redirect is a native app's (SIGN-019); the server registers it as native.
  const native = def.redirect_uris.some((u) => !/^https?:/i.test(u));
  return {
    ...common,
    ...(native ? { application_type: 'native' as const } : {}),
    grant_types: ['authorization_code'],
    response_types: ['code'],
    redirect_uris: def.redirect_uris,
    post_logout_redirect_uris: def.post_logout_redirect_uris,
    token_endpoint_auth_method: 'none',
  };
}
