import { defineFeature } from '../../feature-api/feature.js';
import { type AccountsService, createAccountsService } from './accounts.service.js';
import { authRoutes } from './auth.routes.js';
import { createInvitationsRepository } from './invitations.repository.js';
import { createInvitationsService, type InvitationsService } from './invitations.service.js';
import { createPasswordResetService, type PasswordResetService } from './password-reset.service.js';
import { createUsersRepository } from './users.repository.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService, type UsersService } from './users.service.js';

declare module '../../http/env.js' {
  interface Services {
    accounts: AccountsService;
    passwordReset: PasswordResetService;
    users: UsersService;
    invitations: InvitationsService;
  }
}

/** Accounts: registration, sessions, password reset, users and invitations. */
export const accountsFeature = defineFeature({
  repositories: (kit) => ({ users: createUsersRepository(kit), invitations: createInvitationsRepository(kit) }),
  services: (deps) => {
    const publicUrl = deps.settings.publicUrl;
    return {
      accounts: createAccountsService({ ...deps, publicUrl }),
      passwordReset: createPasswordResetService({ ...deps, publicUrl }),
      users: createUsersService(deps),
      invitations: createInvitationsService({ ...deps, publicUrl }),
    };
  },
  routes: [...authRoutes, ...usersRoutes],
});
