/** Contacts: people who may sign in to the vendor portal for a firm. */

/** Emails are compared ignoring case everywhere: stored, matched and made unique lower-case. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** A new contact may sign in unless the command says otherwise. */
export const initialActive = (requested?: boolean) => requested ?? true;

/** Who may use the vendor portal: an active contact of an active firm (VEN-041..043). */
export const mayUsePortal = (contact: { active: boolean } | undefined, firm: { status: string } | undefined) =>
  contact?.active === true && firm?.status === 'active';
