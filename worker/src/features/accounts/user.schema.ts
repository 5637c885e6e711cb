import * as z from 'zod';
import { TimestampSchema } from '../../wire/common.schema.js';
import { ROLES } from '../../wire/vocabulary.js';

export { ROLES };

export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** 12..1024 characters, any characters, no composition rules (docs/api.md). */
export const NewPasswordSchema = z
  .string({ error: 'password must be a string' })
  .min(12, 'password must be at least 12 characters')
  .max(1024, 'password must be at most 1024 characters');

/** Login applies no policy beyond "non-empty, not absurdly long". */
export const LoginPasswordSchema = z.string().min(1, 'password is required').max(1024, 'password is too long');

export const EmailSchema = z
  .email({ error: 'email must be an e-mail address' })
  .max(254, 'email is too long')
  .transform((e) => e.toLowerCase());

export const DisplayNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'display name must not contain control characters');

export const RegisterSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  displayName: DisplayNameSchema.optional(),
});

export const LoginSchema = z.object({
  email: z
    .string()
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: LoginPasswordSchema,
});

export const CodeSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'code is not valid');
export const VerifySchema = z.object({ code: CodeSchema });

export const UserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    displayName: z.string().nullable(),
    role: RoleSchema,
    verified: z.boolean(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'User' });
export type PublicUserDto = z.output<typeof UserSchema>;

/** A session: the bearer token and whose it is (registration, login, invitation). */
export const SessionSchema = z.object({ token: z.string(), user: UserSchema }).meta({ id: 'Session' });
export type SessionDto = z.output<typeof SessionSchema>;

/** `PATCH /v1/auth/me`: a new password ends every session, so the answer carries a new token. */
export const MeUpdatedSchema = z.object({ user: UserSchema, token: z.string().optional() });
export type MeUpdatedDto = z.output<typeof MeUpdatedSchema>;

export const PasswordResetRequestSchema = z.object({
  email: z
    .string()
    .max(254)
    .transform((e) => e.toLowerCase()),
});
export const PasswordResetConfirmSchema = z.object({ code: CodeSchema, password: NewPasswordSchema });

export const UpdateMeSchema = z
  .object({
    displayName: DisplayNameSchema.nullable().optional(),
    password: NewPasswordSchema.optional(),
    currentPassword: LoginPasswordSchema.optional(),
  })
  .refine((b) => b.password === undefined || b.currentPassword !== undefined, {
    message: 'currentPassword is required to set a new password',
    path: ['currentPassword'],
  });

export const UpdateUserSchema = z.object({
  displayName: DisplayNameSchema.nullable().optional(),
  role: RoleSchema.optional(),
});

/** Only `admin` can be invited: ownership moves by transfer, never by invitation. */
export const CreateInvitationSchema = z.object({ email: EmailSchema, role: z.literal('admin').default('admin') });

export const AcceptInvitationSchema = z.object({
  code: CodeSchema,
  password: NewPasswordSchema,
  displayName: DisplayNameSchema.optional(),
});

export const InvitationSchema = z
  .object({ id: z.uuid(), email: z.string(), role: RoleSchema, expiresAt: TimestampSchema, createdAt: TimestampSchema })
  .meta({ id: 'Invitation' });
export type InvitationDto = z.output<typeof InvitationSchema>;
