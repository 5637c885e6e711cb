/** See csp.mjs. */
export declare const ADMIN_CSP: string;
