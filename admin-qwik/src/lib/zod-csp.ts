import { config } from 'zod';

/**
 * zod compiles fast object parsers with `new Function` when it may; under the
 * admin's CSP (no 'unsafe-eval') even its probe for that is a reported
 * violation. Jitless mode skips the probe. Imported before any schema module.
 */
config({ jitless: true });
