import { defineFeature, type ServiceDeps } from '../../feature-api/feature.js';
import { createAccountsService } from './accounts.service.js';
import { authRoutes } from './auth.routes.js';
import { createInvitationsRepository } from './invitations.repository.js';
import { createInvitationsService } from './invitations.service.js';
import { createPasswordResetService } from './password-reset.service.js';
import { createUsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

/** What the feature builds, once per process or isolate: handlers and later features reach each service by its name here. */
const accountsServices = (deps: ServiceDeps) => {
  const publicUrl = deps.settings.publicUrl;
  return {
    accounts: createAccountsService({ ...deps, publicUrl }),
    passwordReset: createPasswordResetService({ ...deps, publicUrl }),
    users: createUsersService(deps),
    invitations: createInvitationsService({ ...deps, publicUrl }),
  };
};

declare module '../../http/env.js' {
  interface Services extends ReturnType<typeof accountsServices> {}
}

/** Accounts: registration, sessions, password reset, users and invitations. */
export const accountsFeature = defineFeature({
  repositories: (kit) => ({ users: createUsersRepository(kit), invitations: createInvitationsRepository(kit) }),
  services: accountsServices,
  routes: [...authRoutes, ...usersRoutes],
});
