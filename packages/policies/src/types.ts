/**
 * The vocabulary of a policy: plain data, no code. The kit's `createCan` is its only interpreter
 * (packages/kit/src/auth/principal.ts); every service and identity's GET /v1/authz/me and
 * GET /v1/roles ask it over the same data.
 */
export type ScopeType = 'global' | 'building' | 'legal_entity';

/**
 * Who may take one action. A principal passes when any "who" field admits it (roles, services,
 * anyPerson, anyService, listed, anyone) and no restriction (apps, notViaServiceToken, scope)
 * refuses it. A rule with no "who" field admits nobody but a verified Super Admin (where the
 * policy's `superAdmin` is 'all').
 */
export interface Rule {
  /** People holding one of these roles: a global grant, or a grant in the scope the action is asked in. */
  roles?: readonly string[];
  /** These service principals (`service:<name>`), acting as themselves. */
  services?: readonly string[];
  /** Any signed-in person, whatever their grants (staff). */
  anyPerson?: boolean;
  /** Any service principal acting as itself. */
  anyService?: boolean;
  /** Anyone, signed in or not: the action is open. */
  anyone?: boolean;
  /** People whose email is on this list of the policy's `lists` (compared lower-case). */
  listed?: string;
  /**
   * Only these access-gateway applications of the policy's `apps`: a gateway token signed in for
   * another application is no proof here (401), nor is the platform access token unless the
   * policy's `platformToken` counts it as one of them. Other ways of signing in are not affected.
   */
  apps?: readonly string[];
  /** Never through the shared service token, whoever the person it names is (403). */
  notViaServiceToken?: boolean;
  /** 'global': only a global grant of the roles counts, never a building or legal-entity one. */
  scope?: 'global';
  /** What a refused, signed-in caller is told (403); a generic message otherwise. */
  refusal?: string;
}

export interface GatewayApp {
  /** The configuration variable holding the application's audience at the access gateway. */
  audience: string;
  /** What a token of this application is told on an action that does not accept it (401). */
  elsewhere: string;
}

export interface Policy<A extends string = string> {
  /** The service, as the launcher names it; in the matrix its actions are `<service>.<action>`. */
  service: string;
  /**
   * 'all': a verified global `super_admin` grant passes every rule of this policy (restrictions
   * such as notViaServiceToken still apply); 'none': grants other than those the rules name count
   * for nothing here. docs/decisions.md, "Super Admin across services".
   */
  superAdmin: 'all' | 'none';
  /** Access-gateway applications the rules name (`apps`). */
  apps?: Readonly<Record<string, GatewayApp>>;
  /**
   * For a policy whose rules name `apps`: the application whose rules identity's platform access
   * token follows (SIGN-064: the token is valid at every service), and what it is told on an
   * action of another application (401). Unset, the token is no proof on such actions.
   */
  platformToken?: { app: string; elsewhere: string };
  /** Email lists the rules name (`listed`), each the configuration variable holding it (comma-separated). */
  lists?: Readonly<Record<string, string>>;
  actions: Readonly<Record<A, Rule>>;
}

/** The action names of a policy. */
export type ActionOf<P> = P extends Policy<infer A> ? A : never;
