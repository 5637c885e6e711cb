import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { DomainError } from '../core/domain/errors.js';

/**
 * zod validation whose failures take the contract's 400 body with `issues`.
 * Parsed synchronously (`safeParse`, through the validator's own
 * `validationFunction`): no schema of the API refines asynchronously, and
 * zod's async parse makes promises for every check of every request.
 */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(
    target,
    schema,
    (result) => {
      if (!result.success) {
        const issues = result.error.issues.map((i) => ({
          path: i.path.map(String).join('.') || target,
          message: i.message,
        }));
        throw new DomainError('invalid_request', 'Invalid request', issues);
      }
    },
    // The option's type names zod 3's result and zod 4's classic one together; the value is zod 4's.
    { validationFunction: (s, value) => s.safeParse(value) as never },
  );
