export * from '../../auth/policy.js';
