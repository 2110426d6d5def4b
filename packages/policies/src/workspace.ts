import type { Policy } from './types.ts';

/**
 * Workspace actions. Who may do what on a project follows project roles, held in the workspace's
 * own tables (services/workspace/src/domain/roles.ts); identity grants matter only for platform
 * admins, who read every project without a membership (spec 2, Authentication 6) and release
 * legal holds.
 */
export const workspace = {
  service: 'workspace',
  superAdmin: 'all',
  actions: {
    /** Any signed-in person: create projects, and act on projects as their project role allows. */
    use: { anyPerson: true },
    /**
     * Read every project without a membership. Reading only: changing a project takes a
     * membership, admins included (issue 14, item 6).
     */
    read_all_projects: { roles: ['platform_admin'] },
    /** Read the workspace audit log (GET /v1/audit): platform admins only (spec 2). */
    read_audit: { roles: ['platform_admin'] },
    /**
     * Act with the owner role where one's membership holds it. Never through the shared service
     * token, which names a person without proof: there an owner acts as an editor (issue 14, item 5).
     */
    act_as_owner: {
      anyPerson: true,
      notViaServiceToken: true,
      refusal: "A project owner's rights are never used through the shared service token",
    },
    /**
     * Release a legal hold, on any project and without a membership. Owners place holds but do
     * not lift them: a hold its subject's owners could release would be no hold (issue 14, item 13).
     */
    /**
     * Run the internal jobs (POST /internal/jobs/*): the platform's scheduler only, signed in with
     * X-Platform-Scheduler-Token (DECISIONS item 8); no person, admins included.
     */
    run_jobs: { services: ['service:scheduler'] },
    release_legal_holds: {
      roles: ['platform_admin'],
      notViaServiceToken: true,
      refusal: 'Only a platform admin releases a legal hold, and never through the shared service token',
    },
  },
} as const satisfies Policy;
